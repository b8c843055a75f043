import { describe, expect, it } from '@jest/globals'
import { BinomialSampler, logFactorials, mcnemarExactPValue } from '../../src/stats/binomial.js'

/** C(k, i) exactly, with BigInt. */
function choose(k: number, i: number): bigint {
  let result = 1n
  for (let j = 1; j <= i; j++) result = (result * BigInt(k - i + j)) / BigInt(j)
  return result
}

/** Two-sided McNemar exact p-value as an exact rational, then rounded once. */
function mcnemarByHand(wins: number, losses: number): number {
  const k = wins + losses
  let tail = 0n
  for (let i = 0; i <= Math.min(wins, losses); i++) tail += choose(k, i)
  // 2 * tail / 2^k: both are exact integers, rounded once each to doubles (2^k is exact for k < 1024).
  return Math.min(1, Number(2n * tail) / 2 ** k)
}

describe('mcnemarExactPValue', () => {
  it('is twice the smaller binomial(wins + losses, 1/2) tail', () => {
    // 2 wins, 6 losses: 2 * (C(8,0) + C(8,1) + C(8,2)) / 2^8 = 2 * 37 / 256.
    expect(mcnemarExactPValue(2, 6)).toBeCloseTo((2 * 37) / 256, 14)
    expect(mcnemarExactPValue(6, 2)).toBeCloseTo((2 * 37) / 256, 14)
    expect(mcnemarExactPValue(0, 10)).toBeCloseTo(2 / 1024, 15)
  })

  it('agrees with an exact rational computation for larger counts', () => {
    for (const [w, l] of [
      [3, 7],
      [40, 60],
      [120, 160],
      [500, 430],
      [2, 300]
    ]) {
      const expected = mcnemarByHand(w, l)
      expect(Math.abs(mcnemarExactPValue(w, l) - expected)).toBeLessThanOrEqual(1e-11 * expected)
    }
  })

  it('is 1 without discordant pairs or with balanced ones', () => {
    expect(mcnemarExactPValue(0, 0)).toBe(1)
    expect(mcnemarExactPValue(5, 5)).toBe(1)
  })
})

describe('BinomialSampler', () => {
  /** Exact pmf by the multiplicative recurrence, independent of the log-factorial path. */
  function pmf(n: number, p: number): number[] {
    const out = new Array<number>(n + 1).fill(0)
    let mode = Math.floor((n + 1) * p)
    if (mode > n) mode = n
    out[mode] = 1
    for (let k = mode + 1; k <= n; k++) out[k] = (out[k - 1] * (n - k + 1) * p) / (k * (1 - p))
    for (let k = mode - 1; k >= 0; k--) out[k] = (out[k + 1] * (k + 1) * (1 - p)) / ((n - k) * p)
    const total = out.reduce((a, b) => a + b, 0)
    return out.map(x => x / total)
  }

  it('inverts the exact cumulative distribution', () => {
    // Feeding u on a fine regular grid, the share of each value equals its probability to 1/M.
    const M = 200000
    for (const [n, p] of [
      [10, 0.3],
      [200, 0.05],
      [1000, 0.5],
      [5000, 0.002]
    ] as const) {
      const sampler = new BinomialSampler(n, p, logFactorials(n))
      const counts = new Array<number>(n + 1).fill(0)
      for (let i = 0; i < M; i++) counts[sampler.draw((i + 0.5) / M)]++
      const exact = pmf(n, p)
      let worst = 0
      for (let k = 0; k <= n; k++) worst = Math.max(worst, Math.abs(counts[k] / M - exact[k]))
      expect(worst).toBeLessThanOrEqual(1 / M + 1e-12)
    }
  })

  it('handles the degenerate cases', () => {
    const lf = logFactorials(50)
    expect(new BinomialSampler(50, 0, lf).draw(0.99)).toBe(0)
    expect(new BinomialSampler(50, 1, lf).draw(0.01)).toBe(50)
    expect(new BinomialSampler(0, 0.4, lf).draw(0.5)).toBe(0)
  })
})
