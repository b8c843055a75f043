/**
 * Open-loop load (`rate` with poisson or constant arrivals) and `duration_seconds`, against real
 * fake-engine processes. Only what a busy machine cannot change is asserted: how many requests
 * each block sent, that each followed the block's arrival schedule (the pure schedule of
 * src/load/arrivals.ts, unit-tested exactly in arrivals.test.ts), the same schedule on both sides
 * of a pair, and that no request left before it was due. How late requests left, the achieved
 * rate and the kept block lengths are measurements, printed by bench/arrivals.mjs.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import { arrivalSchedule } from '../../src/load/arrivals.js'
import { runLoad } from '../../src/load/run-load.js'
import type { RequestTiming } from '../../src/load/types.js'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { loadGate } from './load-helpers.js'

// Requests of a few steps of 2 ms: far shorter than the gaps between arrivals.
const ENGINE = { maxNumSeqs: 64, prefillBaseMs: 0.5, prefillPerTokenMs: 0, decodeBaseMs: 2, decodePerSeqMs: 0 }
const WORKLOAD = 'workload: { prompts: synthetic, input_tokens: { mean: 20 }, output_tokens: { mean: 4 } }'
// A send may leave up to 1 ms before its due time (no timer is set for less), never more.
const EARLY_MS = 1

let engines: FakeEngine[] = []
afterEach(async () => {
  await Promise.all(engines.map(e => e.stop()))
  engines = []
})

async function run(load: string): Promise<Awaited<ReturnType<typeof runLoad>> & { seed: number }> {
  const [b, c] = await Promise.all([startEngine(ENGINE), startEngine(ENGINE)])
  engines.push(b, c)
  const config = loadGate(b.baseUrl, c.baseUrl, load)
  const outcome = await runLoad(config, { env: {} })
  expect(outcome.report.errors).toEqual([])
  for (const t of outcome.timings) expect(t.status).toBe('ok')
  return { ...outcome, seed: config.load!.seed }
}

/** The measured requests of each block (by side and repetition), in their order in the block. */
function blocks(timings: RequestTiming[]): RequestTiming[][] {
  const by = new Map<string, RequestTiming[]>()
  for (const t of timings) {
    const key = `${t.level}:${t.side}:${t.repetition}`
    by.set(key, [...(by.get(key) ?? []), t])
  }
  return [...by.values()].map(b => [...b].sort((x, y) => x.index - y.index))
}

/** Due times from the block's first, ms: the schedule the block followed. */
function dueOffsets(block: RequestTiming[]): number[] {
  return block.map(t => t.scheduled_ms! - block[0].scheduled_ms!)
}

/** Every request of an open-loop block has a due time and left no earlier than it. */
function expectNeverEarly(block: RequestTiming[]): void {
  for (const t of block) {
    expect(typeof t.scheduled_ms).toBe('number')
    expect(Number.isFinite(t.send_ms)).toBe(true)
    const early = t.scheduled_ms! - t.send_ms
    expect({ index: t.index, early: early <= EARLY_MS ? 'not early' : early }).toEqual({ index: t.index, early: 'not early' })
  }
}

function expectSchedule(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length)
  actual.forEach((at, i) => expect(at).toBeCloseTo(expected[i], 6))
}

const pairOf = (all: RequestTiming[][], block: RequestTiming[]): RequestTiming[] =>
  all.find(b => b[0].side !== block[0].side && b[0].repetition === block[0].repetition)!

describe('open loop and duration', () => {
  test('rate with constant arrivals: request i of each block is due at i / rate and leaves no earlier', async () => {
    const { report, timings, seed } = await run(`${WORKLOAD}
rate: [40]
arrival: constant
requests_per_level: 180
repetitions: 3`)
    expect(report.mode).toBe('rate')
    expect(report.settings.arrival).toBe('constant')
    const all = blocks(timings)
    expect(all).toHaveLength(6)
    for (const block of all) {
      expect(block.map(t => t.index)).toEqual(Array.from({ length: 60 }, (_, i) => i))
      expectSchedule(dueOffsets(block), arrivalSchedule({ arrival: 'constant', rate: 40, seed, stream: 'block:0:0' }, 60))
      expectSchedule(
        dueOffsets(block),
        Array.from({ length: 60 }, (_, i) => i * 25)
      )
      expectNeverEarly(block)
    }
    // Open loop: the rate is the requests per second the block achieved, a figure (bench/arrivals.mjs).
    for (const b of report.blocks) expect(b.request_throughput).toBeGreaterThan(0)
    for (const b of report.blocks) expect(Number.isFinite(b.request_throughput)).toBe(true)
  }, 60_000)

  test("rate with poisson arrivals: each block follows its pair's seeded schedule, the same on both sides", async () => {
    const { report, timings, seed } = await run(`${WORKLOAD}
rate: [40]
arrival: poisson
requests_per_level: 360
repetitions: 3`)
    expect(report.settings.arrival).toBe('poisson')
    const all = blocks(timings)
    expect(all).toHaveLength(6)
    for (const block of all) {
      expect(block.map(t => t.index)).toEqual(Array.from({ length: 120 }, (_, i) => i))
      const stream = `block:0:${block[0].repetition}`
      expectSchedule(dueOffsets(block), arrivalSchedule({ arrival: 'poisson', rate: 40, seed, stream }, 120))
      // Both sides of a pair: the same due times.
      expectSchedule(dueOffsets(pairOf(all, block)), dueOffsets(block))
      expectNeverEarly(block)
    }
    // Two pairs do not share a schedule.
    expect(dueOffsets(all.find(b => b[0].repetition === 1)!)).not.toEqual(dueOffsets(all.find(b => b[0].repetition === 2)!))
  }, 60_000)

  test('duration_seconds, closed loop: each block runs its share of the duration, with no schedule', async () => {
    const { report, timings } = await run(`${WORKLOAD}
concurrency: [2]
duration_seconds: 3
repetitions: 3`)
    expect(report.settings.seconds_per_block).toBe(1)
    expect(report.settings.requests_per_block).toBeNull()
    const all = blocks(timings)
    expect(all).toHaveLength(6)
    for (const block of all) {
      // Both streams start at once, before the block's second can be over: at least one each.
      expect(block.length).toBeGreaterThanOrEqual(2)
      expect(block.map(t => t.index)).toEqual(Array.from({ length: block.length }, (_, i) => i))
      // A closed loop has no due times.
      for (const t of block) expect(t.scheduled_ms).toBeNull()
    }
    // How close each block's length came to its second is a figure (bench/arrivals.mjs).
    for (const b of report.blocks) {
      expect(Number.isFinite(b.duration_s)).toBe(true)
      expect(b.duration_s).toBeGreaterThan(0)
    }
  }, 60_000)

  test('duration_seconds, open loop: the arrivals due within the block’s second, no more', async () => {
    const { timings } = await run(`${WORKLOAD}
rate: [20]
arrival: constant
duration_seconds: 3
repetitions: 3`)
    const all = blocks(timings)
    expect(all).toHaveLength(6)
    for (const block of all) {
      // The schedule decides, not the clock: arrivals due at 0, 50, ..., 950 ms, twenty.
      expectSchedule(
        dueOffsets(block),
        Array.from({ length: 20 }, (_, i) => i * 50)
      )
      expectNeverEarly(block)
    }
  }, 60_000)
})
