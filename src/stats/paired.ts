/** The paired comparison of one metric: point estimates, flips, McNemar, and the interval. */
import { GuardError, UsageError } from '../errors.js'
import { mcnemarExactPValue } from './binomial.js'
import { clusterBootstrap, countBootstrap } from './bootstrap.js'
import { newcombeInterval, tangoInterval, type PairedTable } from './paired-proportions.js'
import { checkConfidence, checkResamples, percentileInterval } from './quantile.js'
import { createRandom } from './random.js'
import type { IntervalMethodUsed, PairedCluster, PairedEstimate, StatisticsSettings } from './types.js'
import { abs, isFiniteNumber, sqrt } from './math.js'

/**
 * Values beyond this magnitude are refused: the engine sums up to millions of values and squares
 * of differences, and 1e100 keeps every such sum far below the largest double (about 1.8e308),
 * so no mean, standard deviation or bootstrap total can overflow.
 */
export const MAX_PAIRED_MAGNITUDE = 1e100

/**
 * The analytic method `interval: auto` uses for 0/1 metrics with one trial per instance, decided by
 * the coverage study in __tests__/stats/coverage.test.ts (docs/method.md "Validation"). The side that
 * matters for a gate is the rate of `pass` when the candidate is exactly m worse, i.e. how often the
 * true delta falls below the interval. Computed exactly (every 2x2 table, no simulation error):
 * - Tango's score interval: coverage 94.4-95.0%, pass-at-margin 2.2-2.6% at n = 200-1000 with
 *   10 to 220 expected discordant pairs; with only ~8, coverage 94.0-95.6%, pass-at-margin 1.3-1.9%.
 * - Newcombe's method 10: coverage 95-97% but pass-at-margin 3.6-4.3% with ~8 discordant pairs
 *   mostly losses (its misses fall on the lower side; it depends on the concordant split too).
 * - The percentile (count) bootstrap, simulated: pass-at-margin about 7% with ~8 discordant pairs.
 * With many discordant pairs all three agree (about 95% and 2.5%), so Tango is the default.
 */
export const AUTO_BINARY_INTERVAL: 'tango' | 'newcombe' = 'tango'

interface Summary {
  n: number
  pairs: number
  binary: boolean
  singleTrial: boolean
  sumBaseline: number
  sumCandidate: number
  sumDelta: number
  /** Per cluster: sum of d and number of trials. */
  clusterSums: Float64Array
  clusterSizes: Float64Array
  uniformSize: number | null
  allSameDifference: boolean
  wins: number
  losses: number
  /** Binary single-trial 2x2 table (candidate first). */
  table: PairedTable
}

export function estimatePaired(clusters: PairedCluster[], settings: StatisticsSettings): PairedEstimate {
  checkConfidence(settings.confidence)
  if (!(settings.flipTolerance >= 0)) {
    throw new UsageError('stats.bad_flip_tolerance', 'The flip tolerance must be a non-negative number.', {
      field: 'statistics.flip_tolerance',
      value: settings.flipTolerance
    })
  }
  if (clusters.length === 0) {
    throw new GuardError('stats.no_pairs', 'No instance was measured on both sides: there is nothing to compare.', {
      value: 0
    })
  }
  const s = summarise(clusters, settings.flipTolerance)
  const method = chooseMethod(s, settings)
  const [low, high] = interval(s, method, settings)
  const sdDelta = clusterMeanSd(s)
  const figures = { baseline_mean: s.sumBaseline / s.pairs, candidate_mean: s.sumCandidate / s.pairs, delta: s.sumDelta / s.pairs }
  for (const [name, value] of Object.entries({ ...figures, 'ci.low': low, 'ci.high': high, sd_delta: sdDelta })) {
    // Nothing non-finite may reach a verdict: an infinite bound passes or fails anything.
    if (!isFiniteNumber(value)) {
      throw new GuardError(
        'stats.non_finite',
        `The ${name} came out as ${String(value)}: the values overflow or cancel, so no verdict is possible.`,
        {
          field: name,
          value: String(value)
        }
      )
    }
  }
  return {
    n: s.n,
    pairs: s.pairs,
    binary: s.binary,
    baselineMean: s.sumBaseline / s.pairs,
    candidateMean: s.sumCandidate / s.pairs,
    delta: s.sumDelta / s.pairs,
    sdDelta,
    ci: { level: settings.confidence, low, high, method },
    wins: s.wins,
    losses: s.losses,
    unchanged: s.pairs - s.wins - s.losses,
    pValue: s.binary ? mcnemarExactPValue(s.wins, s.losses) : null
  }
}

function summarise(clusters: PairedCluster[], tolerance: number): Summary {
  const n = clusters.length
  const clusterSums = new Float64Array(n)
  const clusterSizes = new Float64Array(n)
  let pairs = 0
  let binary = true
  let sumBaseline = 0
  let sumCandidate = 0
  let sumDelta = 0
  let wins = 0
  let losses = 0
  let both = 0
  let firstDifference = NaN
  let allSameDifference = true
  const firstSize = clusters[0].baseline.length
  let uniform = true
  for (let c = 0; c < n; c++) {
    const { baseline, candidate } = clusters[c]
    if (baseline.length === 0 || baseline.length !== candidate.length) {
      throw new GuardError('stats.bad_cluster', 'Each paired instance needs the same, non-zero number of trials on both sides.', {
        field: `clusters[${c}]`,
        value: { baseline: baseline.length, candidate: candidate.length }
      })
    }
    let clusterSum = 0
    for (let k = 0; k < baseline.length; k++) {
      const b = baseline[k]
      const a = candidate[k]
      if (!isFiniteNumber(a) || !isFiniteNumber(b)) {
        // The pairing step drops non-measurements; one reaching here is a bug upstream, and
        // letting it through would poison every mean and interval.
        throw new GuardError('stats.non_finite', 'A paired value is not a finite number.', {
          field: `clusters[${c}].${isFiniteNumber(b) ? 'candidate' : 'baseline'}[${k}]`,
          value: String(isFiniteNumber(b) ? a : b)
        })
      }
      if (abs(a) > MAX_PAIRED_MAGNITUDE || abs(b) > MAX_PAIRED_MAGNITUDE) {
        throw new GuardError('stats.too_large', `A paired value is beyond ${MAX_PAIRED_MAGNITUDE}: sums of such values overflow.`, {
          field: `clusters[${c}].${abs(b) > MAX_PAIRED_MAGNITUDE ? 'baseline' : 'candidate'}[${k}]`,
          value: String(abs(b) > MAX_PAIRED_MAGNITUDE ? b : a)
        })
      }
      const d = a - b
      if (binary && !((a === 0 || a === 1) && (b === 0 || b === 1))) binary = false
      if (pairs === 0) firstDifference = d
      else if (d !== firstDifference) allSameDifference = false
      if (d > tolerance) wins++
      else if (d < -tolerance) losses++
      if (a === 1 && b === 1) both++
      sumBaseline += b
      sumCandidate += a
      clusterSum += d
      pairs++
    }
    clusterSums[c] = clusterSum
    clusterSizes[c] = baseline.length
    sumDelta += clusterSum
    if (baseline.length !== firstSize) uniform = false
  }
  return {
    n,
    pairs,
    binary,
    singleTrial: uniform && firstSize === 1,
    sumBaseline,
    sumCandidate,
    sumDelta,
    clusterSums,
    clusterSizes,
    uniformSize: uniform ? firstSize : null,
    allSameDifference,
    wins,
    losses,
    table: { both, wins, losses, neither: pairs - both - wins - losses }
  }
}

function chooseMethod(s: Summary, settings: StatisticsSettings): IntervalMethodUsed {
  const analyticApplies = s.binary && s.singleTrial
  switch (settings.interval) {
    case 'auto':
      return analyticApplies ? AUTO_BINARY_INTERVAL : 'bootstrap'
    case 'bootstrap':
      return analyticApplies ? 'bootstrap-counts' : 'bootstrap'
    case 'newcombe':
    case 'tango':
      if (!analyticApplies) {
        throw new UsageError(
          'stats.interval_not_applicable',
          `The ${settings.interval} interval is for 0/1 metrics with one trial per instance; this comparison is ` +
            `${s.binary ? 'clustered (several trials per instance)' : 'not 0/1'}. Use interval: auto or bootstrap.`,
          { field: 'statistics.interval', value: settings.interval }
        )
      }
      return settings.interval
    default:
      throw new UsageError('stats.unknown_interval', 'Unknown interval method.', {
        field: 'statistics.interval',
        value: settings.interval
      })
  }
}

function interval(s: Summary, method: IntervalMethodUsed, settings: StatisticsSettings): [number, number] {
  const { confidence, resamples } = settings
  if (method === 'tango') return tangoInterval(s.table, confidence)
  if (method === 'newcombe') return newcombeInterval(s.table, confidence)
  checkResamples(resamples, confidence)
  // Every resample of identical differences is that difference: report it exactly rather than a
  // resampled sum that may differ from the point estimate in the last bit.
  if (s.allSameDifference) {
    const delta = s.sumDelta / s.pairs
    return [delta, delta]
  }
  const rng = createRandom(settings.seed)
  const samples =
    method === 'bootstrap-counts'
      ? countBootstrap(s.wins, s.losses, s.n, resamples, rng)
      : clusterBootstrap(s.clusterSums, s.uniformSize === null ? s.clusterSizes : null, s.uniformSize ?? 1, resamples, rng)
  return percentileInterval(samples, confidence)
}

/** Sample standard deviation of the per-cluster mean differences (0 with a single cluster). */
function clusterMeanSd(s: Summary): number {
  if (s.n < 2) return 0
  let mean = 0
  for (let c = 0; c < s.n; c++) mean += s.clusterSums[c] / s.clusterSizes[c]
  mean /= s.n
  let squares = 0
  for (let c = 0; c < s.n; c++) {
    const deviation = s.clusterSums[c] / s.clusterSizes[c] - mean
    squares += deviation * deviation
  }
  return sqrt(squares / (s.n - 1))
}
