import { describe, expect, it } from '@jest/globals'
import { GuardError, UsageError } from '../../src/errors.js'
import { quantile } from '../../src/stats/quantile.js'
import { createRandom } from '../../src/stats/random.js'
import { ratioOfQuantiles, SortedSide } from '../../src/stats/ratio.js'
import { settings } from './helpers.js'

describe('quantile (type 7)', () => {
  it('interpolates linearly between order statistics', () => {
    // Sorted [1, 2, 4, 8]: median at h = 1.5 -> 3; p90 at h = 2.7 -> 4 + 0.7 * 4 = 6.8.
    expect(quantile([8, 1, 4, 2], 0.5)).toBe(3)
    expect(quantile([8, 1, 4, 2], 0.9)).toBeCloseTo(6.8, 14)
    expect(quantile([5], 0.9)).toBe(5)
  })
})

describe('SortedSide.resampledQuantile', () => {
  it('equals the quantile of the expanded resample', () => {
    const rng = createRandom(21, 'multiplicities')
    const values = Array.from({ length: 37 }, (_, i) => ((i * 7919) % 101) / 10 + (i % 3 === 0 ? 1 : 0))
    const side = new SortedSide(values)
    for (let trial = 0; trial < 300; trial++) {
      const drawn = new Int32Array(values.length)
      for (let i = 0; i < values.length; i++) drawn[rng.below(values.length)]++
      const expanded: number[] = []
      drawn.forEach((count, i) => {
        for (let k = 0; k < count; k++) expanded.push(values[i])
      })
      for (const q of [0, 0.5, 0.9, 1]) {
        expect(side.resampledQuantile(drawn, q)).toBeCloseTo(quantile(expanded, q), 12)
      }
    }
  })
})

describe('ratioOfQuantiles', () => {
  const gen = createRandom(5, 'times')
  const baseline = Array.from({ length: 400 }, () => 0.2 + gen.double() ** 3 * 2)
  // Candidate about 20% slower, with its own noise, paired by instance.
  const candidate = baseline.map(b => b * 1.2 * (0.9 + 0.2 * gen.double()))

  it('estimates quantile(candidate) / quantile(baseline)', () => {
    const r = ratioOfQuantiles(baseline, candidate, 0.5, settings())
    expect(r.estimate).toBeCloseTo(quantile(candidate, 0.5) / quantile(baseline, 0.5), 14)
    expect(r.low).toBeLessThan(r.estimate)
    expect(r.high).toBeGreaterThan(r.estimate)
  })

  it('agrees with a straightforward paired bootstrap within Monte-Carlo error', () => {
    const B = 4000
    const r = ratioOfQuantiles(baseline, candidate, 0.9, settings({ resamples: B, seed: 3 }))
    const rng = createRandom(77, 'naive')
    const ratios: number[] = []
    for (let k = 0; k < B; k++) {
      const b: number[] = []
      const c: number[] = []
      for (let i = 0; i < baseline.length; i++) {
        const j = rng.below(baseline.length)
        b.push(baseline[j])
        c.push(candidate[j])
      }
      ratios.push(quantile(c, 0.9) / quantile(b, 0.9))
    }
    const low = quantile(ratios, 0.025)
    const high = quantile(ratios, 0.975)
    // MC error of a 2.5% quantile from B draws, both sides: about 0.04 of the interval's half-width
    // each at B = 4000 (see helpers.quantileDifferenceSd); allow 0.25 of it.
    const halfWidth = (high - low) / 2
    expect(Math.abs(r.low - low)).toBeLessThan(0.25 * halfWidth)
    expect(Math.abs(r.high - high)).toBeLessThan(0.25 * halfWidth)
  })

  it('is deterministic for a seed', () => {
    expect(ratioOfQuantiles(baseline, candidate, 0.5, settings({ seed: 9 }))).toEqual(
      ratioOfQuantiles(baseline, candidate, 0.5, settings({ seed: 9 }))
    )
  })

  it('refuses unpaired, empty, non-finite or zero-baseline input', () => {
    expect(() => ratioOfQuantiles([], [], 0.5, settings())).toThrow(GuardError)
    expect(() => ratioOfQuantiles([1, 2], [1], 0.5, settings())).toThrow(GuardError)
    expect(() => ratioOfQuantiles([1, Number.NaN], [1, 2], 0.5, settings())).toThrow(GuardError)
    expect(() => ratioOfQuantiles([0, 0, 1], [1, 1, 1], 0.5, settings())).toThrow(/not positive/)
    expect(() => ratioOfQuantiles([1, 2], [1, 2], 1.5, settings())).toThrow(UsageError)
  })
})
