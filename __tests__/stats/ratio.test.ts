import { describe, expect, it } from '@jest/globals'
import { GuardError, UsageError } from '../../src/errors.js'
import { percentileInterval, quantile, quantileSorted } from '../../src/stats/quantile.js'
import { createRandom } from '../../src/stats/random.js'
import { pairedIndices, SortedSide, RATIO_STREAM, ratioOfQuantiles, ratiosOfQuantiles, type IndexSource } from '../../src/stats/ratio.js'
import type { RatioEstimate, StatisticsSettings } from '../../src/stats/types.js'
import { settings } from './helpers.js'

/**
 * The implementation before the counting walk (commit 30a3945), kept verbatim in logic as the
 * reference: per quantile its own stream `ratio-<q>`, one `rng.below(n)` per drawn instance, and
 * every resample's quantile taken by sorting the resampled values.
 */
function referenceRatio(baseline: number[], candidate: number[], q: number, s: StatisticsSettings): RatioEstimate {
  const n = baseline.length
  const estimate = quantile(candidate, q) / quantile(baseline, q)
  const rng = createRandom(s.seed, `ratio-${q}`)
  const ratios = new Float64Array(s.resamples)
  for (let r = 0; r < s.resamples; r++) {
    const b = new Float64Array(n)
    const c = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const k = rng.below(n)
      b[i] = baseline[k]
      c[i] = candidate[k]
    }
    ratios[r] = quantileSorted(c.sort(), q) / quantileSorted(b.sort(), q)
  }
  const [low, high] = percentileInterval(ratios, s.confidence)
  return { estimate, low, high }
}

/** The reference's index stream: one `rng.below(n)` per index from `ratio-<q>`. */
function referenceSource(seed: number, q: number, n: number): IndexSource {
  const rng = createRandom(seed, `ratio-${q}`)
  return out => {
    for (let i = 0; i < out.length; i++) out[i] = rng.below(n)
  }
}

/** Request-time-like data with many ties (rounded to 10 ms), as HELM's runtimes often are. */
function seededTimes(seed: number, n: number): { baseline: number[]; candidate: number[] } {
  const gen = createRandom(seed, 'times')
  const baseline = Array.from({ length: n }, () => Math.round((0.2 + gen.double() ** 3 * 2) * 100) / 100)
  const candidate = baseline.map(b => Math.round(b * 1.2 * (0.9 + 0.2 * gen.double()) * 100) / 100)
  return { baseline, candidate }
}

describe('quantile (type 7)', () => {
  it('interpolates linearly between order statistics', () => {
    // Sorted [1, 2, 4, 8]: median at h = 1.5 -> 3; p90 at h = 2.7 -> 4 + 0.7 * 4 = 6.8.
    expect(quantile([8, 1, 4, 2], 0.5)).toBe(3)
    expect(quantile([8, 1, 4, 2], 0.9)).toBeCloseTo(6.8, 14)
    expect(quantile([5], 0.9)).toBe(5)
  })
})

describe('SortedSide.resampledQuantile', () => {
  it('is exactly the quantile of the sorted resample, from either end, with ties', () => {
    const rng = createRandom(21, 'multiplicities')
    for (const n of [1, 2, 3, 10, 37, 200]) {
      const values = Array.from({ length: n }, (_, i) => ((i * 7919) % 101) / 10 + (i % 3 === 0 ? 1 : 0))
      const side = new SortedSide(values)
      for (let trial = 0; trial < 200; trial++) {
        const drawn = new Int32Array(n)
        const resample: number[] = []
        for (let i = 0; i < n; i++) {
          const k = rng.below(n)
          drawn[k]++
          resample.push(values[k])
        }
        const sorted = Float64Array.from(resample).sort()
        for (const q of [0, 0.01, 0.25, 0.5, 0.75, 0.9, 0.99, 1]) {
          expect(side.resampledQuantile(drawn, q)).toBe(quantileSorted(sorted, q))
        }
      }
    }
  })
})

describe('ratiosOfQuantiles against the reference implementation', () => {
  it('gives identical intervals from the same index stream', () => {
    for (const [seed, n] of [
      [1, 50],
      [2, 301],
      [3, 1000]
    ]) {
      const { baseline, candidate } = seededTimes(seed, n)
      const s = settings({ resamples: 2000, seed })
      for (const q of [0.5, 0.9]) {
        const reference = referenceRatio(baseline, candidate, q, s)
        const counted = ratioOfQuantiles(baseline, candidate, q, s, referenceSource(seed, q, n))
        expect(counted).toEqual(reference)
      }
    }
  })

  it('with its own stream, agrees with the reference within Monte-Carlo error', () => {
    // Different draws, the same distribution: the bounds differ only by resampling noise. The
    // Monte-Carlo sd of a 2.5% quantile of B = 4000 resamples is a few percent of the half-width.
    const { baseline, candidate } = seededTimes(4, 800)
    const s = settings({ resamples: 4000, seed: 4 })
    const [median, p90] = ratiosOfQuantiles(baseline, candidate, [0.5, 0.9], s)
    for (const [q, fast] of [
      [0.5, median],
      [0.9, p90]
    ] as const) {
      const reference = referenceRatio(baseline, candidate, q, s)
      expect(fast.estimate).toBe(reference.estimate)
      const halfWidth = (reference.high - reference.low) / 2
      expect(Math.abs(fast.low - reference.low)).toBeLessThan(0.25 * halfWidth)
      expect(Math.abs(fast.high - reference.high)).toBeLessThan(0.25 * halfWidth)
    }
  })

  it('counts its own stream as it draws: the same intervals as from pairedIndices on that stream', () => {
    for (const [seed, n] of [
      [6, 37],
      [7, 1000],
      [8, 70_000]
    ]) {
      const { baseline, candidate } = seededTimes(seed, n)
      const s = settings({ resamples: n > 10_000 ? 60 : 800, seed })
      const viaIndices = ratiosOfQuantiles(baseline, candidate, [0.5, 0.9], s, pairedIndices(createRandom(seed, RATIO_STREAM), n))
      expect(ratiosOfQuantiles(baseline, candidate, [0.5, 0.9], s)).toEqual(viaIndices)
    }
  })

  it('takes every quantile from the same resamples as one-quantile calls on the same stream', () => {
    const { baseline, candidate } = seededTimes(5, 400)
    const s = settings({ resamples: 1000, seed: 8 })
    const both = ratiosOfQuantiles(baseline, candidate, [0.5, 0.9], s)
    expect(both[0]).toEqual(ratioOfQuantiles(baseline, candidate, 0.5, s))
    expect(both[1]).toEqual(ratioOfQuantiles(baseline, candidate, 0.9, s))
  })
})

describe('pairedIndices', () => {
  it('draws every index equally often (chi-square), for small and large n', () => {
    for (const n of [7, 1000, 70000]) {
      const draw = pairedIndices(createRandom(11, RATIO_STREAM), n)
      const counts = new Float64Array(n)
      const out = new Int32Array(n)
      const rounds = Math.ceil(400000 / n)
      for (let r = 0; r < rounds; r++) {
        draw(out)
        for (const k of out) counts[k]++
      }
      const expected = rounds
      let chi = 0
      for (const c of counts) chi += (c - expected) ** 2 / expected
      // chi-square with n - 1 degrees of freedom: mean n - 1, sd sqrt(2(n - 1)); 5 sd is far out.
      expect(Math.abs(chi - (n - 1))).toBeLessThan(5 * Math.sqrt(2 * (n - 1)))
      expect(Math.min(...out)).toBeGreaterThanOrEqual(0)
      expect(Math.max(...out)).toBeLessThan(n)
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
