/** Exact binomial arithmetic: log-factorials, McNemar's exact test, and exact binomial draws. */
import { ceil, exp, floor, LN2, log, log1p, max, min, sqrt } from './math.js'

/** ln(k!) for k = 0..n, by summation (exact to rounding; n is at most a few hundred thousand here). */
export function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1)
  for (let k = 2; k <= n; k++) table[k] = table[k - 1] + log(k)
  return table
}

/**
 * McNemar's exact test, two-sided: under "no change" every discordant pair is a fair coin, so the
 * p-value is twice the smaller binomial(wins + losses, 1/2) tail, capped at 1.
 */
export function mcnemarExactPValue(wins: number, losses: number): number {
  const k = wins + losses
  if (k === 0) return 1
  const lf = logFactorials(k)
  const smaller = min(wins, losses)
  const logHalfPowK = -k * LN2
  let tail = 0
  for (let i = 0; i <= smaller; i++) tail += exp(lf[k] - lf[i] - lf[k - i] + logHalfPowK)
  return min(1, 2 * tail)
}

/**
 * Draws from binomial(n, p) by inverting its cumulative distribution: exact up to floating-point
 * rounding, not a normal approximation. Only the window mean +/- (12 sd + 12) is tabulated: the mass
 * outside it is below 1e-25, far under the 2^-53 resolution of the uniform that picks the value.
 */
export class BinomialSampler {
  private readonly offset: number
  private readonly cdf: Float64Array

  constructor(n: number, p: number, lf: Float64Array) {
    if (p <= 0 || p >= 1 || n === 0) {
      this.offset = p >= 1 ? n : 0
      this.cdf = Float64Array.of(1)
      return
    }
    const mean = n * p
    const spread = 12 * sqrt(mean * (1 - p)) + 12
    const low = max(0, floor(mean - spread))
    const high = min(n, ceil(mean + spread))
    const logP = log(p)
    const logQ = log1p(-p)
    const cdf = new Float64Array(high - low + 1)
    let total = 0
    for (let k = low; k <= high; k++) {
      total += exp(lf[n] - lf[k] - lf[n - k] + k * logP + (n - k) * logQ)
      cdf[k - low] = total
    }
    for (let i = 0; i < cdf.length; i++) cdf[i] /= total
    cdf[cdf.length - 1] = 1
    this.offset = low
    this.cdf = cdf
  }

  /** The value whose cumulative interval contains `u`, for u uniform in [0, 1). */
  draw(u: number): number {
    const cdf = this.cdf
    let low = 0
    let high = cdf.length - 1
    while (low < high) {
      const mid = (low + high) >>> 1
      if (cdf[mid] > u) high = mid
      else low = mid + 1
    }
    return this.offset + low
  }
}
