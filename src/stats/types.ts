/**
 * The statistics engine's interface (docs/method.md). Pure: numbers in, numbers out, no I/O.
 */
import type { Direction, StatisticsSettings } from '../config/types.js'

/**
 * One resampling unit: an instance (and perturbation) with the values of all its train trials.
 * `baseline[k]` and `candidate[k]` belong to the same trial k; both arrays have the same length.
 */
export interface PairedCluster {
  baseline: number[]
  candidate: number[]
}

export type IntervalMethodUsed = 'bootstrap' | 'bootstrap-counts' | 'newcombe' | 'tango'

export interface Interval {
  level: number
  low: number
  high: number
  method: IntervalMethodUsed
}

export interface PairedEstimate {
  /** Clusters (instances): the resampling units. */
  n: number
  /** Paired (instance, trial) values. */
  pairs: number
  /** Every value on both sides is exactly 0 or 1. */
  binary: boolean
  baselineMean: number
  candidateMean: number
  /** mean(candidate - baseline) over pairs. */
  delta: number
  /** Standard deviation of the per-cluster mean differences (for n_needed). */
  sdDelta: number
  ci: Interval
  /** 0 -> 1 for binary metrics; d > tolerance for continuous ones. */
  wins: number
  /** 1 -> 0 for binary metrics; d < -tolerance for continuous ones. */
  losses: number
  unchanged: number
  /** McNemar's exact two-sided p-value (binary metrics only). */
  pValue: number | null
}

export type ComparisonVerdict = 'pass' | 'fail' | 'inconclusive'

export interface VerdictDecision {
  verdict: ComparisonVerdict
  /** For inconclusive: instances that would make the interval clear the margin; null when none can. */
  nNeeded: number | null
  /** One sentence a user can act on. */
  reason: string
}

/** A ratio candidate/baseline of a quantile, with a bootstrap interval. Information only. */
export interface RatioEstimate {
  estimate: number
  low: number
  high: number
}

export type { Direction, StatisticsSettings }
