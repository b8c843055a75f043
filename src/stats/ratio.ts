/**
 * Candidate/baseline ratios of quantiles of per-instance request times, with paired bootstrap
 * intervals. Information only: harness wait times are not serving latency under load.
 *
 * Cost. A resample's quantile needs no sort: each side's values are sorted once, a resample is
 * the number of times each instance was drawn, and the type-7 quantile is found by walking
 * those counts in value order (from the nearer end) to the one or two order statistics it
 * interpolates. The same resamples serve every requested quantile, and indices are taken two
 * per 32-bit draw (see `pairedIndices`). Measured by `bench/compare.mjs`.
 */
import { GuardError, UsageError } from '../errors.js'
import { checkConfidence, checkResamples, percentileInterval, quantileSorted } from './quantile.js'
import { createRandom, type Random } from './random.js'
import type { RatioEstimate, StatisticsSettings } from './types.js'
import { floor, isFiniteNumber } from './math.js'

/** Fills `out` with independent uniform indices in [0, out.length). */
export type IndexSource = (out: Int32Array) => void

/** The generator stream every efficiency interval is drawn from (part of the report format). */
export const RATIO_STREAM = 'ratio-quantiles'

/**
 * `baseline[i]` and `candidate[i]` belong to the same instance; a resample draws instances, so
 * both sides move together. Returns one estimate per entry of `qs`, each computed from the same
 * `settings.resamples` resamples.
 *
 * @param source where the resampled indices come from; by default the seeded stream RATIO_STREAM
 *               (tests pass other streams to compare with a reference implementation)
 */
export function ratiosOfQuantiles(
  baseline: readonly number[],
  candidate: readonly number[],
  qs: readonly number[],
  settings: StatisticsSettings,
  source?: IndexSource
): RatioEstimate[] {
  checkConfidence(settings.confidence)
  checkResamples(settings.resamples, settings.confidence)
  for (const q of qs) {
    if (!(q >= 0 && q <= 1)) {
      throw new UsageError('stats.bad_quantile', 'A quantile must lie in [0, 1].', { value: q })
    }
  }
  const n = baseline.length
  if (n === 0 || candidate.length !== n) {
    throw new GuardError('stats.ratio_unpaired', 'A quantile ratio needs the same, non-zero number of instances on both sides.', {
      value: { baseline: n, candidate: candidate.length }
    })
  }
  for (let i = 0; i < n; i++) {
    if (!isFiniteNumber(baseline[i]) || !isFiniteNumber(candidate[i])) {
      throw new GuardError('stats.non_finite', 'A request time is not a finite number.', {
        field: `[${i}]`,
        value: String(isFiniteNumber(baseline[i]) ? candidate[i] : baseline[i])
      })
    }
  }
  const base = new SortedSide(baseline)
  const cand = new SortedSide(candidate)
  const estimates = qs.map(q => {
    const baseQuantile = quantileSorted(base.sorted, q)
    if (!(baseQuantile > 0)) {
      throw new GuardError('stats.ratio_zero_baseline', 'The baseline quantile is not positive, so a ratio is undefined.', {
        value: baseQuantile
      })
    }
    return quantileSorted(cand.sorted, q) / baseQuantile
  })

  const resamples = settings.resamples
  const ratios = qs.map(() => new Float64Array(resamples))
  const drawn = new Int32Array(n)
  // Each resample's draws, tallied into `drawn` (how often each instance was drawn).
  const tally = source === undefined ? pairedTally(createRandom(settings.seed, RATIO_STREAM), n) : tallyFrom(source, n)
  for (let r = 0; r < resamples; r++) {
    tally(drawn)
    for (let j = 0; j < qs.length; j++) ratios[j][r] = cand.resampledQuantile(drawn, qs[j]) / base.resampledQuantile(drawn, qs[j])
  }
  return qs.map((_, j) => {
    const [low, high] = percentileInterval(ratios[j], settings.confidence)
    return { estimate: estimates[j], low, high }
  })
}

/** One quantile ratio (see `ratiosOfQuantiles`). */
export function ratioOfQuantiles(
  baseline: readonly number[],
  candidate: readonly number[],
  q: number,
  settings: StatisticsSettings,
  source?: IndexSource
): RatioEstimate {
  return ratiosOfQuantiles(baseline, candidate, [q], settings, source)[0]
}

/** One side's values in ascending order, and which instance each sorted value belongs to. */
export class SortedSide {
  readonly sorted: Float64Array
  /** order[j] = the instance whose value is the j-th smallest (ties by instance index). */
  readonly order: Int32Array

  constructor(values: readonly number[]) {
    this.order = Int32Array.from(values.keys()).sort((a, b) => values[a] - values[b] || a - b)
    this.sorted = Float64Array.from(this.order, i => values[i])
  }

  /**
   * Type-7 quantile of the resample in which instance i was drawn `drawn[i]` times (the counts
   * sum to n): the same number as `quantileSorted` on the resample's values sorted, found by
   * walking the counts in value order from the end nearer to the one or two order statistics
   * it interpolates.
   */
  resampledQuantile(drawn: Int32Array, q: number): number {
    const order = this.order
    const sorted = this.sorted
    const n = sorted.length
    const h = (n - 1) * q
    const below = floor(h)
    const fraction = h - below
    let a: number
    let b: number
    if (below < n / 2) {
      // From the bottom: `a` is the resample's order statistic `below`, `b` the next one.
      let seen = 0
      let j = 0
      while (seen + drawn[order[j]] <= below) seen += drawn[order[j++]]
      a = sorted[j]
      if (fraction === 0 || seen + drawn[order[j]] > below + 1) return a
      j++
      while (drawn[order[j]] === 0) j++
      b = sorted[j]
    } else {
      // From the top: the resample's order statistic p is number n - 1 - p counted from the top.
      const fromTop = n - 1 - below
      let seen = 0
      let j = n - 1
      if (fraction === 0) {
        while (seen + drawn[order[j]] <= fromTop) seen += drawn[order[j--]]
        return sorted[j]
      }
      // `b` (order statistic below + 1) is number fromTop - 1 from the top; `a` the next one down.
      while (seen + drawn[order[j]] <= fromTop - 1) seen += drawn[order[j--]]
      b = sorted[j]
      if (seen + drawn[order[j]] > fromTop) return b
      j--
      while (drawn[order[j]] === 0) j--
      a = sorted[j]
    }
    return a === b ? a : a + fraction * (b - a)
  }
}

const HALF_RANGE = 0x10000
const TWO_POW_32 = 0x100000000

/** Fills `drawn` with how often each of its instances is drawn in one resample of n draws. */
type Tally = (drawn: Int32Array) => void

function tallyFrom(source: IndexSource, n: number): Tally {
  const indices = new Int32Array(n)
  return drawn => {
    source(indices)
    drawn.fill(0)
    for (let i = 0; i < n; i++) drawn[indices[i]]++
  }
}

/**
 * `tallyFrom(pairedIndices(rng, n), n)` with the draws counted as they are made: the same
 * indices from the same stream (tested), without writing and re-reading an index array, which
 * was a third of the efficiency intervals' time (bench/compare.mjs).
 */
function pairedTally(rng: Random, n: number): Tally {
  if (n > HALF_RANGE) return tallyFrom(pairedIndices(rng, n), n)
  const int32 = rng.int32
  const bucket = floor(HALF_RANGE / n)
  const limit = bucket * n
  return drawn => {
    drawn.fill(0)
    let i = 0
    while (i < n) {
      const u = int32() >>> 0
      const high = u >>> 16
      if (high < limit) {
        drawn[(high / bucket) | 0]++
        i++
      }
      const low = u & 0xffff
      if (low < limit && i < n) {
        drawn[(low / bucket) | 0]++
        i++
      }
    }
  }
}

/**
 * Uniform indices in [0, n) from a seeded generator, two per 32-bit draw (its high and low 16
 * bits) when n <= 2^16, which halves the generator calls. Each half is accepted only below the
 * largest multiple of n under 2^16 (rejection per half), so every index is exactly equally likely
 * and the halves are independent: the same distribution as `rng.below(n)` index by index, from a
 * differently consumed stream. A low half left over when `out` is full is dropped: whether it is
 * used depends only on the position, never on its value, so independence holds. Above 2^16, one
 * unbiased 32-bit draw per index.
 */
export function pairedIndices(rng: Random, n: number): IndexSource {
  const int32 = rng.int32
  if (n > HALF_RANGE) {
    const bucket = floor(TWO_POW_32 / n)
    const limit = bucket * n
    return out => {
      for (let i = 0; i < out.length; i++) {
        let u = int32() >>> 0
        while (u >= limit) u = int32() >>> 0
        out[i] = floor(u / bucket)
      }
    }
  }
  const bucket = floor(HALF_RANGE / n)
  const limit = bucket * n
  return out => {
    const length = out.length
    let i = 0
    while (i < length) {
      const u = int32() >>> 0
      const high = u >>> 16
      if (high < limit) out[i++] = (high / bucket) | 0
      const low = u & 0xffff
      if (low < limit && i < length) out[i++] = (low / bucket) | 0
    }
  }
}
