/**
 * `helm-gate run` where both sides are made by an lm_eval runner command (`command_output:
 * lm-eval`): the stand-in (test-support/lm-eval-standin/) takes lm_eval's arguments and replays a
 * committed real lm-eval 0.4.13 run per side, so the gate runs the command once per side, checks
 * what it left and compares the two folders as lm-eval output.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stringify } from 'yaml'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import type { Report } from '../../src/model/report.js'
import { freshDir } from './gate-fixture.js'

const STANDIN = fileURLToPath(new URL('../../test-support/lm-eval-standin/lm_eval.mjs', import.meta.url))
const FIXTURES = fileURLToPath(new URL('../fixtures/lm-eval-0.4.13', import.meta.url))

const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map(dir => rm(dir, { recursive: true, force: true })))
})

/** One side: lm_eval's own arguments, placeholders unexpanded, plus the real run it replays. */
function side(run: string, port: number, options: { logSamples?: boolean } = {}): Record<string, unknown> {
  return {
    command_output: 'lm-eval',
    model: 'gate-model',
    command: [
      process.execPath,
      STANDIN,
      '--model',
      'local-chat-completions',
      '--model_args',
      `base_url=http://127.0.0.1:${port}/v1/chat/completions,model={model},num_concurrent=1`,
      '--apply_chat_template',
      '--tasks',
      '{entry}',
      ...(options.logSamples === false ? [] : ['--log_samples']),
      '--output_path',
      '{output}',
      '--limit',
      '{max_eval_instances}',
      '--seed',
      '{seed}',
      '--from',
      join(FIXTURES, run)
    ]
  }
}

async function gate(
  candidate: Record<string, unknown>,
  maxEvalInstances = 1000
): Promise<{ code: number; report: Report; out: string; stderr: string }> {
  const dir = await freshDir('lm-eval-runner')
  dirs.push(dir)
  const config = join(dir, 'gate.yml')
  await writeFile(
    config,
    stringify({
      version: 1,
      helm: { version: '0.5.16', max_eval_instances: maxEvalInstances, timeout_minutes: 5 },
      deployments: { baseline: side('baseline', 8000), candidate },
      runs: [
        { entry: 'gate_arith', metric: 'exact_match', split: 'strict-match', max_drop: 0.05 },
        { entry: 'gate_arith_zeroshot', metric: 'exact_match', split: 'flexible-extract', max_drop: 0.05 }
      ],
      statistics: { resamples: 2000 }
    })
  )
  const out = join(dir, 'out')
  let stderr = ''
  const io: CliIo = { stdout: () => {}, stderr: s => (stderr += s), env: process.env, cwd: dir }
  const code = await runCommand(['--config', config, '--out', out], io)
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
  return { code, report, out, stderr }
}

describe('helm-gate run with an lm_eval runner command on both sides', () => {
  it('passes an equivalent candidate, running lm_eval once per side with every task', async () => {
    const { code, report, out } = await gate(side('equivalent', 8001))
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(code).toBe(0)
    expect(report.comparisons.map(c => [c.run, c.split, c.n])).toEqual([
      ['gate_arith', 'strict-match', 120],
      ['gate_arith_zeroshot', 'flexible-extract', 120]
    ])
    expect(report.baseline.runs).toEqual(['gate_arith', 'gate_arith_zeroshot'])
    // The same evidence as any runner command: a log per side, the manifest with the command as run.
    const log = await readFile(join(out, 'logs', 'candidate.log'), 'utf8')
    expect(log.match(/results written to/g)).toHaveLength(1)
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'))
    const record = manifest.sides.candidate
    expect(record.deployment).toMatchObject({ kind: 'command', command_output: 'lm-eval' })
    expect(record.command).toEqual(expect.arrayContaining(['--tasks', 'gate_arith,gate_arith_zeroshot', '--limit', '1000']))
    expect(record.command).toContain(join(out, 'candidate'))
    expect(await readdir(join(out, 'candidate'))).toEqual(['gate-model'])
  }, 120_000)

  it('fails a degraded candidate', async () => {
    const { code, report } = await gate(side('degraded', 8001))
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('fail')
    expect(code).not.toBe(0)
    expect(report.comparisons.every(c => c.losses > 0)).toBe(true)
  }, 120_000)

  it('passes --limit as {max_eval_instances}: both sides compare that many documents', async () => {
    const { report } = await gate(side('equivalent', 8001), 40)
    expect(report.errors).toEqual([])
    expect(report.comparisons.map(c => c.n)).toEqual([40, 40])
  }, 120_000)

  it('fails closed when the command leaves no samples (lm_eval without --log_samples), naming the side and the fix', async () => {
    const { code, report } = await gate(side('equivalent', 8001, { logSamples: false }))
    expect(report.verdict).toBe('error')
    expect(code).not.toBe(0)
    const error = report.errors.find(e => e.code === 'runner.lmeval_output')
    expect(error?.message).toMatch(/^candidate: the runner command lm_eval.mjs did not leave a complete lm-eval run .*--log_samples/)
    expect(report.comparisons).toEqual([])
  }, 120_000)

  it('fails closed when the command fails (an unknown task), naming the runner command', async () => {
    const candidate = side('equivalent', 8001)
    const command = (candidate.command as string[]).map(arg => (arg === '{entry}' ? '{entry},no_such_task' : arg))
    const { report } = await gate({ ...candidate, command })
    expect(report.verdict).toBe('error')
    expect(report.errors.map(e => e.code)).toEqual(expect.arrayContaining(['runner.exit']))
    expect(report.errors.find(e => e.code === 'runner.exit')?.message).toMatch(
      /candidate: the runner command lm_eval.mjs exited with 1;.* logs\/candidate.log line \d+: .*Tasks not found: no_such_task/
    )
  }, 120_000)
})
