/**
 * Request-time ratios (docs/method.md "Efficiency"): information only, never gated. HELM's
 * inference_runtime is how long the harness waited for each request, not time-to-first-token.
 */
import type { StatisticsSettings } from '../config/types.js'
import { GuardError } from '../errors.js'
import type { MetricValue } from '../model/harness.js'
import type { EfficiencyEntry } from '../model/report.js'
import { quantile } from '../stats/index.js'
import { ratiosOfQuantilesOffThread } from '../stats/off-thread.js'
import { pairValues } from './pairing.js'

const RUNTIME_METRIC = 'inference_runtime'

/**
 * The request-time ratios of one run. Asynchronous because the bootstrap runs on a worker thread
 * where the bundle has one (stats/off-thread.ts): start it as soon as both sides' per-instance
 * stats are read (the request times are among them) and await it after the gated comparisons, and
 * it overlaps the reading of the request states and the gated bootstrap.
 */
export async function efficiencyFor(
  run: string,
  baselineRuntimes: MetricValue[],
  candidateRuntimes: MetricValue[],
  statistics: StatisticsSettings
): Promise<EfficiencyEntry | null> {
  const paired = pairValues(baselineRuntimes, candidateRuntimes)
  const baseline: number[] = []
  const candidate: number[] = []
  for (const cluster of paired.clusters) {
    baseline.push(...cluster.baseline)
    candidate.push(...cluster.candidate)
  }
  // A quantile of zeros (0.2.x wrote request_time 0) has no meaningful ratio.
  if (baseline.length < 2 || baseline.every(v => v <= 0)) return null
  // Both intervals from the same resamples: half the draws of two separate bootstraps.
  const [median, p90] = await ratiosOfQuantilesOffThread(baseline, candidate, [0.5, 0.9], statistics)
  const figures = {
    baseline_median: quantile(baseline, 0.5),
    candidate_median: quantile(candidate, 0.5),
    'median_ratio.estimate': median.estimate,
    'median_ratio.low': median.low,
    'median_ratio.high': median.high,
    'p90_ratio.estimate': p90.estimate,
    'p90_ratio.low': p90.low,
    'p90_ratio.high': p90.high
  }
  // Huge or tiny request times overflow a ratio to Infinity (or 0/0 to NaN); such a figure says
  // nothing and must not reach the report.
  for (const [name, value] of Object.entries(figures)) {
    if (!Number.isFinite(value)) {
      throw new GuardError(
        'stats.non_finite',
        `run ${run}, ${RUNTIME_METRIC}: the ${name} came out as ${String(value)} (the request times overflow)`,
        {
          field: `${RUNTIME_METRIC}.${name}`,
          value: String(value)
        }
      )
    }
  }
  return {
    run,
    metric: RUNTIME_METRIC,
    n: baseline.length,
    baseline_median: quantile(baseline, 0.5),
    candidate_median: quantile(candidate, 0.5),
    median_ratio: median,
    p90_ratio: p90
  }
}
