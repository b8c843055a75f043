import { describe, expect, it } from '@jest/globals'
import { argmax, instanceFidelity, positionFidelity, type PositionDistribution } from '../../src/fidelity/token-metrics.js'

const ln = Math.log

function dist(token: string, probs: Record<string, number>): PositionDistribution {
  const top = Object.entries(probs)
    .map(([t, p]) => ({ token: t, logprob: ln(p) }))
    .sort((a, b) => b.logprob - a.logprob)
  return { token, logprob: ln(probs[token] ?? 0.001), top }
}

describe('positionFidelity', () => {
  it('is zero divergence, full agreement and no delta-p for identical distributions', () => {
    const b = dist('a', { a: 0.6, b: 0.3, c: 0.05 })
    const p = positionFidelity(b, b)
    expect(p.top1).toBe(1)
    expect(p.kl).toBeCloseTo(0, 12)
    expect(p.deltaP).toBe(0)
    expect(p.restMass).toBeCloseTo(0.05, 12)
  })

  it('computes the bucketed KL over the shared tokens plus one rest bucket, by hand', () => {
    // B: a .6 b .3 (rest .1); C: a .5 b .2 c .25 (c only on C's list goes to the bucket).
    const b = dist('a', { a: 0.6, b: 0.3 })
    const c = dist('a', { a: 0.5, b: 0.2, c: 0.25 })
    const p = positionFidelity(b, c)
    // shared {a, b}: B rest .1, C rest .3
    const expected = 0.6 * ln(0.6 / 0.5) + 0.3 * ln(0.3 / 0.2) + 0.1 * ln(0.1 / 0.3)
    expect(p.kl).toBeCloseTo(expected, 12)
    expect(p.deltaP).toBeCloseTo(0.5 - 0.6, 12)
    expect(p.top1).toBe(1)
  })

  it('is a lower bound of the full KL (data-processing inequality)', () => {
    const fullB = { a: 0.5, b: 0.2, c: 0.15, d: 0.1, e: 0.05 }
    const fullC = { a: 0.3, b: 0.3, c: 0.05, d: 0.25, e: 0.1 }
    const full = Object.keys(fullB).reduce((s, k) => s + fullB[k as 'a'] * ln(fullB[k as 'a'] / fullC[k as 'a']), 0)
    const topB = dist('a', { a: 0.5, b: 0.2, c: 0.15 })
    const topC = dist('a', { a: 0.3, b: 0.3, d: 0.25 })
    const p = positionFidelity(topB, topC)
    expect(p.kl).toBeGreaterThan(0)
    expect(p.kl).toBeLessThan(full)
  })

  it('counts a different most likely token as disagreement', () => {
    const p = positionFidelity(dist('a', { a: 0.6, b: 0.3 }), dist('a', { a: 0.3, b: 0.6 }))
    expect(p.top1).toBe(0)
  })

  it('refuses to compare positions scored on different tokens', () => {
    expect(() => positionFidelity(dist('a', { a: 1 }), dist('b', { b: 1 }))).toThrow(/not the baseline's a/)
  })

  it('keeps the KL finite when the candidate reports all its mass in the shared tokens', () => {
    const p = positionFidelity(dist('a', { a: 0.5, b: 0.3 }), dist('a', { a: 0.6, b: 0.4 }))
    expect(Number.isFinite(p.kl)).toBe(true)
    expect(p.kl).toBeGreaterThan(1)
  })
})

describe('instanceFidelity', () => {
  it('averages over positions, takes the max KL and finds the first divergence', () => {
    const b = [dist('x', { x: 0.9, y: 0.1 }), dist('y', { y: 0.8, x: 0.2 }), dist('x', { x: 0.7, y: 0.3 })]
    const c = [dist('x', { x: 0.9, y: 0.1 }), dist('y', { x: 0.6, y: 0.4 }), dist('x', { x: 0.7, y: 0.3 })]
    const f = instanceFidelity(b, c)
    const kl1 = 0.8 * ln(0.8 / 0.4) + 0.2 * ln(0.2 / 0.6)
    expect(f.positions).toBe(3)
    expect(f.top1Agreement).toBeCloseTo(2 / 3, 12)
    expect(f.klMean).toBeCloseTo(kl1 / 3, 12)
    expect(f.klMax).toBeCloseTo(kl1, 12)
    expect(f.deltaPMean).toBeCloseTo((0.4 - 0.8) / 3, 12)
    expect(f.firstDivergence).toBe(1)
  })

  it('reports no divergence when the candidate follows the baseline everywhere', () => {
    const b = [dist('x', { x: 0.9, y: 0.1 })]
    expect(instanceFidelity(b, b).firstDivergence).toBeNull()
  })

  it('refuses an empty answer and mismatched lengths', () => {
    expect(() => instanceFidelity([], [])).toThrow(/no positions/)
    expect(() => instanceFidelity([dist('x', { x: 1 })], [])).toThrow(/0 positions/)
  })

  it('argmax takes the first of equals and null for no entries', () => {
    expect(
      argmax([
        { token: 'p', logprob: -1 },
        { token: 'q', logprob: -1 }
      ])
    ).toBe('p')
    expect(argmax([])).toBeNull()
  })
})
