/**
 * Both halves of a gate whose servers helm-gate launches (dist/cli.js, real helm-run): the load
 * half runs while the launched servers are up. Each launched server is the fake OpenAI server,
 * whose streaming requests are served by the continuous-batching fake engine; the candidate
 * decodes 1.6x faster. Sequential schedule: after the quality half, the sides are swapped between
 * blocks A B B A (one up at a time), and the manifest says when each block ran and each side was
 * up. Concurrent: A B B A while both are up. Named `.serial.`:
 * the throughput claim is a timing ratio, measured with the machine to itself.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { buildAnswerKey, helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { expectNothingAlive, GATE_PATH, launchFixture, readManifest } from './launch-fixture.js'

const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const describeHelm = helmAvailable() ? describe : describe.skip

const LOAD = {
  workload: { prompts: 'synthetic', input_tokens: { mean: 32, stddev: 0 }, output_tokens: { mean: 48, stddev: 0 } },
  concurrency: [4],
  requests_per_level: 48,
  warmup_requests: 4,
  repetitions: 4,
  timeout_seconds: 30,
  checks: [
    // The candidate decodes 1.6x faster: the claim of 1.2x is well inside.
    { metric: 'output_tokens_per_second', concurrency: 4, min_ratio: 1.2 },
    { metric: 'error_rate', max: 0 }
  ]
}
const ENGINE = { decodeBaseMs: 8, decodePerSeqMs: 0.5 }

describeHelm('the load half of launched deployments runs while they are up (real helm-run)', () => {
  let key: string
  beforeAll(async () => {
    key = await buildAnswerKey(['simple_mcqa'])
  }, 300_000)

  async function gate(schedule: 'sequential' | 'concurrent') {
    const fixture = await launchFixture(
      key,
      { accuracy: 1, seed: 6 },
      { accuracy: 1, seed: 6 },
      {
        schedule,
        maxEvalInstances: 10,
        load: LOAD,
        serverArgs: {
          baseline: ['--stream-engine', JSON.stringify(ENGINE)],
          candidate: ['--stream-engine', JSON.stringify({ ...ENGINE, decodeSpeedup: 1.6 })]
        }
      }
    )
    const outDir = join(fixture.dir, '..', `${fixture.dir.split('/').pop()}-out`)
    const result = await run(process.execPath, [CLI, 'run', '--config', GATE_PATH, '--out', outDir, '--baseline-ref', fixture.baseSha], {
      cwd: fixture.dir,
      env: { ...process.env, ...fixture.env },
      timeoutMs: 300_000
    })
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
    const manifest = await readManifest(outDir)
    await expectNothingAlive(fixture, manifest)
    // Progress lines in order: which server was up when each load block ran.
    const lines = result.stderr.split('\n')
    const at = (pattern: RegExp): number[] => lines.flatMap((line, i) => (pattern.test(line) ? [i] : []))
    return { result, report, manifest, outDir, lines, at }
  }

  it('sequential: after the quality half the sides are swapped between blocks A B B A; the manifest says when each was up', async () => {
    const { result, report, manifest, outDir } = await gate('sequential')
    const trace = `exit ${result.code}\n${result.stderr.slice(-4000)}`
    if (!report.load || report.load.errors.length > 0) throw new Error(`load half failed\n${JSON.stringify(report.load?.errors)}\n${trace}`)
    expect(result.stderr).toContain('the load half swaps them between blocks A B B A')
    expect(report.load.interleaved).toBe(true)
    const timeline = manifest?.load_timeline
    if (!timeline) throw new Error(`no load_timeline in the manifest\n${trace}`)
    expect(timeline.schedule).toBe('swapped')
    const order = [...timeline.blocks].sort((a, b) => a.position - b.position)
    expect(order.map(b => b.side)).toEqual([
      'baseline',
      'candidate',
      'candidate',
      'baseline',
      'baseline',
      'candidate',
      'candidate',
      'baseline'
    ])
    const t = (iso: string | null): number => Date.parse(iso ?? '')
    for (const block of order) {
      const up = timeline.up[block.side].some(p => t(p.ready) <= t(block.started_at) && t(block.ended_at) <= t(p.to))
      expect({ position: block.position, up }).toEqual({ position: block.position, up: true })
    }
    expect(report.load.notes.some(note => note.startsWith('Not interleaved'))).toBe(false)
    expect(await readFile(join(outDir, 'report.md'), 'utf8')).toContain(
      'interleaved A B B A, the launched sides swapped before each block of the other side'
    )
    const claim = report.load.checks.find(c => c.metric === 'output_tokens_per_second')
    expect({ verdict: claim?.verdict, ratio: claim?.ratio }).toEqual({ verdict: 'pass', ratio: expect.anything() })
    expect(report.load.checks.find(c => c.metric === 'error_rate')?.verdict).toBe('pass')
  }, 320_000)

  it('concurrent: the blocks alternate A B B A while both servers are up', async () => {
    const { result, report, outDir, at } = await gate('concurrent')
    const trace = `exit ${result.code}\n${result.stderr.slice(-4000)}`
    if (!report.load || report.load.errors.length > 0) throw new Error(`load half failed\n${JSON.stringify(report.load?.errors)}\n${trace}`)
    const ready = Math.max(...at(/^\[(baseline|candidate)\] server ready/))
    const stopped = Math.min(...at(/^\[(baseline|candidate)\] server stopped/))
    const blocks = at(/^load: concurrency 4, block \d+\/8 /)
    expect(blocks.length).toBe(8)
    for (const i of blocks) expect(ready < i && i < stopped).toBe(true)
    expect(report.load.interleaved).toBe(true)
    expect([...report.load.blocks].sort((a, b) => a.position - b.position).map(b => b.side)).toEqual([
      'baseline',
      'candidate',
      'candidate',
      'baseline',
      'baseline',
      'candidate',
      'candidate',
      'baseline'
    ])
    expect(report.load.notes.some(note => note.startsWith('Not interleaved'))).toBe(false)
    expect(await readFile(join(outDir, 'report.md'), 'utf8')).toContain('interleaved A B B A, both sides up at once')
    expect(report.load.checks.find(c => c.metric === 'output_tokens_per_second')?.verdict).toBe('pass')
  }, 320_000)
})
