/**
 * Candidate/baseline ratio of a quantile of per-instance request times, with a paired bootstrap
 * interval. Information only: harness wait times are not serving latency under load.
 */
import { GuardError, UsageError } from '../errors.js'
import { checkConfidence, checkResamples, percentileInterval, quantileSorted } from './quantile.js'
import { createRandom } from './random.js'
import type { RatioEstimate, StatisticsSettings } from './types.js'
import { floor, isFiniteNumber } from './math.js'

/**
 * `baseline[i]` and `candidate[i]` belong to the same instance; a resample draws instances, so both
 * sides move together. A resample's quantile is read from the multiplicities of the drawn instances
 * over the values sorted once, instead of sorting every resample (O(n) per resample, not n log n).
 */
export function ratioOfQuantiles(
  baseline: readonly number[],
  candidate: readonly number[],
  q: number,
  settings: StatisticsSettings
): RatioEstimate {
  checkConfidence(settings.confidence)
  checkResamples(settings.resamples, settings.confidence)
  if (!(q >= 0 && q <= 1)) {
    throw new UsageError('stats.bad_quantile', 'A quantile must lie in [0, 1].', { value: q })
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
  const baseQuantile = quantileSorted(base.sorted, q)
  if (!(baseQuantile > 0)) {
    throw new GuardError('stats.ratio_zero_baseline', 'The baseline quantile is not positive, so a ratio is undefined.', {
      value: baseQuantile
    })
  }
  const estimate = quantileSorted(cand.sorted, q) / baseQuantile

  const rng = createRandom(settings.seed, `ratio-${q}`)
  const ratios = new Float64Array(settings.resamples)
  const drawn = new Int32Array(n)
  for (let r = 0; r < settings.resamples; r++) {
    drawn.fill(0)
    for (let i = 0; i < n; i++) drawn[rng.below(n)]++
    ratios[r] = cand.resampledQuantile(drawn, q) / base.resampledQuantile(drawn, q)
  }
  const [low, high] = percentileInterval(ratios, settings.confidence)
  return { estimate, low, high }
}

export class SortedSide {
  readonly sorted: Float64Array
  /** order[j] = the instance whose value is the j-th smallest. */
  private readonly order: Int32Array

  constructor(values: readonly number[]) {
    const order = Int32Array.from(values.keys()).sort((a, b) => values[a] - values[b] || a - b)
    this.order = order
    this.sorted = Float64Array.from(order, i => values[i])
  }

  /** Type-7 quantile of the resample where instance i was drawn `drawn[i]` times. */
  resampledQuantile(drawn: Int32Array, q: number): number {
    const n = this.sorted.length
    const h = (n - 1) * q
    const below = floor(h)
    const fraction = h - below
    let seen = 0
    let j = 0
    while (seen + drawn[this.order[j]] <= below) seen += drawn[this.order[j++]]
    const a = this.sorted[j]
    if (fraction === 0) return a
    // The next order statistic is the same value unless the run of copies ends here.
    if (seen + drawn[this.order[j]] > below + 1) return a
    j++
    while (drawn[this.order[j]] === 0) j++
    return a + fraction * (this.sorted[j] - a)
  }
}
