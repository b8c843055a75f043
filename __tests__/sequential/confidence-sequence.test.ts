/**
 * The betting confidence sequence (docs/method.md "Sequential verdicts"): known cases, an
 * independent grid inversion of the published capital process, the finite-population collapse at
 * n = N, and bad input.
 */
import { describe, expect, it } from '@jest/globals'
import { UsageError } from '../../src/errors.js'
import { bettingInterval, pairedSequenceInterval, plugInBets } from '../../src/sequential/confidence-sequence.js'
import { createRandom } from '../../src/stats/random.js'

function draws(seed: number, n: number, p: number): number[] {
  const random = createRandom(seed, 'cs-test')
  return Array.from({ length: n }, () => (random.double() < p ? 1 : random.double() < 0.5 ? 0.5 : 0))
}

/**
 * Waudby-Smith and Ramdas's hedged process written out directly on a grid of candidate means:
 * the interval is every grid point where neither one-sided capital reached 2 / alpha.
 */
function gridInterval(x: number[], alpha: number, population?: number): [number, number] {
  const kept: number[] = []
  for (let g = 0; g <= 4000; g++) {
    const m = g / 4000
    let up = 1
    let down = 1
    let sum = 0
    let variance = 0.25
    let squares = 0
    let possible = true
    for (let i = 1; i <= x.length; i++) {
      const mi = population === undefined ? m : (population * m - sum) / (population - i + 1)
      if (mi < -1e-12 || mi > 1 + 1e-12) possible = false
      const lambda = Math.sqrt((2 * Math.log(2 / alpha)) / (variance * i * Math.log(1 + i)))
      up *= 1 + Math.min(lambda, mi > 0 ? 0.5 / mi : Infinity) * (x[i - 1] - mi)
      down *= 1 - Math.min(lambda, mi < 1 ? 0.5 / (1 - mi) : Infinity) * (x[i - 1] - mi)
      sum += x[i - 1]
      const mean = (0.5 + sum) / (i + 1)
      squares += (x[i - 1] - mean) ** 2
      variance = (0.25 + squares) / (i + 1)
    }
    if (population !== undefined && (sum / population > m + 1e-12 || (sum + population - x.length) / population < m - 1e-12))
      possible = false
    if (possible && Math.max(up, down) < 2 / alpha) kept.push(m)
  }
  return [kept[0], kept[kept.length - 1]]
}

describe('bettingInterval', () => {
  it('agrees with a direct grid inversion of the hedged capital process', () => {
    for (const [seed, n, p] of [
      [1, 40, 0.3],
      [2, 150, 0.7],
      [3, 400, 0.5]
    ]) {
      const x = draws(seed, n, p)
      const [low, high] = gridInterval(x, 0.05)
      const got = bettingInterval(x)
      expect(Math.abs(got.low - low)).toBeLessThanOrEqual(1 / 4000)
      expect(Math.abs(got.high - high)).toBeLessThanOrEqual(1 / 4000)
    }
  })

  it('agrees with the grid inversion without replacement, sure bounds included', () => {
    const x = draws(4, 120, 0.4)
    const [low, high] = gridInterval(x, 0.05, 200)
    const got = bettingInterval(x, { population: 200 })
    expect(Math.abs(got.low - low)).toBeLessThanOrEqual(1 / 4000)
    expect(Math.abs(got.high - high)).toBeLessThanOrEqual(1 / 4000)
  })

  it('uses the plug-in bet of the paper for the first value (prior variance 1/4)', () => {
    expect(plugInBets([1], 0.05)[0]).toBeCloseTo(Math.sqrt((2 * Math.log(40)) / (0.25 * Math.log(2))), 12)
    expect(plugInBets([1], 0.05, 100)[0]).toBeCloseTo(Math.sqrt((2 * Math.log(40)) / (0.25 * 100)), 12)
  })

  it('is the whole range before any value, and for a finite population the sure bounds', () => {
    expect(bettingInterval([])).toEqual({ n: 0, low: 0, high: 1 })
    const { low, high } = bettingInterval([1, 1], { population: 4 })
    expect(low).toBeGreaterThanOrEqual(0.5)
    expect(high).toBe(1)
  })
})

describe('pairedSequenceInterval', () => {
  it('stays narrow and symmetric around 0 for all-zero differences, narrower as n grows', () => {
    const widths = [50, 200, 800].map(n => {
      const { low, high } = pairedSequenceInterval(new Array<number>(n).fill(0))
      expect(low).toBeLessThan(0)
      expect(high).toBeGreaterThan(0)
      expect(low).toBeCloseTo(-high, 12)
      return high - low
    })
    expect(widths[1]).toBeLessThan(widths[0])
    expect(widths[2]).toBeLessThan(widths[1])
    expect(widths[2]).toBeLessThan(0.02)
  })

  it('shrinks with n on noisy differences and holds the sample mean', () => {
    const random = createRandom(9, 'cs-width')
    const diffs: number[] = Array.from({ length: 1000 }, () => {
      const u = random.double()
      return u < 0.08 ? -1 : u < 0.14 ? 1 : 0
    })
    let previous = Infinity
    for (const n of [100, 300, 1000]) {
      const { low, high } = pairedSequenceInterval(diffs.slice(0, n))
      const mean = diffs.slice(0, n).reduce((a, b) => a + b, 0) / n
      expect(low).toBeLessThan(mean)
      expect(high).toBeGreaterThan(mean)
      expect(high - low).toBeLessThan(previous)
      previous = high - low
    }
  })

  it('collapses to the exact mean of a finite population at n = N', () => {
    const random = createRandom(5, 'cs-collapse')
    const diffs: number[] = Array.from({ length: 300 }, () => [-1, 0, 0, 0, 1][random.below(5)])
    const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length
    const { low, high } = pairedSequenceInterval(diffs, { population: 300 })
    expect(low).toBeCloseTo(mean, 12)
    expect(high).toBeCloseTo(mean, 12)
    // Short of N the sure bounds leave room, and the interval is wider.
    const early = pairedSequenceInterval(diffs.slice(0, 290), { population: 300 })
    expect(early.high - early.low).toBeGreaterThan(0.01)
  })

  it('is narrower with the finite-population correction than without it', () => {
    const diffs = draws(6, 400, 0.3).map(x => 2 * x - 1)
    const wor = pairedSequenceInterval(diffs, { population: 500 })
    const wr = pairedSequenceInterval(diffs)
    expect(wor.high - wor.low).toBeLessThan(wr.high - wr.low)
  })

  it('refuses a difference outside [-1, 1], naming its index', () => {
    expect(() => pairedSequenceInterval([0, 1.5])).toThrow(UsageError)
    try {
      pairedSequenceInterval([0, 1.5])
    } catch (error) {
      expect((error as UsageError).location).toEqual({ field: 'differences[1]', value: 1.5 })
    }
  })

  it('refuses a population smaller than the sample and a bad alpha', () => {
    expect(() => pairedSequenceInterval([0, 0, 0], { population: 2 })).toThrow(/at least the 3 drawn/)
    expect(() => pairedSequenceInterval([0], { alpha: 1 })).toThrow(UsageError)
    expect(() => pairedSequenceInterval([0], { horizon: 0 })).toThrow(UsageError)
  })
})
