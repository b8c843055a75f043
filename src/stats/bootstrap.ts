/**
 * Bootstrap distributions of the mean paired difference. Both return the `resamples` resampled
 * deltas; `percentileInterval` turns them into bounds.
 */
import { BinomialSampler, logFactorials } from './binomial.js'
import type { Random } from './random.js'
import { floor } from './math.js'

const TWO_POW_32 = 0x100000000

/**
 * Cluster bootstrap: draw n clusters with replacement; a resample's delta is the sum of the drawn
 * clusters' differences over their number of pairs (the same pooled mean the point estimate uses).
 * With one trial per cluster this is the ordinary bootstrap of the mean.
 *
 * @param sums  per cluster, the sum of d over its trials
 * @param sizes per cluster, its number of trials; null when every cluster has `uniformSize`
 */
export function clusterBootstrap(
  sums: Float64Array,
  sizes: Float64Array | null,
  uniformSize: number,
  resamples: number,
  rng: Random
): Float64Array {
  const n = sums.length
  if (n <= HALF_RANGE) return halfWordBootstrap(sums, sizes, uniformSize, resamples, rng)
  const out = new Float64Array(resamples)
  const int32 = rng.int32
  // Inlined unbiased draw in [0, n) (see random.ts uniformBelow): this loop runs resamples * n times.
  const bucket = floor(TWO_POW_32 / n)
  const limit = bucket * n
  if (sizes === null) {
    const pairs = n * uniformSize
    for (let r = 0; r < resamples; r++) {
      let total = 0
      for (let i = 0; i < n; i++) {
        let u = int32() >>> 0
        while (u >= limit) u = int32() >>> 0
        total += sums[floor(u / bucket)]
      }
      out[r] = total / pairs
    }
    return out
  }
  for (let r = 0; r < resamples; r++) {
    let total = 0
    let pairs = 0
    for (let i = 0; i < n; i++) {
      let u = int32() >>> 0
      while (u >= limit) u = int32() >>> 0
      const k = floor(u / bucket)
      total += sums[k]
      pairs += sizes[k]
    }
    out[r] = total / pairs
  }
  return out
}

const HALF_RANGE = 0x10000

/**
 * The same bootstrap for up to 65,536 clusters, taking two indices from each 32-bit draw (its
 * high and low 16 bits), which halves the generator calls of the hot loop. Each half is accepted
 * only below the largest multiple of n under 2^16 (rejection per half), so every index stays
 * exactly equally likely and the halves are independent: the same distribution as drawing
 * indices one by one, from a differently ordered stream.
 */
function halfWordBootstrap(
  sums: Float64Array,
  sizes: Float64Array | null,
  uniformSize: number,
  resamples: number,
  rng: Random
): Float64Array {
  const n = sums.length
  const out = new Float64Array(resamples)
  const int32 = rng.int32
  const bucket = floor(HALF_RANGE / n)
  const limit = bucket * n
  // The low half of the last draw, or -1 when it has been used.
  let spare = -1
  for (let r = 0; r < resamples; r++) {
    let total = 0
    let pairs = 0
    for (let i = 0; i < n; i++) {
      let h: number
      for (;;) {
        if (spare >= 0) {
          h = spare
          spare = -1
        } else {
          const u = int32() >>> 0
          h = u >>> 16
          spare = u & 0xffff
        }
        if (h < limit) break
      }
      const k = (h / bucket) | 0
      total += sums[k]
      if (sizes !== null) pairs += sizes[k]
    }
    out[r] = total / (sizes === null ? n * uniformSize : pairs)
  }
  return out
}

/**
 * The same bootstrap for a 0/1 metric with one trial per instance, from counts. Each d is -1, 0 or
 * +1, so resampling n instances is a multinomial(n; wins/n, losses/n, unchanged/n) draw of the three
 * counts, drawn exactly as changed ~ binomial(n, (wins + losses)/n) and then
 * wins* | changed ~ binomial(changed, wins/(wins + losses)). Cost per resample: two table look-ups
 * instead of n draws.
 */
export function countBootstrap(wins: number, losses: number, n: number, resamples: number, rng: Random): Float64Array {
  const out = new Float64Array(resamples)
  const changedTotal = wins + losses
  if (changedTotal === 0) return out
  const lf = logFactorials(n)
  const changedSampler = new BinomialSampler(n, changedTotal / n, lf)
  const winShare = wins / changedTotal
  // One conditional table per value of `changed` actually drawn (a few dozen sd-wide values).
  const winSamplers = new Map<number, BinomialSampler>()
  const double = rng.double
  for (let r = 0; r < resamples; r++) {
    const changed = changedSampler.draw(double())
    let winSampler = winSamplers.get(changed)
    if (winSampler === undefined) {
      winSampler = new BinomialSampler(changed, winShare, lf)
      winSamplers.set(changed, winSampler)
    }
    const w = winSampler.draw(double())
    out[r] = (2 * w - changed) / n
  }
  return out
}
