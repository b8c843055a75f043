import { describe, expect, it } from '@jest/globals'
import { UsageError } from '../../src/errors.js'
import type { PairedEstimate } from '../../src/stats/types.js'
import { decideVerdict, resolveMaxDrop } from '../../src/stats/decide-verdict.js'

function estimate(delta: number, low: number, high: number, n = 400): PairedEstimate {
  return {
    n,
    pairs: n,
    binary: true,
    baselineMean: 0.7,
    candidateMean: 0.7 + delta,
    delta,
    sdDelta: 0.2,
    ci: { level: 0.95, low, high, method: 'tango' },
    wins: 10,
    losses: 12,
    unchanged: n - 22,
    pValue: 0.8
  }
}

describe('decideVerdict, higher is better', () => {
  const m = 0.02

  it('pass when the whole interval lies above -m', () => {
    const v = decideVerdict(estimate(0.001, -0.015, 0.017), m, 'higher')
    expect(v.verdict).toBe('pass')
    expect(v.nNeeded).toBeNull()
    expect(v.reason).toMatch(/not meaningfully worse/)
  })

  it('fail when the whole interval lies below -m', () => {
    const v = decideVerdict(estimate(-0.06, -0.09, -0.03), m, 'higher')
    expect(v.verdict).toBe('fail')
    expect(v.nNeeded).toBeNull()
  })

  it('inconclusive when the interval straddles -m, with n_needed from the formula', () => {
    const est = estimate(-0.005, -0.03, 0.02, 400)
    const v = decideVerdict(est, m, 'higher')
    expect(v.verdict).toBe('inconclusive')
    // n * (half_width / (delta + m))^2 = 400 * (0.025 / 0.015)^2 = 1111.1 -> 1112.
    expect(v.nNeeded).toBe(Math.ceil(400 * (0.025 / 0.015) ** 2))
    expect(v.reason).toMatch(/more instances, not a looser threshold/)
    expect(v.reason).toContain(String(v.nNeeded))
  })

  it('boundaries: lo exactly -m is not a pass; hi exactly -m is not a fail', () => {
    expect(decideVerdict(estimate(0, -0.02, 0.02), m, 'higher').verdict).toBe('inconclusive')
    expect(decideVerdict(estimate(-0.04, -0.06, -0.02), m, 'higher').verdict).toBe('inconclusive')
  })

  it('no sample size helps when delta <= -m', () => {
    const atMargin = decideVerdict(estimate(-0.02, -0.05, 0.01), m, 'higher')
    expect(atMargin.verdict).toBe('inconclusive')
    expect(atMargin.nNeeded).toBeNull()
    expect(atMargin.reason).toMatch(/would not make this pass/)
    expect(decideVerdict(estimate(-0.03, -0.06, 0.001), m, 'higher').nNeeded).toBeNull()
  })
})

describe('decideVerdict, lower is better (mirrored: worse = delta > 0)', () => {
  const m = 0.01

  it('pass when the whole interval lies below +m', () => {
    expect(decideVerdict(estimate(0.002, -0.004, 0.008), m, 'lower').verdict).toBe('pass')
  })

  it('fail when the whole interval lies above +m', () => {
    expect(decideVerdict(estimate(0.03, 0.015, 0.045), m, 'lower').verdict).toBe('fail')
  })

  it('a drop in an error rate is an improvement', () => {
    expect(decideVerdict(estimate(-0.05, -0.08, -0.02), m, 'lower').verdict).toBe('pass')
    // ...and the same numbers fail a higher-is-better metric.
    expect(decideVerdict(estimate(-0.05, -0.08, -0.02), m, 'higher').verdict).toBe('fail')
  })

  it('inconclusive: n_needed mirrors the formula with m - delta', () => {
    const v = decideVerdict(estimate(0.004, -0.006, 0.014, 250), m, 'lower')
    expect(v.verdict).toBe('inconclusive')
    // 250 * (0.01 / (0.01 - 0.004))^2 = 694.4 -> 695
    expect(v.nNeeded).toBe(Math.ceil(250 * (0.01 / 0.006) ** 2))
    expect(decideVerdict(estimate(0.012, -0.002, 0.026), m, 'lower').nNeeded).toBeNull()
  })
})

describe('decideVerdict input checks', () => {
  it('refuses a negative or non-finite margin', () => {
    expect(() => decideVerdict(estimate(0, -0.01, 0.01), -0.01, 'higher')).toThrow(UsageError)
    expect(() => decideVerdict(estimate(0, -0.01, 0.01), Number.NaN, 'higher')).toThrow(UsageError)
  })

  it('m = 0 asks for superiority', () => {
    expect(decideVerdict(estimate(0.02, 0.001, 0.04), 0, 'higher').verdict).toBe('pass')
    expect(decideVerdict(estimate(0.02, -0.001, 0.04), 0, 'higher').verdict).toBe('inconclusive')
  })
})

describe('resolveMaxDrop', () => {
  it('returns the absolute drop as given', () => {
    expect(resolveMaxDrop(0.02, null, 0.8)).toBe(0.02)
  })

  it('scales a relative drop by the baseline mean', () => {
    expect(resolveMaxDrop(null, 0.05, 0.8)).toBeCloseTo(0.04, 15)
    expect(resolveMaxDrop(null, 0.1, 0.25)).toBeCloseTo(0.025, 15)
  })

  it('needs exactly one of the two, non-negative', () => {
    expect(() => resolveMaxDrop(null, null, 0.5)).toThrow(UsageError)
    expect(() => resolveMaxDrop(0.01, 0.05, 0.5)).toThrow(UsageError)
    expect(() => resolveMaxDrop(-0.01, null, 0.5)).toThrow(UsageError)
  })
})
