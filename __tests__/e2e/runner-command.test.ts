/**
 * `helm-gate run` where both sides are made by a FlexLLMGen-shaped runner command: the stand-in
 * (test-support/flexllmgen-standin/) in the crfm-helm 0.2.1 venv, run once per entry per side,
 * one side after the other (as two sides on one GPU must), then compared as HELM 0.2.x output.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import type { Report } from '../../src/model/report.js'
import { helm02Available, STANDIN, VENV_0_2_PYTHON } from '../../test-support/flexllmgen-standin/paths.js'
import { freshDir } from './gate-fixture.js'

const describe02 = helm02Available() ? describe : describe.skip
const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map(dir => rm(dir, { recursive: true, force: true })))
})

function side(percent: number[], extra: string[]): Record<string, unknown> {
  return {
    command: [
      VENV_0_2_PYTHON,
      STANDIN,
      '--description',
      '{entry},model=simple/model1',
      '--model',
      '{model}',
      '--max-eval-instances',
      '{max_eval_instances}',
      '--run-path',
      '{output}',
      '--seed',
      '{seed}',
      '--percent',
      ...percent,
      ...extra
    ],
    model: 'facebook/opt-1.3b'
  }
}

async function gate(candidate: Record<string, unknown>): Promise<{ code: number; report: Report; out: string; stderr: string }> {
  const dir = await freshDir('runner')
  dirs.push(dir)
  const config = join(dir, 'gate.yml')
  await writeFile(
    config,
    stringify({
      version: 1,
      helm: { version: '0.5.16', max_eval_instances: 50, timeout_minutes: 10 },
      schedule: 'sequential',
      deployments: { baseline: side([100, 0, 100, 0, 100, 0], ['--accuracy', '0.8']), candidate },
      runs: [{ entry: 'synthetic_reasoning:mode=pattern_match', metric: 'exact_match', split: 'test', max_drop: 0.1 }],
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

describe02('helm-gate run with a FlexLLMGen-shaped runner command on both sides', () => {
  it('passes an equivalent candidate (other offloading percentages, same answers)', async () => {
    const { code, report, out } = await gate(side([0, 100, 0, 100, 100, 0], ['--accuracy', '0.8']))
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(code).toBe(0)
    expect(report.comparisons[0].n).toBeGreaterThanOrEqual(20)
    expect(report.warnings.map(w => w.code)).toEqual(expect.arrayContaining(['helm_0_2.cache_unverified', 'helm_0_2.model_unverified']))
    // The same evidence as helm-run leaves: a log per side and the manifest with each side's command.
    expect(await readdir(join(out, 'logs'))).toEqual(expect.arrayContaining(['baseline.log', 'candidate.log']))
    const log = await readFile(join(out, 'logs', 'candidate.log'), 'utf8')
    expect(log).toMatch(/Writing \d+ characters to .*per_instance_stats\.json/)
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'))
    expect(JSON.stringify(manifest)).toContain('--percent')
    expect(JSON.stringify(manifest)).toContain('"kind":"command"')
  }, 300_000)

  it('fails a degraded candidate (compressed weights answering fewer instances right)', async () => {
    const { code, report } = await gate(side([100, 0, 100, 0, 100, 0], ['--compress-weight', '--accuracy', '0.4']))
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('fail')
    expect(code).not.toBe(0)
    expect(report.comparisons[0].losses).toBeGreaterThan(0)
  }, 300_000)
})
