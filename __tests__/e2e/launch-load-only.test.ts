/**
 * `helm-gate run --only load` (dist/cli.js) for a gate that launches its servers: they are started
 * on the gate file's schedule, load-tested while up and stopped; no helm-run. A server that dies
 * before it is ready is the load half's error, quoting its log.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { buildAnswerKey, helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { expectNothingAlive, GATE_PATH, launchFixture } from './launch-fixture.js'

const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const LOAD = {
  workload: { prompts: 'synthetic', input_tokens: { mean: 8, stddev: 0 }, output_tokens: { mean: 8, stddev: 0 } },
  concurrency: [2],
  requests_per_level: 12,
  warmup_requests: 0,
  repetitions: 3,
  checks: [{ metric: 'error_rate', max: 0 }]
}

let key = ''
async function loadOnly(base: Record<string, unknown>, head: Record<string, unknown>) {
  const fixture = await launchFixture(key, base, head, { load: LOAD })
  const outDir = join(fixture.dir, '..', `${fixture.dir.split('/').pop()}-out`)
  const result = await run(
    process.execPath,
    [CLI, 'run', '--only', 'load', '--config', GATE_PATH, '--out', outDir, '--baseline-ref', fixture.baseSha],
    { cwd: fixture.dir, env: { ...process.env, ...fixture.env }, timeoutMs: 120_000 }
  )
  const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
  return { fixture, outDir, result, report }
}

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('run --only load with launched deployments', () => {
  beforeAll(async () => {
    key = await buildAnswerKey(['simple_mcqa'])
  }, 300_000)

  it('launches each side, measures its blocks while it is up (swapped A B B A), stops it', async () => {
    const { fixture, outDir, result, report } = await loadOnly({ accuracy: 1 }, { accuracy: 1 })
    expect({ code: result.code, errors: report.load?.errors, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
      code: 0,
      errors: [],
      stderr: ''
    })
    // One at a time on one port: swapped between blocks (src/launch/side-holder.ts).
    expect(report.load?.interleaved).toBe(true)
    expect(report.load?.timeline?.schedule).toBe('swapped')
    // Each side's block lines come while that side's server is up: after its last "ready", with no
    // "stopped" in between.
    const lines = result.stderr.split('\n')
    for (const side of ['baseline', 'candidate']) {
      const blocks = lines.flatMap((line, i) => (new RegExp(`\\(${side}\\): \\d+ requests`).test(line) ? [i] : []))
      expect(blocks.length).toBe(3)
      for (const i of blocks) {
        const last = (prefix: string): number => lines.slice(0, i).reduce((at, line, j) => (line.startsWith(prefix) ? j : at), -1)
        const ready = last(`[${side}] server ready`)
        const stopped = last(`[${side}] server stopped`)
        expect({ i, upAtBlock: ready > stopped }).toEqual({ i, upAtBlock: true })
      }
    }
    expect(await readFile(join(outDir, 'logs', 'baseline-server.log'), 'utf8')).toMatch(/serving from .*helm-gate-base-/)
    await expectNothingAlive(fixture, null)
  }, 150_000)

  it('a server that dies before it is ready: the load half is an error quoting its log', async () => {
    const { fixture, result, report } = await loadOnly({ failStart: 'CUDA out of memory (simulated)' }, { accuracy: 1 })
    expect(result.code).toBe(2)
    expect(report.verdict).toBe('error')
    // One cause, one error: not also "the baseline is not reachable".
    expect(report.load?.errors.map(e => e.code)).toEqual(['launch.exited_before_ready'])
    expect(report.load?.errors[0].message).toContain('CUDA out of memory (simulated)')
    await expectNothingAlive(fixture, null)
  }, 150_000)
})
