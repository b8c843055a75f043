import { describe, expect, it } from '@jest/globals'
import { GuardError } from '../../src/errors.js'
import { decideRatioBand, MEAN_RATIO_STREAM, ratioOfMeans, ratioOfMeansDelta, type MeanRatioEstimate } from '../../src/stats/mean-ratio.js'
import { percentileInterval } from '../../src/stats/quantile.js'
import { createRandom } from '../../src/stats/random.js'
import { settings } from './helpers.js'

/**
 * A plain reference: each 32-bit draw of the same stream gives two 16-bit halves (high, then low),
 * a half is kept when below the largest multiple of n under 2^16, and a kept half h draws instance
 * floor(h / floor(2^16 / n)) (docs/method.md "Answer length").
 */
function referenceInterval(b: number[], c: number[], resamples: number, seed: number): [number, number] {
  const rng = createRandom(seed, MEAN_RATIO_STREAM)
  const n = b.length
  const bucket = Math.floor(65536 / n)
  const halves: number[] = []
  const nextIndex = (): number => {
    for (;;) {
      if (halves.length === 0) {
        const u = rng.int32() >>> 0
        halves.push(Math.floor(u / 65536), u % 65536)
      }
      const h = halves.shift() as number
      if (h < bucket * n) return Math.floor(h / bucket)
    }
  }
  const out = new Float64Array(resamples)
  for (let r = 0; r < resamples; r++) {
    let sb = 0
    let sc = 0
    for (let i = 0; i < n; i++) {
      const k = nextIndex()
      sb += b[k]
      sc += c[k]
    }
    out[r] = sc / sb
  }
  return percentileInterval(out, 0.95)
}

const LENGTHS_B = [12, 30, 7, 45, 18, 22, 9, 60, 15, 25, 33, 11, 40, 8, 19, 27, 14, 50, 21, 16]
const LENGTHS_C = [14, 31, 9, 52, 18, 25, 12, 70, 15, 29, 35, 13, 44, 10, 22, 30, 15, 57, 24, 18]

describe('ratioOfMeans', () => {
  it('is the ratio of the two means, with both means, exactly as a hand computation', () => {
    const est = ratioOfMeans(LENGTHS_B, LENGTHS_C, settings({ resamples: 2000 }))
    const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0)
    expect(est.n).toBe(20)
    expect(est.baselineMean).toBe(sum(LENGTHS_B) / 20)
    expect(est.candidateMean).toBe(sum(LENGTHS_C) / 20)
    expect(est.estimate).toBe(sum(LENGTHS_C) / sum(LENGTHS_B))
    expect(est.low).toBeLessThan(est.estimate)
    expect(est.high).toBeGreaterThan(est.estimate)
  })

  it('draws the same resamples as a plain two-indices-per-draw bootstrap of the same stream', () => {
    const est = ratioOfMeans(LENGTHS_B, LENGTHS_C, settings({ resamples: 3000, seed: 5 }))
    const [low, high] = referenceInterval(LENGTHS_B, LENGTHS_C, 3000, 5)
    expect(est.low).toBe(low)
    expect(est.high).toBe(high)
  })

  it('is seeded: the same inputs and seed give the same interval, another seed another one', () => {
    const a = ratioOfMeans(LENGTHS_B, LENGTHS_C, settings({ resamples: 1000, seed: 1 }))
    const b = ratioOfMeans(LENGTHS_B, LENGTHS_C, settings({ resamples: 1000, seed: 1 }))
    const c = ratioOfMeans(LENGTHS_B, LENGTHS_C, settings({ resamples: 1000, seed: 2 }))
    expect(b).toEqual(a)
    expect([c.low, c.high]).not.toEqual([a.low, a.high])
  })

  it('keeps the pairing: identical answers give exactly [1, 1]', () => {
    const est = ratioOfMeans(LENGTHS_B, LENGTHS_B, settings({ resamples: 500 }))
    expect([est.estimate, est.low, est.high]).toEqual([1, 1, 1])
  })

  it('refuses unpaired, negative, non-finite and all-empty baselines with named errors', () => {
    const s = settings({ resamples: 500 })
    expect(() => ratioOfMeans([1, 2], [1], s)).toThrow(expect.objectContaining({ code: 'stats.ratio_unpaired' }))
    expect(() => ratioOfMeans([], [], s)).toThrow(GuardError)
    expect(() => ratioOfMeans([1, -2], [1, 2], s)).toThrow(expect.objectContaining({ code: 'stats.bad_length' }))
    expect(() => ratioOfMeans([1, 2], [1, NaN], s)).toThrow(/candidate's is NaN/)
    expect(() => ratioOfMeans([0, 0], [3, 4], s)).toThrow(expect.objectContaining({ code: 'stats.ratio_zero_baseline' }))
  })
})

describe('ratioOfMeansDelta', () => {
  it('is exp(log R ± z se) with se = sd(c/mean c - b/mean b)/sqrt(n), as a hand computation', () => {
    const b = [10, 20, 30, 40]
    const c = [12, 18, 36, 44]
    // Hand: mean b 25, mean c 27.5, R 1.1; terms c/27.5 - b/25 = 0.036364, -0.145455, 0.109091, 0.000000;
    // their sample variance 0.011460 (sum of squares 0.034380 over 3), se = sqrt(0.011460 / 4) = 0.053526.
    const est = ratioOfMeansDelta(b, c, { confidence: 0.95 })
    expect(est.n).toBe(4)
    expect(est.baselineMean).toBe(25)
    expect(est.candidateMean).toBe(27.5)
    expect(est.estimate).toBeCloseTo(1.1, 12)
    expect(est.low).toBeCloseTo(1.1 * Math.exp(-1.959964 * 0.053526), 4)
    expect(est.high).toBeCloseTo(1.1 * Math.exp(1.959964 * 0.053526), 4)
    expect(est.level).toBe(0.95)
  })

  it('keeps the pairing: identical answers give exactly [1, 1], proportional answers [k, k]', () => {
    const b = [3, 9, 27, 5, 1]
    expect(ratioOfMeansDelta(b, b, { confidence: 0.95 })).toMatchObject({ estimate: 1, low: 1, high: 1 })
    const doubled = ratioOfMeansDelta(
      b,
      b.map(x => 2 * x),
      { confidence: 0.95 }
    )
    expect(doubled.low).toBeCloseTo(2, 12)
    expect(doubled.high).toBeCloseTo(2, 12)
  })

  it('gives [0, ∞) where nothing can spread it (one instance, an all-empty candidate): never a point', () => {
    expect(ratioOfMeansDelta([4], [5], { confidence: 0.95 })).toMatchObject({ estimate: 1.25, low: 0, high: Infinity })
    expect(ratioOfMeansDelta([4, 6], [0, 0], { confidence: 0.95 })).toMatchObject({ estimate: 0, low: 0, high: Infinity })
    expect(decideRatioBand(ratioOfMeansDelta([4], [5], { confidence: 0.95 }), { min: 0.8, max: 1.25 }).verdict).toBe('inconclusive')
  })

  it('agrees with the bootstrap on a real-shaped sample within a few percent at each end', () => {
    const rng = createRandom(7, 'test-delta')
    const b: number[] = []
    const c: number[] = []
    for (let i = 0; i < 2000; i++) {
      const length = 5 - 30 * Math.log(1 - rng.double())
      b.push(length)
      c.push(length * Math.exp(0.1 + 0.3 * Math.sqrt(-2 * Math.log(1 - rng.double())) * Math.cos(2 * Math.PI * rng.double())))
    }
    const delta = ratioOfMeansDelta(b, c, { confidence: 0.95 })
    const boot = ratioOfMeans(b, c, settings({ resamples: 4000, seed: 3 }))
    expect(delta.estimate).toBe(boot.estimate)
    expect(Math.abs(Math.log(delta.low / boot.low))).toBeLessThan(0.01)
    expect(Math.abs(Math.log(delta.high / boot.high))).toBeLessThan(0.01)
  })

  it('refuses what ratioOfMeans refuses, with the same named errors', () => {
    const codes = (f: () => unknown): string | undefined => {
      try {
        f()
      } catch (error) {
        return error instanceof GuardError ? error.code : 'not a GuardError'
      }
      return undefined
    }
    expect(codes(() => ratioOfMeansDelta([1, 2], [1], { confidence: 0.95 }))).toBe('stats.ratio_unpaired')
    expect(codes(() => ratioOfMeansDelta([1, -2], [1, 1], { confidence: 0.95 }))).toBe('stats.bad_length')
    expect(codes(() => ratioOfMeansDelta([0, 0], [1, 1], { confidence: 0.95 }))).toBe('stats.ratio_zero_baseline')
  })
})

describe('decideRatioBand', () => {
  const est = (estimate: number, low: number, high: number, n = 100): MeanRatioEstimate => ({
    n,
    baselineMean: 10,
    candidateMean: 10 * estimate,
    estimate,
    low,
    high,
    level: 0.95
  })
  const band = { min: 0.8, max: 1.25 }

  it('passes when the whole interval is inside the band', () => {
    expect(decideRatioBand(est(1.02, 0.95, 1.1), band)).toMatchObject({ verdict: 'pass', nNeeded: null })
    expect(decideRatioBand(est(1.02, 0.95, 1.3), { min: 0.8, max: null }).verdict).toBe('pass')
  })

  it('fails when the whole interval is beyond one bound, naming the direction', () => {
    const longer = decideRatioBand(est(1.6, 1.4, 1.8), band)
    expect(longer.verdict).toBe('fail')
    expect(longer.reason).toMatch(/longer than tolerated/)
    expect(decideRatioBand(est(0.5, 0.4, 0.7), band).reason).toMatch(/shorter than tolerated/)
  })

  it('is inconclusive when the interval straddles a bound, with instances needed from the log-scale half-width', () => {
    const d = decideRatioBand(est(1.1, 0.9, 1.3), band)
    expect(d.verdict).toBe('inconclusive')
    const half = Math.max(Math.log(1.1 / 0.9), Math.log(1.3 / 1.1))
    const distance = Math.min(Math.log(1.1 / 0.8), Math.log(1.25 / 1.1))
    expect(d.nNeeded).toBe(Math.max(101, Math.ceil(100 * (half / distance) ** 2)))
  })

  it('says no instance count helps when the estimate itself is outside the band', () => {
    const d = decideRatioBand(est(1.3, 1.2, 1.4), band)
    expect(d).toMatchObject({ verdict: 'inconclusive', nNeeded: null })
    expect(d.reason).toMatch(/more instances would not make this pass/)
  })
})
