/**
 * The load half of launched sides that are up one at a time (a sequential schedule, one
 * accelerator), `helm-gate run --only load` (dist/cli.js): the sides are swapped between blocks so
 * that the blocks still alternate A B B A (src/launch/side-holder.ts). The fake servers print the
 * time of every streamed request and every sleep and wake (`--log-requests`): their logs are the
 * truth the report's block times and up periods are checked against. Also: a side that cannot be
 * swapped (`switch: none`) or a swap budget too small falls back to one period per side and the
 * decision line says so; a swap that fails is an error naming the side and the block; nothing
 * is left running on any path.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadBlock, LoadSide, UpPeriod } from '../../src/model/load-report.js'
import type { Report } from '../../src/model/report.js'
import { buildAnswerKey, helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { expectNothingAlive, GATE_PATH, launchFixture, type LaunchGateOptions } from './launch-fixture.js'

const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const REQUESTS_PER_BLOCK = 4
const LOAD = {
  workload: { prompts: 'synthetic', input_tokens: { mean: 8, stddev: 0 }, output_tokens: { mean: 8, stddev: 0 } },
  concurrency: [2],
  requests_per_level: 3 * REQUESTS_PER_BLOCK,
  warmup_requests: 2,
  repetitions: 3,
  checks: [{ metric: 'error_rate', max: 0 }]
}
const LOGGED = { baseline: ['--log-requests'], candidate: ['--log-requests'] }

let key = ''
async function loadOnly(options: LaunchGateOptions) {
  const fixture = await launchFixture(key, { accuracy: 1 }, { accuracy: 1 }, { serverArgs: LOGGED, load: LOAD, ...options })
  const outDir = join(fixture.dir, '..', `${fixture.dir.split('/').pop()}-out`)
  const result = await run(
    process.execPath,
    [CLI, 'run', '--only', 'load', '--config', GATE_PATH, '--out', outDir, '--baseline-ref', fixture.baseSha],
    { cwd: fixture.dir, env: { ...process.env, ...fixture.env }, timeoutMs: 120_000 }
  )
  const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
  const log = async (side: LoadSide): Promise<string> => readFile(join(outDir, 'logs', `${side}-server.log`), 'utf8')
  /** The times of the side's streamed requests, from its server's own log. */
  const requestTimes = async (side: LoadSide): Promise<number[]> =>
    [...(await log(side)).matchAll(/stream request at (\S+)/g)].map(m => Date.parse(m[1]))
  return { fixture, outDir, result, report, log, requestTimes }
}

const t = (iso: string | null | undefined): number => Date.parse(iso ?? '')
const inside = (block: LoadBlock, periods: UpPeriod[]): boolean =>
  periods.some(p => t(p.ready) <= t(block.started_at) && t(block.ended_at) <= t(p.to))
const inOrder = (blocks: LoadBlock[]): LoadBlock[] => [...blocks].sort((a, b) => a.position - b.position)
const other = (side: LoadSide): LoadSide => (side === 'baseline' ? 'candidate' : 'baseline')

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('launched sides up one at a time: swapped between load blocks', () => {
  beforeAll(async () => {
    key = await buildAnswerKey(['simple_mcqa'])
  }, 300_000)

  it('restart: the blocks alternate A B B A, each inside its side up period, as the servers logged', async () => {
    const { fixture, result, report, requestTimes } = await loadOnly({})
    const load = report.load
    expect({ code: result.code, errors: load?.errors, stderr: result.code === 0 ? '' : result.stderr.slice(-3000) }).toEqual({
      code: 0,
      errors: [],
      stderr: ''
    })
    if (!load?.timeline) throw new Error('no timeline in the load report')
    expect(load.interleaved).toBe(true)
    expect(load.timeline.schedule).toBe('swapped')
    expect(inOrder(load.blocks).map(b => b.side)).toEqual(['baseline', 'candidate', 'candidate', 'baseline', 'baseline', 'candidate'])
    // Swaps: the probes' one (candidate, then baseline), then before blocks 2, 4 and 6.
    expect(load.timeline.swaps.map(s => `${s.side} ${s.before}`)).toEqual([
      'baseline the probe',
      'candidate block 2/6 at concurrency 2',
      'baseline block 4/6 at concurrency 2',
      'candidate block 6/6 at concurrency 2'
    ])
    expect(load.timeline.swap_cost_ms).toBeGreaterThan(0)
    const times = { baseline: await requestTimes('baseline'), candidate: await requestTimes('candidate') }
    for (const block of load.blocks) {
      expect({ position: block.position, inside: inside(block, load.timeline.up[block.side]) }).toEqual({
        position: block.position,
        inside: true
      })
      // The server's own log: this side served the block's requests, the other side nothing then.
      // The log's times are whole milliseconds: the warm-up's or the opening's last request can
      // carry the block's start instant itself (it arrived earlier within that millisecond), the
      // next block's opening request its end instant (it arrived later within it), and a measured
      // request either. So: no more than the block's requests strictly inside it, and no fewer
      // with both ends included.
      const within = (side: LoadSide, strictly: boolean): number =>
        times[side].filter(at =>
          strictly ? at > t(block.started_at) && at < t(block.ended_at) : at >= t(block.started_at) && at <= t(block.ended_at)
        ).length
      const strictlyInside = within(block.side, true)
      const endsIncluded = within(block.side, false)
      expect({
        position: block.position,
        own:
          strictlyInside <= REQUESTS_PER_BLOCK && REQUESTS_PER_BLOCK <= endsIncluded
            ? REQUESTS_PER_BLOCK
            : { strictlyInside, endsIncluded },
        other: within(other(block.side), false)
      }).toEqual({
        position: block.position,
        own: REQUESTS_PER_BLOCK,
        other: 0
      })
    }
    // Never both up: each period ends before the other side's next one starts.
    const periods = (['baseline', 'candidate'] as const)
      .flatMap(side => load.timeline?.up[side].map(p => ({ side, ...p })) ?? [])
      .sort((a, b) => t(a.from) - t(b.from))
    expect(periods.map(p => p.side)).toEqual(['candidate', 'baseline', 'candidate', 'baseline', 'candidate'])
    for (let i = 1; i < periods.length; i++) expect(t(periods[i - 1].to)).toBeLessThanOrEqual(t(periods[i].from))
    // Client CPU time per block, and every block's times, recorded.
    for (const block of load.blocks) expect(block.client_cpu_ms).toBeGreaterThanOrEqual(0)
    await expectNothingAlive(fixture, null)
  }, 150_000)

  it('sleep: both servers stay resident, one awake at a time; started once each', async () => {
    const { fixture, result, report, log } = await loadOnly({
      ownPorts: true,
      serverArgs: { baseline: ['--log-requests', '--enable-sleep-mode'], candidate: ['--log-requests', '--enable-sleep-mode'] },
      launchExtra: { baseline: { switch: 'sleep' }, candidate: { switch: 'sleep' } }
    })
    const load = report.load
    expect({ code: result.code, errors: load?.errors }).toEqual({ code: 0, errors: [] })
    expect(load?.timeline?.schedule).toBe('swapped')
    expect(load?.timeline?.switches).toEqual({ baseline: 'sleep', candidate: 'sleep' })
    expect(inOrder(load?.blocks ?? []).map(b => b.side)).toEqual([
      'baseline',
      'candidate',
      'candidate',
      'baseline',
      'baseline',
      'candidate'
    ])
    // A request served asleep would be a 503: the error_rate check would fail.
    expect(load?.checks.map(c => c.verdict)).toEqual(['pass'])
    for (const side of ['baseline', 'candidate'] as const) {
      const text = await log(side)
      expect({ side, starts: text.match(/fake-openai listening/g)?.length }).toEqual({ side, starts: 1 })
      expect(text).toMatch(/sleeping at /)
    }
    expect(await log('baseline')).toMatch(/awake at /)
    expect(result.stderr).toMatch(/\[candidate\] waking the server for block 6\/6 at concurrency 2/)
    await expectNothingAlive(fixture, null)
  }, 150_000)

  it('switch: none falls back to one period per side, and the decision line says so', async () => {
    const { fixture, result, report, outDir } = await loadOnly({ launchExtra: { candidate: { switch: 'none' } } })
    const load = report.load
    expect({ code: result.code, errors: load?.errors }).toEqual({ code: 0, errors: [] })
    expect(load?.interleaved).toBe(false)
    expect(load?.timeline?.schedule).toBe('periods')
    expect(inOrder(load?.blocks ?? []).map(b => b.side)).toEqual([
      'baseline',
      'baseline',
      'baseline',
      'candidate',
      'candidate',
      'candidate'
    ])
    expect(load?.notes[0]).toMatch(/^Not interleaved \(swapping is impossible: deployments\.candidate\.launch\.switch is none\)/)
    expect(result.stdout).toContain('[not interleaved: swapping is impossible: deployments.candidate.launch.switch is none]')
    expect(await readFile(join(outDir, 'report.md'), 'utf8')).toContain('not interleaved')
    await expectNothingAlive(fixture, null)
  }, 150_000)

  it('a swap budget too small for the measured swap cost falls back to one period per side', async () => {
    const { fixture, result, report } = await loadOnly({ load: { ...LOAD, swap_budget_seconds: 0 } })
    const load = report.load
    expect({ code: result.code, errors: load?.errors }).toEqual({ code: 0, errors: [] })
    expect(load?.timeline?.schedule).toBe('periods')
    expect(load?.timeline?.why).toMatch(
      /^swapping is over budget: 3 swaps at \d+\.\d s each \(measured\) would take \d+ s, more than load\.swap_budget_seconds \(0 s\)$/
    )
    expect(result.stdout).toContain('[not interleaved: swapping is over budget')
    await expectNothingAlive(fixture, null)
  }, 150_000)

  it('a swap that fails is an error naming the side and the block; nothing is left running', async () => {
    const { fixture, result, report } = await loadOnly({
      launchExtra: { candidate: { env: { HG_ONE_START: '${HG_PID_DIR}/../candidate.started' } } }
    })
    expect(result.code).toBe(2)
    expect(report.verdict).toBe('error')
    expect(report.load?.errors.map(e => e.code)).toEqual(['launch.exited_before_ready'])
    expect(report.load?.errors[0].message).toMatch(
      /^the candidate could not be brought up for block 2\/6 at concurrency 2: candidate server exited/
    )
    expect(report.load?.errors[0].message).toContain('refusing a second start (simulated)')
    // The baseline block measured before it is kept; the baseline was stopped after it.
    expect(report.load?.timeline?.up.baseline.every(p => p.to !== null)).toBe(true)
    await expectNothingAlive(fixture, null)
  }, 150_000)
})
