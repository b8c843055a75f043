import { describe, expect, it } from '@jest/globals'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import type { InstanceFidelity } from '../../src/fidelity/token-metrics.js'
import {
  decideFidelityCheck,
  fidelityFigure,
  fidelityFigures,
  worstInstances,
  type InstanceScores
} from '../../src/fidelity/fidelity-stats.js'

const settings = { ...DEFAULT_STATISTICS, resamples: 2000 }

function inst(top1: number, kl: number, dp = 0): InstanceFidelity {
  return { positions: 10, top1Agreement: top1, klMean: kl, klMax: kl * 2, deltaPMean: dp, restMassMean: 0, firstDivergence: null }
}
const PERFECT = inst(1, 0)

function rows(cands: InstanceFidelity[], floors: (InstanceFidelity | null)[] | null = null): InstanceScores[] {
  return cands.map((c, i) => ({
    id: `i${i}`,
    candidate: c,
    floor: floors ? floors[i] : null,
    baselineTokens: 10,
    candidateTokens: 10 + (i % 2),
    rerunTokens: null
  }))
}

describe('fidelity figures', () => {
  it('gives the plain means and a perfect floor when no rerun was made', () => {
    const r = rows([inst(0.9, 0.01), inst(1, 0.03), inst(0.8, 0.02)])
    const top1 = fidelityFigure('top1_agreement', r, settings)!
    expect(top1.candidate).toBeCloseTo(0.9, 12)
    expect(top1.floor).toBe(1)
    expect(top1.corrected).toBeCloseTo(0.9, 12)
    const kl = fidelityFigure('kld_mean', r, settings)!
    expect(kl.corrected).toBeCloseTo(0.02, 12)
    expect(kl.ci.low).toBeLessThanOrEqual(0.02)
    expect(kl.ci.high).toBeGreaterThanOrEqual(0.02)
    expect(kl.ci.low).toBeGreaterThanOrEqual(0.01 - 1e-12)
    expect(kl.ci.high).toBeLessThanOrEqual(0.03 + 1e-12)
  })

  it('charges the candidate only its excess over the A/A floor', () => {
    const r = rows([inst(0.9, 0.05), inst(0.9, 0.05)], [inst(0.95, 0.01), inst(0.95, 0.01)])
    const top1 = fidelityFigure('top1_agreement', r, settings)!
    expect(top1.floor).toBeCloseTo(0.95, 12)
    expect(top1.corrected).toBeCloseTo(0.95, 12)
    expect(fidelityFigure('kld_mean', r, settings)!.corrected).toBeCloseTo(0.04, 12)
  })

  it('shows an interval no wider than the values can reach, and decides on the interval as computed', () => {
    // Every instance agrees on every position, floor perfect: Tango's interval of the difference is
    // symmetric around 0 and would put the upper bound of the agreement above 1.
    const r = rows(Array.from({ length: 30 }, () => PERFECT))
    const top1 = fidelityFigure('top1_agreement', r, settings)!
    expect(top1.corrected).toBe(1)
    expect(top1.ci.high).toBe(1)
    expect(top1.ci.low).toBeLessThan(1)
    // A candidate closer to the baseline than the floor's noise: KL's corrected value may be
    // negative, but no lower than 0 - floor mean.
    const noisy = rows(
      Array.from({ length: 30 }, (_, i) => inst(1, i % 3 === 0 ? 0.001 : 0)),
      Array.from({ length: 30 }, (_, i) => inst(1, i % 2 === 0 ? 0.01 : 0.002))
    )
    const kl = fidelityFigure('kld_mean', noisy, settings)!
    expect(kl.ci.low).toBeGreaterThanOrEqual(-kl.floor - 1e-15)
    expect(kl.ci.low).toBeLessThanOrEqual(kl.corrected)
    const check = decideFidelityCheck({ metric: 'top1_agreement', bound: 'min', value: 0.8 }, r, settings)
    expect(check.figure.ci.high).toBe(1)
    expect(check.verdict).toBe('pass')
  })

  it('gives the length ratio from the answers tokens, and every metric in order', () => {
    const r = rows([inst(1, 0), inst(1, 0)])
    expect(fidelityFigure('answer_length_ratio', r, settings)!.corrected).toBeCloseTo((1 + 1.1) / 2, 12)
    expect(fidelityFigures(r, settings).map(f => f.metric)).toEqual([
      'top1_agreement',
      'kld_mean',
      'kld_max',
      'delta_p_mean',
      'answer_length_ratio'
    ])
    const noOwn = r.map(x => ({ ...x, candidateTokens: null }))
    expect(fidelityFigure('answer_length_ratio', noOwn, settings)).toBeNull()
  })
})

describe('fidelity checks', () => {
  const many = (n: number, f: (i: number) => InstanceFidelity) => rows(Array.from({ length: n }, (_, i) => f(i)))

  it('passes a candidate whose whole interval clears the threshold', () => {
    const r = many(200, i => inst(0.99 + (i % 2) * 0.01, 0.001 * (i % 3)))
    expect(decideFidelityCheck({ metric: 'top1_agreement', bound: 'min', value: 0.98 }, r, settings).verdict).toBe('pass')
    expect(decideFidelityCheck({ metric: 'kld_mean', bound: 'max', value: 0.02 }, r, settings).verdict).toBe('pass')
  })

  it('fails a candidate whose whole interval is beyond it', () => {
    const r = many(200, i => inst(0.8 + (i % 2) * 0.02, 0.05 + 0.01 * (i % 3)))
    const top1 = decideFidelityCheck({ metric: 'top1_agreement', bound: 'min', value: 0.98 }, r, settings)
    expect(top1.verdict).toBe('fail')
    expect(decideFidelityCheck({ metric: 'kld_mean', bound: 'max', value: 0.02 }, r, settings).verdict).toBe('fail')
    expect(top1.reason).toMatch(/^top1_agreement 0\.81 \[/)
  })

  it('is inconclusive with the instances needed when the interval straddles the threshold', () => {
    const r = many(10, i => inst(1, i % 2 === 0 ? 0 : 0.03))
    const row = decideFidelityCheck({ metric: 'kld_mean', bound: 'max', value: 0.02 }, r, settings)
    expect(row.verdict).toBe('inconclusive')
    expect(row.nNeeded).toBeGreaterThan(10)
    expect(row.reason).toMatch(/would resolve it/)
  })

  it('is a named error when a check needs a figure that was not measured', () => {
    const r = rows([inst(1, 0)]).map(x => ({ ...x, candidateTokens: null }))
    expect(() => decideFidelityCheck({ metric: 'answer_length_ratio', bound: 'max', value: 1.2 }, r, settings)).toThrow(
      expect.objectContaining({ code: 'fidelity.not_measured' })
    )
  })

  it('passes a deterministic identical candidate', () => {
    const r = many(50, () => PERFECT)
    expect(decideFidelityCheck({ metric: 'kld_mean', bound: 'max', value: 0.02 }, r, settings).verdict).toBe('pass')
    // Per-instance agreements that are all exactly 1 are 0/1 values: Tango's interval, which 50
    // instances cannot narrow to 0.001.
    const top1 = decideFidelityCheck({ metric: 'top1_agreement', bound: 'min', value: 0.999 }, r, settings)
    expect(top1.verdict).toBe('inconclusive')
    expect(top1.nNeeded).toBeGreaterThan(50)
    expect(decideFidelityCheck({ metric: 'top1_agreement', bound: 'min', value: 0.9 }, r, settings).verdict).toBe('pass')
  })
})

describe('worstInstances', () => {
  it('lists the largest mean KL first', () => {
    const r = rows([inst(1, 0.01), inst(1, 0.5), inst(1, 0.1)])
    expect(worstInstances(r, 2).map(w => w.id)).toEqual(['i1', 'i2'])
  })
})
