/**
 * The open-loop arrival schedule as a pure function: what the open-loop e2e tests used to infer
 * from wall-clock send times (rate, spacing, exponential gaps, the same schedule on both sides,
 * a traffic set's gaps) is checked here exactly, with no clock. How closely the sender keeps the
 * schedule on a busy machine is measured by bench/arrivals.mjs.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { arrivalOffsets, arrivalSchedule } from '../../src/load/arrivals.js'
import { trafficSource } from '../../src/load/workload.js'
import { GateError } from '../../src/errors.js'
import { gateText } from './load-helpers.js'

const gapsOf = (offsets: number[]): number[] => offsets.slice(1).map((t, i) => t - offsets[i])
const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length
const sd = (xs: number[]): number => {
  const m = mean(xs)
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1))
}

describe('constant arrivals', () => {
  test('request i is due at i / rate seconds, absolute (no accumulated drift)', () => {
    const offsets = arrivalSchedule({ arrival: 'constant', rate: 40, seed: 0, stream: 'block:0:0' }, 1000)
    expect(offsets).toHaveLength(1000)
    offsets.forEach((at, i) => expect(at).toBeCloseTo(i * 25, 6))
  })

  test('a fractional rate: 0.5 per second is one every 2 s', () => {
    expect(arrivalSchedule({ arrival: 'constant', rate: 0.5, seed: 0, stream: 's' }, 4)).toEqual([0, 2000, 4000, 6000])
  })
})

describe('poisson arrivals', () => {
  const spec = { arrival: 'poisson' as const, rate: 40, seed: 0, stream: 'block:0:0' }
  // 100,000 gaps: the standard error of their mean is 0.32 % of it, so the 1.5 % bounds below
  // fail a wrong rate or a wrong distribution, not this generator.
  const gaps = gapsOf(arrivalSchedule(spec, 100_001))

  test('the gaps average 1000 / rate ms', () => {
    expect(gaps).toHaveLength(100_000)
    expect(Math.abs(mean(gaps) / 25 - 1)).toBeLessThan(0.015)
  })

  test('the gaps are exponential: sd equal to the mean, half below mean x ln 2, 5 % above mean x ln 20', () => {
    expect(Math.abs(sd(gaps) / mean(gaps) - 1)).toBeLessThan(0.02)
    const below = gaps.filter(g => g < 25 * Math.LN2).length / gaps.length
    expect(Math.abs(below - 0.5)).toBeLessThan(0.01)
    const tail = gaps.filter(g => g > 25 * Math.log(20)).length / gaps.length
    expect(Math.abs(tail - 0.05)).toBeLessThan(0.005)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0)
    expect(gaps.every(Number.isFinite)).toBe(true)
  })

  test('the same seed and stream give the same schedule (both sides of a pair); another stream or seed another', () => {
    const a = arrivalSchedule(spec, 200)
    expect(arrivalSchedule(spec, 200)).toEqual(a)
    const other = arrivalSchedule({ ...spec, stream: 'block:0:1' }, 200)
    const reseeded = arrivalSchedule({ ...spec, seed: 1 }, 200)
    expect(other).not.toEqual(a)
    expect(reseeded).not.toEqual(a)
    // Different streams are independent draws, not a shifted copy: their gaps do not go together.
    const ga = gapsOf(a)
    const go = gapsOf(other)
    const ma = mean(ga)
    const mo = mean(go)
    const r = ga.reduce((s, g, i) => s + (g - ma) * (go[i] - mo), 0) / ((ga.length - 1) * sd(ga) * sd(go))
    expect(Math.abs(r)).toBeLessThan(0.3)
  })

  test('the rate scales the gaps and nothing else: the same draws at twice the rate are half as far apart', () => {
    const slow = arrivalSchedule(spec, 50)
    const fast = arrivalSchedule({ ...spec, rate: 80 }, 50)
    fast.forEach((at, i) => expect(at).toBeCloseTo(slow[i] / 2, 9))
  })

  test('the schedule is endless: a duration-bound block takes as many due times as it needs', () => {
    const due = arrivalOffsets(spec)
    let last = -1
    for (let i = 0; i < 5000; i++) {
      const at = due.next().value
      expect(at).toBeGreaterThanOrEqual(last)
      last = at
    }
  })
})

describe('traffic arrivals', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'helm-gate-arrivals-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  test("a block replays the set's gaps scaled to the rate, from the stream's offset, the same on both sides", async () => {
    // Arrivals 0, 0, 0, 1200, 1500, 2400 ms: gaps 0, 0, 1200, 300, 900 and, to close the cycle,
    // their mean 480; at 4 requests per second each is scaled by 250 / 480.
    const arrivals = [0, 0, 0, 1200, 1500, 2400]
    const set = arrivals.map((arrival_ms, i) => ({
      id: `t-${i + 1}`,
      stratum: 'all/short',
      tag: null,
      request: { messages: [{ role: 'user', content: `question ${i}` }], max_tokens: 3 },
      reference: null,
      logged_response: null,
      arrival_ms
    }))
    await writeFile(join(dir, 'traffic.jsonl'), set.map(x => `${JSON.stringify(x)}\n`).join(''))
    const text = gateText(
      'http://127.0.0.1:1',
      'http://127.0.0.1:2',
      'workload: { prompts: traffic, file: traffic.jsonl }\nrate: [4]\narrival: traffic\nrequests_per_level: 21\nrepetitions: 3'
    )
    const config = parseGateConfig(text, join(dir, 'gate.yml'))
    const source = await trafficSource(config.load!, config.source, 'traffic')
    const cycle = [0, 0, 1200, 300, 900, 480].map(g => (g * 250) / 480)
    for (const stream of ['block:0:0', 'block:0:1', 'block:0:2']) {
      const spec = {
        arrival: 'traffic' as const,
        rate: 4,
        seed: config.load!.seed,
        stream,
        trafficGap: (i: number) => source.arrivalGap!(stream, i, 4)
      }
      const gaps = gapsOf(arrivalSchedule(spec, 13))
      // Twelve gaps: the cycle twice, rotated to the stream's starting point.
      const start = cycle.findIndex((_, k) => cycle.every((g, j) => Math.abs(gaps[j] - cycle[(k + j) % 6]) < 1e-9))
      expect(start).toBeGreaterThanOrEqual(0)
      gaps.forEach((g, j) => expect(g).toBeCloseTo(cycle[(start + j) % 6], 9))
      // Both sides build the block's schedule from the same stream: the same due times.
      expect(arrivalSchedule(spec, 13)).toEqual(arrivalSchedule({ ...spec }, 13))
    }
  })

  test('traffic arrivals without a traffic set are refused, naming load.arrival', () => {
    let caught: unknown
    try {
      arrivalSchedule({ arrival: 'traffic', rate: 4, seed: 0, stream: 's' }, 3)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(GateError)
    expect((caught as GateError).code).toBe('load.traffic_arrival')
    expect((caught as GateError).location.field).toBe('load.arrival')
  })
})
