/** The non-inferiority verdict of one comparison (docs/method.md "Verdicts"). */
import { UsageError } from '../errors.js'
import type { Direction, PairedEstimate, VerdictDecision } from './types.js'
import { abs, isFiniteNumber } from './math.js'
import { instancesToResolve } from './power.js'

/**
 * The tolerated drop in metric units. A relative drop is a fraction of the baseline mean's size
 * (for a lower-is-better metric a "drop" is a rise of that much).
 */
export function resolveMaxDrop(maxDrop: number | null, maxRelativeDrop: number | null, baselineMean: number): number {
  if ((maxDrop === null) === (maxRelativeDrop === null)) {
    throw new UsageError('stats.max_drop_ambiguous', 'Give exactly one of max_drop and max_relative_drop.', {
      field: 'max_drop',
      value: { max_drop: maxDrop, max_relative_drop: maxRelativeDrop }
    })
  }
  const margin = maxDrop ?? (maxRelativeDrop as number) * abs(baselineMean)
  checkMargin(margin, maxDrop === null ? 'max_relative_drop' : 'max_drop', maxDrop ?? maxRelativeDrop)
  return margin
}

/**
 * pass when the whole interval is better than -m, fail when the whole interval is worse than -m,
 * inconclusive otherwise. For lower-is-better metrics "worse" is a positive delta: the rule is
 * mirrored by flipping the sign of delta and of the interval.
 */
export function decideVerdict(
  est: PairedEstimate,
  maxDrop: number,
  direction: Direction,
  confidence: number = est.ci.level
): VerdictDecision {
  checkMargin(maxDrop, 'max_drop', maxDrop)
  // Work in "improvement" units: positive is better whatever the metric's direction.
  const sign = direction === 'lower' ? -1 : 1
  const gain = sign * est.delta
  const low = sign === 1 ? est.ci.low : -est.ci.high
  const high = sign === 1 ? est.ci.high : -est.ci.low
  const level = `${formatLevel(confidence)} interval`
  const shown = `[${fmt(est.ci.low)}, ${fmt(est.ci.high)}]`
  const bound = sign === 1 ? `-${fmt(maxDrop)}` : `+${fmt(maxDrop)}`
  const worse = sign === 1 ? 'drop' : 'rise'

  if (low > -maxDrop) {
    return {
      verdict: 'pass',
      nNeeded: null,
      reason: `The ${level} of the difference ${shown} lies entirely ${sign === 1 ? 'above' : 'below'} ${bound}: the candidate is not meaningfully worse.`
    }
  }
  if (high < -maxDrop) {
    return {
      verdict: 'fail',
      nNeeded: null,
      reason: `The ${level} of the difference ${shown} lies entirely ${sign === 1 ? 'below' : 'above'} ${bound}: a real ${worse} larger than the tolerated ${fmt(maxDrop)}.`
    }
  }
  if (gain <= -maxDrop) {
    return {
      verdict: 'inconclusive',
      nNeeded: null,
      reason: `The observed ${worse} (${fmt(abs(est.delta))}) already reaches the tolerated ${fmt(maxDrop)}: more instances would not make this pass; the candidate is likely worse.`
    }
  }
  const nNeeded = instancesToResolve(est.n, (high - low) / 2, gain + maxDrop)
  return {
    verdict: 'inconclusive',
    nNeeded,
    reason: `The ${level} ${shown} straddles ${bound}: about ${nNeeded} instances (now ${est.n}) would narrow it enough; use more instances, not a looser threshold.`
  }
}

function checkMargin(margin: number, field: string, value: unknown): void {
  if (!(isFiniteNumber(margin) && margin >= 0)) {
    throw new UsageError('stats.bad_max_drop', 'The tolerated drop must be a finite, non-negative number.', {
      field,
      value
    })
  }
}

function formatLevel(confidence: number): string {
  return `${Number((confidence * 100).toPrecision(6))}%`
}

function fmt(x: number): string {
  return Number(x.toPrecision(3)).toString()
}
