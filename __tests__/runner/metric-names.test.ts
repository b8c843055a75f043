/**
 * Gated metric names checked before the run: the pure check against declared names, the helper's
 * output read strictly, and the helper itself on real HELM 0.5.16, validated against the names
 * real runs wrote (the committed fixtures), which it must all declare.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { loadGateConfig } from '../../src/config/load.js'
import type { GatedRun } from '../../src/config/types.js'
import {
  byGateEntry,
  checkMetricNames,
  declaredMetricNames,
  parseHelperOutput,
  refusalOf,
  type DeclaredMetrics
} from '../../src/runner/metric-names.js'
import { pluginPythonPath } from '../../src/runner/helm-install.js'
import { prepareRun } from '../../src/runner/prepare-run.js'
import { closestWords } from '../../src/words.js'
import { helmAvailable, HELM_RUN, REPO_ROOT, VENV_PYTHON } from '../../test-support/fake-openai/harness.js'

const run = (entry: string, metric: string): GatedRun => ({
  entry,
  match: null,
  metric,
  split: null,
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
})

const DECLARED: DeclaredMetrics = {
  ok: true,
  entries: [
    {
      entry: 'simple_mcqa:model=m',
      runSpecs: [{ name: 'simple_mcqa', numOutputs: 5, declared: ['exact_match', 'quasi_exact_match'], undeclared: [] }]
    },
    { entry: 'dyck:model=m', runSpecs: [{ name: 'dyck', numOutputs: 1, declared: ['exact_match_indicator'], undeclared: [] }] },
    { entry: 'custom:model=m', runSpecs: [{ name: 'custom', numOutputs: 1, declared: [], undeclared: ['my.Metric'] }] },
    { entry: 'broken:model=m', error: 'ValueError: Unknown run spec name: broken' }
  ]
}
const ALL_RUNS = ['simple_mcqa', 'dyck', 'custom', 'broken'].map(entry => run(entry, 'exact_match'))
const BY_ENTRY = byGateEntry(ALL_RUNS, ['simple_mcqa:model=m', 'dyck:model=m', 'custom:model=m', 'broken:model=m'], DECLARED)

describe('checkMetricNames', () => {
  it('accepts a declared name and <name>@k for the run spec own k only', () => {
    const runs = [run('simple_mcqa', 'exact_match'), run('simple_mcqa', 'quasi_exact_match@5'), run('dyck', 'exact_match_indicator')]
    const check = checkMetricNames(runs, BY_ENTRY, 'gate.yml')
    expect(check.refused).toEqual([])
    expect(check.lines).toEqual([
      'simple_mcqa exact_match: declared by the run spec',
      'simple_mcqa quasi_exact_match@5: declared by the run spec',
      'dyck exact_match_indicator: declared by the run spec'
    ])
    const wrongK = checkMetricNames([run('simple_mcqa', 'exact_match@3')], BY_ENTRY, 'gate.yml')
    expect(wrongK.refused).toHaveLength(1)
    expect(wrongK.refused[0].message).toContain('did you mean exact_match@5')
  })

  it('refuses an undeclared name with the closest names, the file, the field and the value', () => {
    const runs = [run('dyck', 'exact_match_indicator'), run('simple_mcqa', 'exact_mach')]
    const check = checkMetricNames(runs, BY_ENTRY, 'gate.yml')
    expect(check.refused).toHaveLength(1)
    const [error] = check.refused
    expect(error.code).toBe('config.metric_unknown')
    expect(error.message).toContain('did you mean exact_match or exact_match@5?')
    expect(error.location).toEqual({ file: 'gate.yml', field: 'runs[1].metric', value: 'exact_mach' })
    expect(check.lines[1]).toBe('simple_mcqa exact_mach: NOT among the names its metrics write; did you mean exact_match or exact_match@5?')
  })

  it('suggests the longer name that holds the one given (exact_match on dyck_language)', () => {
    const check = checkMetricNames([run('dyck', 'exact_match')], BY_ENTRY, 'gate.yml')
    expect(check.refused[0].message).toContain('did you mean exact_match_indicator?')
  })

  it('does not refuse what it cannot check, and says why', () => {
    const check = checkMetricNames([run('custom', 'anything'), run('broken', 'exact_match')], BY_ENTRY, 'gate.yml')
    expect(check.refused).toEqual([])
    expect(check.lines[0]).toContain('not checked (my.Metric declares no names')
    expect(check.lines[1]).toContain('not checked (HELM could not build the run spec: ValueError')
    const failed = checkMetricNames([run('dyck', 'x')], { ok: false, problem: 'no python' }, 'gate.yml')
    expect(failed).toEqual({ lines: ['not checked: no python'], refused: [] })
  })

  it('joins several refusals into one error, so the gate file is fixed in one pass', () => {
    const check = checkMetricNames([run('dyck', 'exact_match'), run('simple_mcqa', 'exact_mach')], BY_ENTRY, 'gate.yml')
    const error = refusalOf(check)
    expect(error?.message).toContain('run dyck:')
    expect(error?.message).toContain('run simple_mcqa:')
    expect(error?.location.field).toBe('runs[0].metric')
    expect(refusalOf(checkMetricNames([run('dyck', 'exact_match_indicator')], BY_ENTRY, 'gate.yml'))).toBeNull()
    expect(refusalOf(null)).toBeNull()
  })
})

describe('byGateEntry', () => {
  it('keys the answers by the gate file entry, and refuses answers out of the order asked', () => {
    expect(BY_ENTRY.ok && [...BY_ENTRY.byEntry.keys()]).toEqual(['simple_mcqa', 'dyck', 'custom', 'broken'])
    const swapped = byGateEntry(ALL_RUNS, ['dyck:model=m', 'simple_mcqa:model=m', 'custom:model=m', 'broken:model=m'], DECLARED)
    expect(swapped).toEqual({ ok: false, problem: 'the metric-name helper answered for other entries than it was asked' })
  })
})

describe('parseHelperOutput', () => {
  it('reads the entries and refuses anything else as a problem', () => {
    const good = parseHelperOutput(
      JSON.stringify({ entries: [{ entry: 'e', run_specs: [{ name: 'n', num_outputs: 1, declared: ['a'], undeclared: [] }] }] })
    )
    expect(good).toEqual({ ok: true, entries: [{ entry: 'e', runSpecs: [{ name: 'n', numOutputs: 1, declared: ['a'], undeclared: [] }] }] })
    expect(parseHelperOutput('Traceback ...')).toMatchObject({ ok: false })
    expect(parseHelperOutput('{}')).toEqual({ ok: false, problem: 'the metric-name helper printed no entries' })
    expect(parseHelperOutput('{"entries":[{"run_specs":[]}]}')).toMatchObject({ ok: false })
  })
})

describe('closestWords', () => {
  it('finds near misses and names that hold the word, nearest first, and nothing for an unrelated word', () => {
    expect(closestWords('exact_mach', ['exact_match', 'logprob', 'exact_match@5'])).toEqual(['exact_match', 'exact_match@5'])
    expect(closestWords('Exact_Match', ['exact_match'])).toEqual(['exact_match'])
    expect(closestWords('rouge_l', ['exact_match', 'logprob'])).toEqual([])
  })
})

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('the helper on real HELM 0.5.16', () => {
  async function declaredFor(entries: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'helm-gate-metric-names-'))
    const file = join(dir, 'gate.yml')
    writeFileSync(
      file,
      stringify({
        version: 1,
        helm: { version: '0.5.16', max_eval_instances: 10, command: HELM_RUN },
        deployments: {
          baseline: { api: 'chat', base_url: 'http://127.0.0.1:1/v1', model: 'served' },
          candidate: { api: 'chat', base_url: 'http://127.0.0.1:2/v1', model: 'served' }
        },
        runs: entries.map(entry => ({ entry, metric: 'exact_match', max_drop: 0.05 }))
      })
    )
    try {
      // prepareRun makes the side plans (entries with the side's model, prod_env) as run does.
      const prepared = await prepareRun(await loadGateConfig(file), { outDir: dir, sides: ['baseline'], tempDir: dir, stamp: 't' })
      const declared = await declaredMetricNames(prepared.plans[0], {
        python: [VENV_PYTHON],
        pluginPath: await pluginPythonPath(process.env),
        env: process.env
      })
      return { declared, byEntry: byGateEntry(prepared.runs, prepared.plans[0].entries, declared) }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it('declares every name real runs of simple_mcqa and synthetic_reasoning wrote, with simple_mcqa k = 5', async () => {
    const { declared, byEntry } = await declaredFor(['simple_mcqa', 'synthetic_reasoning:mode=pattern_match'])
    expect(declared.ok).toBe(true)
    if (!declared.ok) return
    const fixtures = join(REPO_ROOT, '__tests__', 'fixtures', 'helm-0.5.16', 'baseline', 'runs', 'gate')
    const dirs = ['simple_mcqa_model=simple_model1', 'synthetic_reasoning_mode=pattern_match,model=simple_model1']
    for (const [index, dir] of dirs.entries()) {
      const entry = declared.entries[index]
      if (!('runSpecs' in entry)) throw new Error(`no run specs: ${JSON.stringify(entry)}`)
      const written = new Set<string>()
      for (const item of JSON.parse(readFileSync(join(fixtures, dir, 'per_instance_stats.json'), 'utf8')) as {
        stats: { name: { name: string } }[]
      }[]) {
        for (const stat of item.stats) written.add(stat.name.name)
      }
      const runs = [...written].map(name => run(index === 0 ? 'simple_mcqa' : 'synthetic_reasoning:mode=pattern_match', name))
      const check = checkMetricNames(runs, byEntry, 'gate.yml')
      expect(check.refused.map(e => e.message)).toEqual([])
      // Checked, each one: not merely left unchecked.
      expect(check.lines).toEqual(runs.map(r => `${r.entry} ${r.metric}: declared by the run spec`))
    }
    const mcqa = declared.entries[0]
    expect('runSpecs' in mcqa && mcqa.runSpecs[0].numOutputs).toBe(5)
  }, 120_000)

  it('names an entry HELM cannot build as that entry error, not as a refusal', async () => {
    const { declared } = await declaredFor(['no_such_scenario'])
    expect(declared.ok && declared.entries[0]).toMatchObject({ error: expect.stringContaining('no_such_scenario') })
  }, 120_000)
})
