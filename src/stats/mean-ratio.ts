/**
 * The candidate/baseline ratio of mean answer lengths (docs/method.md "Answer length"), with a
 * paired percentile bootstrap: a resample draws instances, and both sides' lengths of a drawn
 * instance move together, so the interval keeps the pairing (a longer answer on a harder question
 * is long on both sides). The ratio of means, not the mean of per-instance ratios: an empty
 * baseline answer has no ratio, and one very short baseline answer would dominate a mean of ratios.
 *
 * Checks take a band (`min` and/or `max`) around 1 and follow the same three-way rule as every
 * other check: pass when the whole interval is inside the band, fail when it is all outside one
 * bound, inconclusive otherwise, with the instances that would resolve it.
 */
import { GuardError } from '../errors.js'
import { clusterBootstrap } from './bootstrap.js'
import { ceil, exp, isFiniteNumber, log, max, min, sqrt } from './math.js'
import { twoSidedZ } from './normal.js'
import { instancesToResolve } from './power.js'
import { checkConfidence, checkResamples, percentileInterval } from './quantile.js'
import { createRandom } from './random.js'
import type { ComparisonVerdict, StatisticsSettings } from './types.js'

/** The generator stream the answer-length intervals are drawn from (part of the report format). */
export const MEAN_RATIO_STREAM = 'answer-length-ratio'

export interface MeanRatioEstimate {
  n: number
  baselineMean: number
  candidateMean: number
  /** mean(candidate) / mean(baseline). */
  estimate: number
  low: number
  high: number
  level: number
}

export interface RatioBand {
  min: number | null
  max: number | null
}

export interface RatioDecision {
  verdict: ComparisonVerdict
  nNeeded: number | null
  reason: string
}

/**
 * `baseline[i]` and `candidate[i]` are the lengths of one instance's two answers (>= 0, finite).
 * Throws a named GuardError for unpaired or impossible input, and when the baseline's answers are
 * all empty (no ratio exists).
 */
export function ratioOfMeans(
  baseline: readonly number[],
  candidate: readonly number[],
  settings: Pick<StatisticsSettings, 'confidence' | 'resamples' | 'seed'>
): MeanRatioEstimate {
  checkConfidence(settings.confidence)
  checkResamples(settings.resamples, settings.confidence)
  const { b, c, sumB, sumC } = checkedLengths(baseline, candidate)
  const n = b.length
  // A resample's ratio is sum(candidate) / sum(baseline) over the drawn instances: exactly the
  // cluster bootstrap's pooled mean with the candidate's lengths as the sums and the baseline's as
  // the sizes, so it draws through the same owner (two indices per 32-bit draw up to 65,536
  // instances), which halves the generator calls of the answer-length row.
  const ratios = clusterBootstrap(c, b, 0, settings.resamples, createRandom(settings.seed, MEAN_RATIO_STREAM))
  // A resample of only empty baseline answers: the ratio is unbounded (or 1 when both are empty).
  for (let r = 0; r < ratios.length; r++) if (Number.isNaN(ratios[r])) ratios[r] = 1
  const [low, high] = percentileInterval(ratios, settings.confidence)
  return { n, baselineMean: sumB / n, candidateMean: sumC / n, estimate: sumC / sumB, low, high, level: settings.confidence }
}

/**
 * The same ratio with a delta-method interval on the log scale, in one pass and without a
 * generator: for a row that is shown and never decides (docs/method.md "Answer length"), so that
 * it costs the gated path nothing. log(mean c / mean b) has the standard error
 * sd(c_i / mean c - b_i / mean b) / sqrt(n), the pairing kept in the per-instance difference;
 * the interval is exp(log R ± z se). Its coverage beside the bootstrap's: __tests__/stats/coverage.test.ts.
 * Fewer than two instances, or an all-empty candidate with a non-empty baseline, leave nothing to
 * spread: the interval is [0, ∞) then (inconclusive against any band), never a point.
 */
export function ratioOfMeansDelta(
  baseline: readonly number[],
  candidate: readonly number[],
  settings: Pick<StatisticsSettings, 'confidence'>
): MeanRatioEstimate {
  checkConfidence(settings.confidence)
  const { b, c, sumB, sumC } = checkedLengths(baseline, candidate)
  const n = b.length
  const meanB = sumB / n
  const meanC = sumC / n
  const estimate = sumC / sumB
  const unknown = { n, baselineMean: meanB, candidateMean: meanC, estimate, low: 0, high: Infinity, level: settings.confidence }
  if (n < 2 || !(sumC > 0)) return unknown
  let sumSq = 0
  for (let i = 0; i < n; i++) {
    // The mean of these terms is 0 exactly, so the sum of squares is n - 1 times their variance.
    const term = c[i] / meanC - b[i] / meanB
    sumSq += term * term
  }
  const se = sqrt(sumSq / (n - 1) / n)
  const z = twoSidedZ(settings.confidence)
  return { ...unknown, low: estimate * exp(-z * se), high: estimate * exp(z * se) }
}

/** Both sides' lengths as arrays with their sums; a named GuardError for what has no ratio. */
function checkedLengths(
  baseline: readonly number[],
  candidate: readonly number[]
): { b: Float64Array; c: Float64Array; sumB: number; sumC: number } {
  const n = baseline.length
  if (n === 0 || candidate.length !== n) {
    throw new GuardError(
      'stats.ratio_unpaired',
      'A ratio of mean answer lengths needs the same, non-zero number of instances on both sides.',
      {
        value: { baseline: n, candidate: candidate.length }
      }
    )
  }
  const b = Float64Array.from(baseline)
  const c = Float64Array.from(candidate)
  let sumB = 0
  let sumC = 0
  for (let i = 0; i < n; i++) {
    for (const [side, v] of [
      ['baseline', b[i]],
      ['candidate', c[i]]
    ] as const) {
      if (!isFiniteNumber(v) || v < 0) {
        throw new GuardError('stats.bad_length', `An answer length must be a finite number >= 0; the ${side}'s is ${String(v)}.`, {
          field: `[${i}]`,
          value: String(v)
        })
      }
    }
    sumB += b[i]
    sumC += c[i]
  }
  if (!(sumB > 0)) {
    throw new GuardError(
      'stats.ratio_zero_baseline',
      'Every baseline answer is empty, so the candidate/baseline length ratio is undefined.',
      {
        value: sumB
      }
    )
  }
  return { b, c, sumB, sumC }
}

/**
 * Pass when the interval lies strictly inside the band, fail when it lies wholly beyond one bound,
 * inconclusive otherwise. n_needed uses the log scale (a ratio's interval is about symmetric there):
 * the interval's half-width against the distance from the estimate to the nearer bound, as
 * instancesToResolve does for differences; none when the estimate itself is outside the band.
 */
export function decideRatioBand(est: MeanRatioEstimate, band: RatioBand, metric = 'answer_length_ratio'): RatioDecision {
  const lowOk = band.min === null || est.low > band.min
  const highOk = band.max === null || est.high < band.max
  const shown = `${fmt(est.estimate)}× [${fmt(est.low)}, ${fmt(est.high)}]`
  const bandText = [band.min === null ? null : `≥ ${band.min}`, band.max === null ? null : `≤ ${band.max}`].filter(Boolean).join(' and ')
  if (lowOk && highOk) return { verdict: 'pass', nNeeded: null, reason: `${metric} ${shown}: the whole interval is within ${bandText}.` }
  if ((band.min !== null && est.high < band.min) || (band.max !== null && est.low > band.max)) {
    return {
      verdict: 'fail',
      nNeeded: null,
      reason: `${metric} ${shown}: the whole interval is outside ${bandText}; the candidate's answers are ${est.estimate < 1 ? 'shorter' : 'longer'} than tolerated.`
    }
  }
  const distances: number[] = []
  if (band.min !== null) distances.push(log(est.estimate / band.min))
  if (band.max !== null) distances.push(log(band.max / est.estimate))
  const distance = min(...distances)
  if (!(distance > 0) || !(est.low > 0) || !isFiniteNumber(est.high)) {
    return {
      verdict: 'inconclusive',
      nNeeded: null,
      reason: `${metric} ${shown}: the estimate itself is outside ${bandText}; more instances would not make this pass.`
    }
  }
  const halfWidth = max(log(est.estimate / est.low), log(est.high / est.estimate))
  const nNeeded = instancesToResolve(est.n, halfWidth, distance)
  return {
    verdict: 'inconclusive',
    nNeeded: ceil(nNeeded),
    reason: `${metric} ${shown} straddles ${bandText}: about ${nNeeded} instances (now ${est.n}) would resolve it; use more instances, not a looser band.`
  }
}

function fmt(x: number): string {
  return Number(x.toPrecision(4)).toString()
}
