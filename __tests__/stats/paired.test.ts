import { describe, expect, it } from '@jest/globals'
import { GuardError, UsageError } from '../../src/errors.js'
import { clusterBootstrap, countBootstrap } from '../../src/stats/bootstrap.js'
import { tangoInterval } from '../../src/stats/paired-proportions.js'
import { AUTO_BINARY_INTERVAL, estimatePaired } from '../../src/stats/paired.js'
import { percentileInterval } from '../../src/stats/quantile.js'
import { createRandom } from '../../src/stats/random.js'
import type { PairedCluster } from '../../src/stats/types.js'
import { binaryClusters, mean, quantileDifferenceSd, sampleSd, settings, singleTrial } from './helpers.js'

// A small hand-written 0/1 data set (12 instances, one trial each).
const BASE = [1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0]
const CAND = [1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1]

describe('estimatePaired: agreement with a hand computation', () => {
  it('0/1 data: n, means, delta, wins, losses, McNemar', () => {
    const est = estimatePaired(singleTrial(BASE, CAND), settings())
    // By hand: d = [0,-1,1,0,0,1,-1,-1,0,0,0,1]; wins at 2,5,11 (3); losses at 1,6,7 (3).
    expect(est.n).toBe(12)
    expect(est.pairs).toBe(12)
    expect(est.binary).toBe(true)
    expect(est.wins).toBe(3)
    expect(est.losses).toBe(3)
    expect(est.unchanged).toBe(6)
    expect(est.baselineMean).toBe(7 / 12)
    expect(est.candidateMean).toBe(7 / 12)
    expect(est.delta).toBe(0)
    // McNemar, 3 vs 3: 2 * P(X <= 3 | Bin(6, 1/2)) = 2 * 42/64 > 1, so 1.
    expect(est.pValue).toBe(1)
  })

  it('0/1 data with a drop', () => {
    const cand = [1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1]
    const est = estimatePaired(singleTrial(BASE, cand), settings())
    // d = [0,-1,0,0,0,0,-1,-1,0,0,0,1]: 1 win, 3 losses, delta = -2/12.
    expect([est.wins, est.losses, est.unchanged]).toEqual([1, 3, 8])
    expect(est.delta).toBe(-2 / 12)
    expect(est.candidateMean).toBe(5 / 12)
    // McNemar: 2 * (C(4,0) + C(4,1)) / 2^4 = 10/16.
    expect(est.pValue).toBeCloseTo(10 / 16, 14)
    // sd of d by hand: values -1 (3x), 1 (1x), 0 (8x); mean -1/6.
    const d = cand.map((c, i) => c - BASE[i])
    expect(est.sdDelta).toBeCloseTo(sampleSd(d), 14)
  })

  it('continuous data: flips use the tolerance, no p-value', () => {
    const base = [0.5, 0.25, 0.75, 0.4, 0.9]
    const cand = [0.5 + 1e-12, 0.5, 0.5, 0.4, 1]
    const est = estimatePaired(singleTrial(base, cand), settings({ flipTolerance: 1e-9 }))
    // d = [1e-12 (within tolerance), +0.25, -0.25, 0, +0.1]
    expect(est.binary).toBe(false)
    expect([est.wins, est.losses, est.unchanged]).toEqual([2, 1, 2])
    expect(est.pValue).toBeNull()
    expect(est.delta).toBeCloseTo((1e-12 + 0.25 - 0.25 + 0 + 0.1) / 5, 15)
    expect(est.ci.method).toBe('bootstrap')
  })

  it('clustered trials: n counts instances, pairs count trials, delta is the mean over pairs', () => {
    const clusters: PairedCluster[] = [
      { baseline: [1, 1, 0], candidate: [1, 0, 0] },
      { baseline: [0, 0, 0], candidate: [1, 0, 1] },
      { baseline: [1, 1, 1], candidate: [1, 1, 1] }
    ]
    const est = estimatePaired(clusters, settings())
    expect(est.n).toBe(3)
    expect(est.pairs).toBe(9)
    expect(est.delta).toBeCloseTo((-1 + 2 + 0) / 9, 15)
    expect([est.wins, est.losses]).toEqual([2, 1])
    expect(est.ci.method).toBe('bootstrap')
    // sd over the cluster means -1/3, 2/3, 0.
    expect(est.sdDelta).toBeCloseTo(sampleSd([-1 / 3, 2 / 3, 0]), 14)
  })
})

describe('estimatePaired: interval method', () => {
  const data = binaryClusters(120, 6, 14, 60)

  it(`auto uses ${AUTO_BINARY_INTERVAL} for single-trial 0/1 data and equals the direct computation`, () => {
    const est = estimatePaired(data, settings())
    expect(est.ci.method).toBe('tango')
    const [low, high] = tangoInterval({ both: 120, wins: 6, losses: 14, neither: 60 }, 0.95)
    expect([est.ci.low, est.ci.high]).toEqual([low, high])
    expect(est.ci.level).toBe(0.95)
  })

  it('bootstrap on single-trial 0/1 data uses counts; newcombe is available', () => {
    expect(estimatePaired(data, settings({ interval: 'bootstrap' })).ci.method).toBe('bootstrap-counts')
    expect(estimatePaired(data, settings({ interval: 'newcombe' })).ci.method).toBe('newcombe')
  })

  it('refuses analytic intervals on continuous or clustered data', () => {
    const continuous = singleTrial([0.2, 0.5], [0.3, 0.5])
    const clustered = [{ baseline: [0, 1], candidate: [1, 1] }]
    expect(() => estimatePaired(continuous, settings({ interval: 'newcombe' }))).toThrow(UsageError)
    expect(() => estimatePaired(clustered, settings({ interval: 'tango' }))).toThrow(/clustered/)
    expect(estimatePaired(clustered, settings()).ci.method).toBe('bootstrap')
  })
})

describe('estimatePaired: edge cases and guards', () => {
  it('n = 0 is a guard error', () => {
    expect(() => estimatePaired([], settings())).toThrow(GuardError)
  })

  it('non-finite values and unpaired trials are refused', () => {
    expect(() => estimatePaired(singleTrial([1, Number.NaN], [1, 0]), settings())).toThrow(GuardError)
    expect(() => estimatePaired(singleTrial([1, 0], [1, Infinity]), settings())).toThrow(/finite/)
    expect(() => estimatePaired([{ baseline: [1, 0], candidate: [1] }], settings())).toThrow(GuardError)
    expect(() => estimatePaired([{ baseline: [], candidate: [] }], settings())).toThrow(GuardError)
  })

  it('bad settings are usage errors', () => {
    const data = singleTrial([0.1, 0.2, 0.3], [0.2, 0.2, 0.1])
    expect(() => estimatePaired(data, settings({ confidence: 1 }))).toThrow(UsageError)
    expect(() => estimatePaired(data, settings({ resamples: 10 }))).toThrow(UsageError)
    expect(() => estimatePaired(data, settings({ flipTolerance: -1 }))).toThrow(UsageError)
  })

  it('n = 1 works: zero-width bootstrap, a wide analytic interval', () => {
    const one = estimatePaired(singleTrial([0.25], [0.5]), settings())
    expect([one.ci.low, one.ci.high]).toEqual([0.25, 0.25])
    expect(one.sdDelta).toBe(0)
    const binary = estimatePaired(singleTrial([0], [1]), settings())
    expect(binary.ci.high).toBe(1)
    expect(binary.ci.low).toBeLessThan(0)
  })

  it('identical differences give a zero-width bootstrap interval at delta', () => {
    // Exact binary fractions, so every d is exactly 0.25 (0.2 - 0.1 and 0.3 - 0.2 differ in the last bit).
    const est = estimatePaired(singleTrial([0, 0.25, 0.5, 0.125], [0.25, 0.5, 0.75, 0.375]), settings())
    expect(est.ci.low).toBe(est.ci.high)
    expect(est.ci.low).toBe(est.delta)
    expect(est.delta).toBe(0.25)
  })
})

describe('bootstrap agreement', () => {
  // Continuous scores, 300 instances, generated from a fixed stream.
  const gen = createRandom(11, 'agreement-data')
  const base: number[] = []
  const cand: number[] = []
  for (let i = 0; i < 300; i++) {
    const b = gen.double()
    base.push(b)
    cand.push(gen.double() < 0.7 ? b : gen.double() ** 2)
  }
  const d = cand.map((c, i) => c - base[i])

  it('matches an independent, straightforward bootstrap within Monte-Carlo error', () => {
    const B = 10000
    const est = estimatePaired(singleTrial(base, cand), settings({ resamples: B, seed: 5 }))
    // Independent implementation: resample indices with another seeded stream, average, sort, pick.
    const rng = createRandom(999, 'independent')
    const means: number[] = []
    for (let r = 0; r < B; r++) {
      let total = 0
      for (let i = 0; i < d.length; i++) total += d[rng.below(d.length)]
      means.push(total / d.length)
    }
    means.sort((a, b) => a - b)
    const pick = (q: number) => {
      const h = (B - 1) * q
      const i = Math.floor(h)
      return means[i] + (h - i) * (means[i + 1] - means[i])
    }
    const spread = sampleSd(d) / Math.sqrt(d.length)
    const tolerance = 4 * quantileDifferenceSd(0.025, 1.96, B, spread)
    expect(Math.abs(est.ci.low - pick(0.025))).toBeLessThan(tolerance)
    expect(Math.abs(est.ci.high - pick(0.975))).toBeLessThan(tolerance)
    // And both are near the normal-theory interval (sanity, loose).
    expect(Math.abs(est.ci.low - (mean(d) - 1.96 * spread))).toBeLessThan(0.25 * spread)
  })

  it('the count bootstrap has the distribution of the generic bootstrap on the same 0/1 data', () => {
    const wins = 14
    const losses = 23
    const n = 250
    const diffs = new Float64Array(n)
    for (let i = 0; i < wins; i++) diffs[i] = 1
    for (let i = wins; i < wins + losses; i++) diffs[i] = -1
    const B = 20000
    const counts = countBootstrap(wins, losses, n, B, createRandom(1, 'counts'))
    const generic = clusterBootstrap(diffs, null, 1, B, createRandom(2, 'generic'))
    // Theory: mean (w - l)/n, variance (mean(d^2) - mean(d)^2)/n.
    const theoryMean = (wins - losses) / n
    const theorySd = Math.sqrt(((wins + losses) / n - theoryMean ** 2) / n)
    for (const sample of [counts, generic]) {
      expect(Math.abs(mean(sample) - theoryMean)).toBeLessThan((4 * theorySd) / Math.sqrt(B))
      // sd of a sample sd is about sd / sqrt(2B).
      expect(Math.abs(sampleSd(sample) / theorySd - 1)).toBeLessThan(4 / Math.sqrt(2 * B))
    }
    const [cl, ch] = percentileInterval(counts, 0.95)
    const [gl, gh] = percentileInterval(generic, 0.95)
    // Both lie on the lattice of multiples of 1/n; allow one lattice step on top of the MC error.
    const tolerance = 4 * quantileDifferenceSd(0.025, 1.96, B, theorySd) + 1 / n
    expect(Math.abs(cl - gl)).toBeLessThan(tolerance)
    expect(Math.abs(ch - gh)).toBeLessThan(tolerance)
  })

  it('estimatePaired with interval bootstrap uses the count bootstrap and agrees with the generic one', () => {
    const data = binaryClusters(150, 20, 30, 100)
    const est = estimatePaired(data, settings({ interval: 'bootstrap', seed: 3 }))
    const diffs = Float64Array.from(data, c => c.candidate[0] - c.baseline[0])
    const [gl, gh] = percentileInterval(clusterBootstrap(diffs, null, 1, 10000, createRandom(4, 'g')), 0.95)
    const spread = sampleSd(diffs) / Math.sqrt(diffs.length)
    const tolerance = 4 * quantileDifferenceSd(0.025, 1.96, 10000, spread) + 1 / diffs.length
    expect(Math.abs(est.ci.low - gl)).toBeLessThan(tolerance)
    expect(Math.abs(est.ci.high - gh)).toBeLessThan(tolerance)
  })

  it('the cluster bootstrap resamples instances, not trials', () => {
    // Trials within an instance are identical, so the instance-level spread is what counts: the
    // interval must be as wide as that of one value per instance (not sqrt(3) narrower).
    const gen2 = createRandom(12, 'cluster-data')
    const perInstance = Array.from({ length: 200 }, () => gen2.double() - 0.5)
    const clustered = perInstance.map(x => ({ baseline: [0, 0, 0], candidate: [x, x, x] }))
    const flat = perInstance.map(x => ({ baseline: [0], candidate: [x] }))
    const a = estimatePaired(clustered, settings({ seed: 8 }))
    const b = estimatePaired(flat, settings({ seed: 8 }))
    expect(a.ci.low).toBeCloseTo(b.ci.low, 12)
    expect(a.ci.high).toBeCloseTo(b.ci.high, 12)
    expect(a.pairs).toBe(600)
  })
})

describe('determinism', () => {
  const data = singleTrial(
    Array.from({ length: 80 }, (_, i) => ((i * 37) % 11) / 10),
    Array.from({ length: 80 }, (_, i) => ((i * 53) % 13) / 12)
  )

  it('same inputs and seed give identical numbers', () => {
    expect(JSON.stringify(estimatePaired(data, settings({ seed: 42 })))).toBe(JSON.stringify(estimatePaired(data, settings({ seed: 42 }))))
  })

  it('a different seed gives different bootstrap bounds', () => {
    const a = estimatePaired(data, settings({ seed: 1 }))
    const b = estimatePaired(data, settings({ seed: 2 }))
    expect([a.ci.low, a.ci.high]).not.toEqual([b.ci.low, b.ci.high])
    expect(a.delta).toBe(b.delta)
  })
})
