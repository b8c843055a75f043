/**
 * Open-loop load (`rate` with poisson or constant arrivals) and `duration_seconds`, against real
 * fake-engine processes: the arrivals the generator achieved, the block lengths it kept. Timing-
 * sensitive, so `.serial.` (run alone after the parallel phase); tolerances allow a busy 2-core
 * machine's timer jitter but not a wrong rate, a wrong arrival process or an ignored duration.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import { runLoad } from '../../src/load/run-load.js'
import type { RequestTiming } from '../../src/load/types.js'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { loadGate } from './load-helpers.js'

// Requests of a few steps of 2 ms: far shorter than the gaps between arrivals.
const ENGINE = { maxNumSeqs: 64, prefillBaseMs: 0.5, prefillPerTokenMs: 0, decodeBaseMs: 2, decodePerSeqMs: 0 }
const WORKLOAD = 'workload: { prompts: synthetic, input_tokens: { mean: 20 }, output_tokens: { mean: 4 } }'

let engines: FakeEngine[] = []
afterEach(async () => {
  await Promise.all(engines.map(e => e.stop()))
  engines = []
})

async function run(load: string): Promise<Awaited<ReturnType<typeof runLoad>>> {
  const [b, c] = await Promise.all([startEngine(ENGINE), startEngine(ENGINE)])
  engines.push(b, c)
  const outcome = await runLoad(loadGate(b.baseUrl, c.baseUrl, load), { env: {} })
  expect(outcome.report.errors).toEqual([])
  for (const t of outcome.timings) expect(t.status).toBe('ok')
  return outcome
}

/** The measured requests of each block (by side and repetition), in sending order. */
function blocks(timings: RequestTiming[]): RequestTiming[][] {
  const by = new Map<string, RequestTiming[]>()
  for (const t of timings) {
    const key = `${t.level}:${t.side}:${t.repetition}`
    by.set(key, [...(by.get(key) ?? []), t])
  }
  return [...by.values()].map(b => [...b].sort((x, y) => x.send_ms - y.send_ms))
}

function gaps(block: RequestTiming[]): number[] {
  return block.slice(1).map((t, i) => t.send_ms - block[i].send_ms)
}

const median = (xs: number[]): number => {
  const a = [...xs].sort((x, y) => x - y)
  return (a[(a.length - 1) >> 1] + a[a.length >> 1]) / 2
}
const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length
const cv = (xs: number[]): number => {
  const m = mean(xs)
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1)) / m
}

function correlation(xs: number[], ys: number[]): number {
  const mx = mean(xs)
  const my = mean(ys)
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my)
    sxx += (xs[i] - mx) ** 2
    syy += (ys[i] - my) ** 2
  }
  return sxy / Math.sqrt(sxx * syy)
}

describe('open loop and duration', () => {
  test('rate with constant arrivals: requests leave evenly at the requested rate', async () => {
    const { report, timings } = await run(`${WORKLOAD}
rate: [40]
arrival: constant
requests_per_level: 180
repetitions: 3`)
    expect(report.mode).toBe('rate')
    expect(report.settings.arrival).toBe('constant')
    const all = blocks(timings)
    expect(all).toHaveLength(6)
    for (const block of all) {
      expect(block).toHaveLength(60)
      // The schedule is absolute (start + i / rate), so lateness does not accumulate.
      const achieved = (block.length - 1) / ((block[block.length - 1].send_ms - block[0].send_ms) / 1000)
      expect(Math.abs(achieved / 40 - 1)).toBeLessThan(0.05)
      // Each request leaves near its slot t0 + i x 25 ms (a late timer delays one, not the rest;
      // poisson arrivals would drift hundreds of ms from any such slots). t0: the median offset,
      // since a request that opens a new connection starts its clock only once connected.
      const offsets = block.map((t, i) => t.send_ms - i * 25)
      const t0 = median(offsets)
      expect(median(offsets.map(o => Math.abs(o - t0)))).toBeLessThan(5)
    }
    // Open loop: the rate is the requests per second the block achieved.
    for (const b of report.blocks) expect(Math.abs(b.request_throughput / 40 - 1)).toBeLessThan(0.1)
  }, 60_000)

  test('rate with poisson arrivals: the requested mean rate, exponential gaps (spread like their mean)', async () => {
    const { report, timings } = await run(`${WORKLOAD}
rate: [40]
arrival: poisson
requests_per_level: 360
repetitions: 3`)
    expect(report.settings.arrival).toBe('poisson')
    const all = blocks(timings)
    expect(all).toHaveLength(6)
    const pooled = all.flatMap(gaps)
    expect(pooled).toHaveLength(6 * 119)
    // 714 exponential gaps: the mean is within 15% of 25 ms with a wide margin (its sd is 3.7%).
    expect(Math.abs(mean(pooled) / 25 - 1)).toBeLessThan(0.15)
    // An exponential's standard deviation equals its mean (constant arrivals give about 0).
    expect(cv(pooled)).toBeGreaterThan(0.75)
    expect(cv(pooled)).toBeLessThan(1.25)
    // The same seeded arrival schedule for both sides of a block pair: their gaps go together
    // (timer jitter aside); the schedules of two different pairs do not.
    const of = (side: string, rep: number): number[] => gaps(all.find(b => b[0].side === side && b[0].repetition === rep)!)
    expect(correlation(of('baseline', 1), of('candidate', 1))).toBeGreaterThan(0.8)
    expect(Math.abs(correlation(of('baseline', 1), of('candidate', 2)))).toBeLessThan(0.4)
  }, 60_000)

  test('duration_seconds, closed loop: each block sends until its share of the duration is over, then stops', async () => {
    const { report, timings } = await run(`${WORKLOAD}
concurrency: [2]
duration_seconds: 3
repetitions: 3`)
    expect(report.settings.seconds_per_block).toBe(1)
    expect(report.settings.requests_per_block).toBeNull()
    const all = blocks(timings)
    expect(all).toHaveLength(6)
    for (const block of all) {
      const first = block[0].send_ms
      const ends = block.map(t => t.send_ms + t.latency_ms!)
      // No request starts after the block's second (a little slack for the hand-over to the socket)...
      expect(block[block.length - 1].send_ms - first).toBeLessThan(1000 + 25)
      // ...and the block did not stop early: its last request ends after the second is over.
      expect(Math.max(...ends) - first).toBeGreaterThan(1000 - 5)
      // Closed loop at 2 streams with requests of ~10 ms: many requests, not a handful.
      expect(block.length).toBeGreaterThan(20)
    }
    for (const b of report.blocks) {
      expect(b.duration_s).toBeGreaterThan(0.995)
      expect(b.duration_s).toBeLessThan(1.25)
    }
  }, 60_000)

  test('duration_seconds, open loop: the arrivals of the block’s second, no more', async () => {
    const { timings } = await run(`${WORKLOAD}
rate: [20]
arrival: constant
duration_seconds: 3
repetitions: 3`)
    const all = blocks(timings)
    expect(all).toHaveLength(6)
    for (const block of all) {
      // Arrivals at 0, 50, ..., 950 ms: twenty in the second.
      expect(block.length).toBeGreaterThanOrEqual(19)
      expect(block.length).toBeLessThanOrEqual(20)
      expect(block[block.length - 1].send_ms - block[0].send_ms).toBeLessThan(1000)
    }
  }, 60_000)
})
