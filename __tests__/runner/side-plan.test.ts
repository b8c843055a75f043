import { describe, expect, it } from '@jest/globals'
import type { GatedRun, HelmSettings } from '../../src/config/types.js'
import { serverProdEnv } from '../../src/runner/prod-env.js'
import { displayCommand, planSide, resolveEntryPaths, withModel } from '../../src/runner/side-plan.js'

const helm: HelmSettings = {
  version: '0.5.16',
  maxEvalInstances: 50,
  numTrainTrials: 2,
  numThreads: 3,
  timeoutMinutes: 5,
  command: 'helm-run'
}
const run = (entry: string, metric = 'exact_match'): GatedRun => ({
  entry,
  match: null,
  metric,
  split: null,
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
})

describe('planSide', () => {
  const prodEnv = serverProdEnv({
    kind: 'server',
    api: 'chat',
    baseUrl: 'http://127.0.0.1:1/v1',
    model: 'm',
    tokenizer: 'simple/tokenizer1',
    maxSequenceLength: 1000,
    apiKeyEnv: null,
    requestTimeoutSeconds: 5
  })

  it('builds one argument array with the budget, a fresh suite, its own paths and the cache disabled', () => {
    const plan = planSide({
      side: 'candidate',
      prodEnv,
      helm,
      runs: [run('simple_mcqa'), run('simple_mcqa', 'quasi_exact_match'), run('dyck_language:num_parenthesis_pairs=3')],
      outDir: '/out',
      tempDir: '/tmp/x',
      stamp: '20260101T000000Z',
      command: '/venv/bin/helm-run',
      cwd: '/repo'
    })
    expect(plan.entries).toEqual([
      'simple_mcqa:model=helm-gate/gated-model',
      'dyck_language:num_parenthesis_pairs=3,model=helm-gate/gated-model'
    ])
    expect(plan.args).toEqual([
      '--run-entries',
      ...plan.entries,
      '--suite',
      'candidate-20260101T000000Z',
      '--output-path',
      '/out/candidate',
      '--local-path',
      '/tmp/x/candidate/prod_env',
      '--max-eval-instances',
      '50',
      '--num-train-trials',
      '2',
      '--num-threads',
      '3',
      '--disable-cache',
      '--plugins',
      'helm_gate_plugins.progress'
    ])
    expect(plan.logFile).toBe('/out/logs/candidate.log')
  })

  it('adds model arguments after existing ones', () => {
    expect(withModel('a', 'model=x/y')).toBe('a:model=x/y')
    expect(withModel('a:b=1', 'model=x/y')).toBe('a:b=1,model=x/y')
  })

  it('resolves a relative path= against the directory helm-gate runs in; HELM would join it to its output folder', () => {
    expect(resolveEntryPaths('custom_mcqa:path=./data/set.jsonl', '/repo')).toBe('custom_mcqa:path=/repo/data/set.jsonl')
    expect(resolveEntryPaths('custom_mcqa:num_train_instances=2,path=../d/x.jsonl', '/repo/sub')).toBe(
      'custom_mcqa:num_train_instances=2,path=/repo/d/x.jsonl'
    )
    // Absolute paths, bare names (HELM's own meaning) and other keys stay as written.
    expect(resolveEntryPaths('custom_mcqa:path=/data/x.jsonl', '/repo')).toBe('custom_mcqa:path=/data/x.jsonl')
    expect(resolveEntryPaths('custom_mcqa:path=x.jsonl', '/repo')).toBe('custom_mcqa:path=x.jsonl')
    expect(resolveEntryPaths('mmlu:subject=./x', '/repo')).toBe('mmlu:subject=./x')
    expect(resolveEntryPaths('simple_mcqa', '/repo')).toBe('simple_mcqa')
    const plan = planSide({
      side: 'baseline',
      prodEnv,
      helm,
      runs: [run('custom_mcqa:path=./gate/set.jsonl')],
      outDir: '/out',
      tempDir: '/tmp/x',
      stamp: 's',
      command: 'helm-run',
      cwd: '/work/clone'
    })
    expect(plan.entries).toEqual(['custom_mcqa:path=/work/clone/gate/set.jsonl,model=helm-gate/gated-model'])
  })

  it('runs a runner command once per entry into the suite folder, or once for all tasks into the side folder for lm-eval output', () => {
    const command = ['tool', '--tasks', '{entry}', '--out', '{output}', '--limit', '{max_eval_instances}']
    const input = {
      side: 'baseline' as const,
      prodEnv,
      helm,
      runs: [run('gate_arith'), run('gate_arith', 'other'), run('gate_arith_zeroshot')],
      outDir: '/out',
      tempDir: '/tmp/x',
      stamp: 's',
      command: 'helm-run',
      cwd: '/work'
    }
    const helmOutput = planSide({ ...input, runner: { kind: 'command', command, model: null, seed: 0, output: 'helm' } })
    expect(helmOutput.runner?.map(call => call.args)).toEqual([
      ['--tasks', 'gate_arith', '--out', '/out/baseline/runs/baseline-s', '--limit', '50'],
      ['--tasks', 'gate_arith_zeroshot', '--out', '/out/baseline/runs/baseline-s', '--limit', '50']
    ])
    const lmEval = planSide({ ...input, runner: { kind: 'command', command, model: null, seed: 0, output: 'lm-eval' } })
    expect(lmEval.runner).toEqual([
      {
        entry: 'gate_arith,gate_arith_zeroshot',
        command: 'tool',
        args: ['--tasks', 'gate_arith,gate_arith_zeroshot', '--out', '/out/baseline', '--limit', '50']
      }
    ])
    expect(lmEval.entries).toEqual(['gate_arith', 'gate_arith_zeroshot'])
    expect(lmEval.outputPath).toBe('/out/baseline')
  })

  it('quotes only what a shell would misread', () => {
    expect(displayCommand('helm-run', ['-r', 'a:b=1,model=x/y', "it's"], { PYTHONPATH: '/p' })).toBe(
      `PYTHONPATH=/p helm-run -r a:b=1,model=x/y 'it'\\''s'`
    )
  })
})
