/**
 * The candidate/baseline ratio of a load metric, with an interval from the blocks (docs/load.md,
 * "How the sides are compared"). Each adjacent (baseline, candidate) pair of blocks gives one
 * observation log(candidate / baseline); the interval is exp of a Student t interval over those
 * observations. Blocks, not requests, are the unit: requests within a block share the block's
 * drift, so resampling requests would give intervals that are too narrow.
 */
import { exp, isFiniteNumber, log, sqrt } from './math.js'
import { twoSidedT } from './student-t.js'

export const LOG_RATIO_METHOD = 'block-pair log-ratio t interval'

/** Fewer pairs than this give no interval (a t interval on 2 pairs has 1 degree of freedom). */
export const MIN_PAIRS = 3

export interface PairedLogRatio {
  /** exp(mean log ratio): the geometric mean of the pair ratios. */
  estimate: number
  low: number
  high: number
  pairs: number
  /** Mean and standard deviation of the log ratios, for the pairs-needed estimate. */
  meanLog: number
  sdLog: number
}

export type RatioOutcome = { ok: true; ratio: PairedLogRatio } | { ok: false; reason: string }

/** `baseline[i]` and `candidate[i]` are the i-th adjacent pair of blocks. */
export function blockPairRatio(baseline: readonly number[], candidate: readonly number[], confidence: number): RatioOutcome {
  const k = baseline.length
  if (k !== candidate.length) return { ok: false, reason: `unequal block counts (${k} baseline, ${candidate.length} candidate)` }
  if (k < MIN_PAIRS) return { ok: false, reason: `${k} block pairs; an interval needs at least ${MIN_PAIRS}` }
  const logs: number[] = []
  for (let i = 0; i < k; i++) {
    const b = baseline[i]
    const c = candidate[i]
    if (!isFiniteNumber(b) || !isFiniteNumber(c)) return { ok: false, reason: `block pair ${i + 1} has no value on one side` }
    if (!(b > 0)) return { ok: false, reason: `the baseline is ${b} in block pair ${i + 1}, so a ratio is undefined` }
    if (!(c > 0)) return { ok: false, reason: `the candidate is ${c} in block pair ${i + 1}, so a ratio is undefined` }
    logs.push(log(c / b))
  }
  const meanLog = logs.reduce((s, x) => s + x, 0) / k
  const variance = logs.reduce((s, x) => s + (x - meanLog) * (x - meanLog), 0) / (k - 1)
  const sdLog = sqrt(variance)
  const half = (twoSidedT(confidence, k - 1) * sdLog) / sqrt(k)
  return { ok: true, ratio: { estimate: exp(meanLog), low: exp(meanLog - half), high: exp(meanLog + half), pairs: k, meanLog, sdLog } }
}

/**
 * The smallest number of pairs whose interval, with the observed mean and spread of the log
 * ratios, would lie entirely on one side of `threshold`; null when the estimate sits on the
 * threshold (more pairs cannot resolve it) or more than `maxPairs` would be needed.
 */
export function pairsToResolve(ratio: PairedLogRatio, threshold: number, confidence: number, maxPairs = 1000): number | null {
  const distance = Math.abs(ratio.meanLog - log(threshold))
  if (!(distance > 0)) return null
  if (ratio.sdLog === 0) return ratio.pairs
  for (let k = Math.max(MIN_PAIRS, ratio.pairs); k <= maxPairs; k++) {
    if ((twoSidedT(confidence, k - 1) * ratio.sdLog) / sqrt(k) < distance) return k
  }
  return null
}
