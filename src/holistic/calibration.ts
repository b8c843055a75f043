/**
 * Paired calibration: each side's expected calibration error (HELM's `ece_10_bin`) and top-label
 * Brier score on the same instances, the candidate-minus-baseline difference with a cluster
 * bootstrap interval, and the verdict (docs/method.md "Paired calibration and the direction of a
 * change").
 */
import { GateError, UsageError } from '../errors.js'
import { clusterBootstrap } from '../stats/bootstrap.js'
import { instancesToResolve } from '../stats/power.js'
import { checkConfidence, checkResamples, percentileInterval } from '../stats/quantile.js'
import { createRandom } from '../stats/random.js'
import type { ComparisonVerdict } from '../stats/types.js'
import type { CalibrationRow } from '../model/report.js'
import { pairRecords } from './pair-records.js'
import type { PairedRecord, ProbabilityRecord } from './types.js'

export type CalibrationMetric = 'ece' | 'brier'

/** HELM's `ece_10_bin`: ten equal-mass bins. */
export const ECE_BINS = 10

/**
 * Equal-mass ECE exactly as the `calibration` package HELM 0.5.16 calls (`get_ece_em`, plug-in,
 * L1): the sorted probabilities are cut into `bins` parts as numpy's array_split cuts them (the
 * first n mod bins parts one longer), each bin's upper edge is the midpoint between its last value
 * and the next part's first (the last edge is 1), repeated edges merge, and a value goes to the
 * first bin whose edge is not below it. ECE = sum over bins of (size / n) * |mean p - mean y|.
 */
export function expectedCalibrationError(probs: ArrayLike<number>, correct: ArrayLike<number>, bins = ECE_BINS): number {
  const n = probs.length
  if (n === 0) return NaN
  const sorted = Float64Array.from(probs).sort()
  const parts = Math.min(bins, n)
  const base = Math.floor(n / parts)
  const longer = n % parts
  const edges: number[] = []
  let start = 0
  for (let i = 0; i < parts - 1; i++) {
    const end = start + base + (i < longer ? 1 : 0)
    edges.push((sorted[end - 1] + sorted[end]) / 2)
    start = end
  }
  edges.push(1)
  const unique = [...new Set(edges)].sort((a, b) => a - b)
  const probSum = new Float64Array(unique.length)
  const labelSum = new Float64Array(unique.length)
  const count = new Float64Array(unique.length)
  for (let i = 0; i < n; i++) {
    const p = probs[i]
    let low = 0
    let high = unique.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (unique[mid] < p) low = mid + 1
      else high = mid
    }
    probSum[low] += p
    labelSum[low] += correct[i]
    count[low]++
  }
  let ece = 0
  for (let b = 0; b < unique.length; b++) {
    if (count[b] > 0) ece += (count[b] / n) * Math.abs(probSum[b] / count[b] - labelSum[b] / count[b])
  }
  return ece
}

/** Top-label Brier score: mean of (p - y)^2 over the records. */
export function brierScore(probs: ArrayLike<number>, correct: ArrayLike<number>): number {
  let total = 0
  for (let i = 0; i < probs.length; i++) total += (probs[i] - correct[i]) ** 2
  return total / probs.length
}

export interface CalibrationOptions {
  resamples?: number
  seed?: number
  confidence?: number
}

/** One calibration metric of both sides and its paired difference: the figures of a report's row. */
export type CalibrationEstimate = Pick<CalibrationRow, 'metric' | 'n' | 'pairs' | 'baseline' | 'candidate' | 'delta' | 'ci'>

interface Clusters {
  /** Record indices of each cluster. */
  members: number[][]
  bp: Float64Array
  by: Float64Array
  cp: Float64Array
  cy: Float64Array
}

function clustersOf(paired: readonly PairedRecord[]): Clusters {
  const index = new Map<string, number[]>()
  paired.forEach((pair, i) => {
    const list = index.get(pair.cluster)
    if (list) list.push(i)
    else index.set(pair.cluster, [i])
  })
  return {
    members: [...index.values()],
    bp: Float64Array.from(paired, p => p.baseline.prob),
    by: Float64Array.from(paired, p => (p.baseline.correct ? 1 : 0)),
    cp: Float64Array.from(paired, p => p.candidate.prob),
    cy: Float64Array.from(paired, p => (p.candidate.correct ? 1 : 0))
  }
}

/**
 * The paired difference of one calibration metric. The interval is a percentile cluster bootstrap:
 * instances are drawn with replacement, all their trials and perturbations with them, and the
 * metric is computed again on each resample (for ECE the bins are cut again, since they are part
 * of the estimator). Brier is a mean of paired differences, so it uses the gate's own
 * `clusterBootstrap`.
 */
export function pairedCalibration(
  baseline: readonly ProbabilityRecord[],
  candidate: readonly ProbabilityRecord[],
  metric: CalibrationMetric,
  options: CalibrationOptions = {}
): CalibrationEstimate {
  const resamples = options.resamples ?? 2000
  const confidence = options.confidence ?? 0.95
  checkConfidence(confidence)
  checkResamples(resamples, confidence)
  const paired = pairRecords(baseline, candidate)
  const c = clustersOf(paired)
  const rng = createRandom(options.seed ?? 0, `holistic:${metric}`)
  let base: number
  let cand: number
  let samples: Float64Array
  if (metric === 'brier') {
    base = brierScore(c.bp, c.by)
    cand = brierScore(c.cp, c.cy)
    const sums = Float64Array.from(c.members, m => m.reduce((s, i) => s + (c.cp[i] - c.cy[i]) ** 2 - (c.bp[i] - c.by[i]) ** 2, 0))
    const sizes = Float64Array.from(c.members, m => m.length)
    samples = clusterBootstrap(sums, sizes, 0, resamples, rng)
  } else {
    base = expectedCalibrationError(c.bp, c.by)
    cand = expectedCalibrationError(c.cp, c.cy)
    samples = new Float64Array(resamples)
    const k = c.members.length
    const bp: number[] = []
    const by: number[] = []
    const cp: number[] = []
    const cy: number[] = []
    for (let r = 0; r < resamples; r++) {
      bp.length = by.length = cp.length = cy.length = 0
      for (let j = 0; j < k; j++) {
        for (const i of c.members[rng.below(k)]) {
          bp.push(c.bp[i])
          by.push(c.by[i])
          cp.push(c.cp[i])
          cy.push(c.cy[i])
        }
      }
      samples[r] = expectedCalibrationError(cp, cy) - expectedCalibrationError(bp, by)
    }
  }
  const [low, high] = percentileInterval(samples, confidence)
  return {
    metric,
    n: c.members.length,
    pairs: paired.length,
    baseline: base,
    candidate: cand,
    delta: cand - base,
    ci: { level: confidence, low, high, method: 'cluster-bootstrap' }
  }
}

export interface CalibrationCheck {
  metric: CalibrationMetric
  /** The tolerated rise of the metric (candidate - baseline). */
  max_increase: number
}

export interface CalibrationDecision {
  verdict: ComparisonVerdict | 'error'
  nNeeded: number | null
  reason: string
  estimate: CalibrationEstimate | null
}

const fmt = (x: number): string => x.toFixed(4)

/** Fewer instances than this never pass (the same floor as the comparison rows' bootstrap). */
const MIN_CALIBRATION_UNITS = 20

/**
 * pass when the interval's upper end is below the tolerated increase, fail when its lower end is
 * above it, inconclusive otherwise with the instances that would narrow it enough (the same rule
 * as `instancesToResolve` for the other rows). Records that cannot be paired, or probabilities
 * that are missing or outside [0, 1], give an error verdict, never a pass.
 */
export function checkCalibration(
  baseline: readonly ProbabilityRecord[],
  candidate: readonly ProbabilityRecord[],
  check: CalibrationCheck,
  options: CalibrationOptions = {}
): CalibrationDecision {
  const m = check.max_increase
  if (!(Number.isFinite(m) && m >= 0)) {
    throw new UsageError('holistic.bad_max_increase', 'The tolerated increase must be a finite, non-negative number.', {
      field: 'max_increase',
      value: m
    })
  }
  if (check.metric !== 'ece' && check.metric !== 'brier') {
    throw new UsageError('holistic.bad_metric', 'The calibration metric must be ece or brier.', { field: 'metric', value: check.metric })
  }
  let est: CalibrationEstimate
  try {
    est = pairedCalibration(baseline, candidate, check.metric, options)
  } catch (error) {
    if (error instanceof UsageError || !(error instanceof GateError)) throw error
    return { verdict: 'error', nNeeded: null, reason: error.describe(), estimate: null }
  }
  const shown = `[${fmt(est.ci.low)}, ${fmt(est.ci.high)}]`
  const name = check.metric === 'ece' ? 'ECE' : 'Brier score'
  // The rows' rule (gate/comparison-row.ts MIN_BOOTSTRAP_UNITS): a percentile bootstrap on a
  // handful of instances under-covers, so below this many it can fail but never pass.
  if (est.ci.high < m && est.n < MIN_CALIBRATION_UNITS) {
    return {
      verdict: 'inconclusive',
      nNeeded: MIN_CALIBRATION_UNITS,
      estimate: est,
      reason: `Only ${est.n} instances: a bootstrap interval needs at least ${MIN_CALIBRATION_UNITS} to be trusted, so this cannot pass.`
    }
  }
  if (est.ci.high < m) {
    return { verdict: 'pass', nNeeded: null, estimate: est, reason: `The interval of the ${name} change ${shown} lies below +${fmt(m)}.` }
  }
  if (est.ci.low > m) {
    return {
      verdict: 'fail',
      nNeeded: null,
      estimate: est,
      reason: `The interval of the ${name} change ${shown} lies above +${fmt(m)}: the candidate is less calibrated than tolerated.`
    }
  }
  if (est.delta >= m) {
    return {
      verdict: 'inconclusive',
      nNeeded: null,
      estimate: est,
      reason: `The observed ${name} rise (${fmt(est.delta)}) already reaches +${fmt(m)}: more instances would not make this pass.`
    }
  }
  const nNeeded = instancesToResolve(est.n, (est.ci.high - est.ci.low) / 2, m - est.delta)
  return {
    verdict: 'inconclusive',
    nNeeded,
    estimate: est,
    reason: `The interval of the ${name} change ${shown} straddles +${fmt(m)}: about ${nNeeded} instances (now ${est.n}) would narrow it enough.`
  }
}
