import { describe, expect, test } from '@jest/globals'
import { blockPairRatio, pairsToResolve } from '../../src/stats/log-ratio.js'
import { createRandom } from '../../src/stats/random.js'

describe('block-pair log-ratio t interval', () => {
  test('matches the t interval computed by hand', () => {
    const baseline = [100, 110, 90, 105]
    const candidate = [150, 160, 140, 170]
    const logs = candidate.map((c, i) => Math.log(c / baseline[i]))
    const mean = logs.reduce((a, b) => a + b) / 4
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / 3)
    const half = (3.182446305284263 * sd) / 2
    const outcome = blockPairRatio(baseline, candidate, 0.95)
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    expect(outcome.ratio.estimate).toBeCloseTo(Math.exp(mean), 12)
    expect(outcome.ratio.low).toBeCloseTo(Math.exp(mean - half), 9)
    expect(outcome.ratio.high).toBeCloseTo(Math.exp(mean + half), 9)
    expect(outcome.ratio.pairs).toBe(4)
  })

  test('a drift shared by the blocks of a pair cancels: the ratio of a 1.5x candidate stays 1.5', () => {
    const drift = [1, 0.8, 1.3, 0.7, 1.1]
    const outcome = blockPairRatio(
      drift.map(d => 100 * d),
      drift.map(d => 150 * d),
      0.95
    )
    expect(outcome.ok && outcome.ratio.low).toBeCloseTo(1.5, 12)
    expect(outcome.ok && outcome.ratio.high).toBeCloseTo(1.5, 12)
  })

  test('fewer than 3 pairs, a zero or a missing value give no interval, with the reason', () => {
    expect(blockPairRatio([1, 2], [1, 2], 0.95)).toEqual({ ok: false, reason: '2 block pairs; an interval needs at least 3' })
    const zero = blockPairRatio([1, 0, 1], [1, 1, 1], 0.95)
    expect(zero.ok).toBe(false)
    expect(!zero.ok && zero.reason).toMatch(/baseline is 0 in block pair 2/)
    expect(blockPairRatio([1, 1, 1], [1, NaN, 1], 0.95).ok).toBe(false)
  })

  test('covers the true ratio about 95% of the time with log-normal block noise (simulation)', () => {
    const random = createRandom(7, 'log-ratio-coverage')
    const normal = (): number => Math.sqrt(-2 * Math.log(random.double())) * Math.cos(2 * Math.PI * random.double())
    let covered = 0
    const trials = 4000
    for (let t = 0; t < trials; t++) {
      const baseline: number[] = []
      const candidate: number[] = []
      for (let i = 0; i < 3; i++) {
        const drift = Math.exp(0.3 * normal())
        baseline.push(100 * drift * Math.exp(0.05 * normal()))
        candidate.push(130 * drift * Math.exp(0.05 * normal()))
      }
      const outcome = blockPairRatio(baseline, candidate, 0.95)
      if (outcome.ok && outcome.ratio.low <= 1.3 && 1.3 <= outcome.ratio.high) covered++
    }
    expect(covered / trials).toBeGreaterThan(0.935)
    expect(covered / trials).toBeLessThan(0.965)
  })

  test('pairs needed to resolve: more when the estimate is near the threshold, none when it sits on it', () => {
    const outcome = blockPairRatio([100, 100, 100], [120, 135, 126], 0.95)
    if (!outcome.ok) throw new Error('no ratio')
    const near = pairsToResolve(outcome.ratio, 1.2, 0.95)
    const far = pairsToResolve(outcome.ratio, 1.05, 0.95)
    expect(near).not.toBeNull()
    expect(far).not.toBeNull()
    expect(near!).toBeGreaterThan(far!)
    expect(pairsToResolve(outcome.ratio, outcome.ratio.estimate, 0.95)).toBeNull()
  })
})
