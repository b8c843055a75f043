/**
 * The verdict of a sequential gate (docs/method.md "Sequential verdicts"): at each look, pass when
 * the whole confidence-sequence interval of the paired difference is above -margin, fail when it
 * is wholly below, continue otherwise; inconclusive when the budget is spent undecided.
 */
import { UsageError } from '../errors.js'
import { createRandom } from '../stats/random.js'
import { isFiniteNumber, log, max, min } from '../stats/math.js'
import {
  checkOptions,
  pairedSequenceInterval,
  plugInBets,
  runningLogCapital,
  unitDifferences,
  type SequenceInterval,
  type SequenceOptions
} from './confidence-sequence.js'
import { checkLookSchedule, type LookSchedule } from './look-schedule.js'

export type LookDecision = 'pass' | 'fail' | 'continue' | 'inconclusive'

/** One look: the decision there, and the interval when it was asked for (`trace`) or is the last. */
export interface Look {
  n: number
  decision: LookDecision
  interval?: SequenceInterval
}

export interface SequentialOutcome {
  verdict: 'pass' | 'fail' | 'inconclusive'
  /** Instances spent when the gate stopped. */
  stoppedAt: number
  budget: number
  looks: Look[]
  /** The interval of the difference at the stop, intersected with every earlier look's when traced. */
  interval: SequenceInterval
}

/**
 * The decision at one look from the interval. `atBudget`: the last look, where an undecided
 * interval is inconclusive instead of continue.
 */
export function decideLook(interval: { low: number; high: number }, margin: number, atBudget: boolean): LookDecision {
  checkMargin(margin)
  if (interval.high < -margin) return 'fail'
  if (interval.low > -margin) return 'pass'
  return atBudget ? 'inconclusive' : 'continue'
}

/**
 * Runs the looks of `schedule` over `diffs` (candidate - baseline per instance, in the seeded
 * order the instances were measured in) and stops at the first decided look.
 *
 * The decision is the sequence's own test of the margin, exact rather than through a bisected
 * bound: -margin is outside the interval from below exactly when the capital bet on "the mean is
 * above -margin" has reached 2/alpha (the capital only falls as the candidate mean rises), or, for
 * a finite population, when the items already measured put the mean above it for sure. That is
 * one pass over the differences, whatever the number of looks. Since each interval holds the mean
 * at every n at once (with probability 1 - alpha), the first look that excludes -margin may stop
 * the gate; fail is checked first, so a sample that excludes both sides (chance below alpha) fails
 * closed. The bets are tuned for the budget unless `horizon` says otherwise. With `trace`, every look's interval is computed (for the report's plot) and intersected
 * with the earlier ones, which the same guarantee allows.
 */
export function runSequentialGate(
  diffs: readonly number[],
  schedule: LookSchedule,
  margin: number,
  options: SequenceOptions & { trace?: boolean } = {}
): SequentialOutcome {
  checkMargin(margin)
  const { looks, budget } = checkLookSchedule(schedule, options.population)
  if (diffs.length < budget)
    throw new UsageError('sequential.too_few_differences', `The budget needs ${budget} paired differences.`, {
      field: 'differences',
      value: diffs.length
    })
  // Bets tuned for the budget by default: the gate's hardest look is its last.
  const tuned = { ...options, horizon: options.horizon ?? budget }
  const { alpha, population, c, horizon } = checkOptions(tuned, budget)
  const values = unitDifferences(diffs.slice(0, budget))
  const bets = plugInBets(values, alpha, horizon)
  const m0 = (1 - margin) / 2
  const above = runningLogCapital(values, bets, m0, 1, c, population)
  const below = runningLogCapital(values, bets, m0, -1, c, population)
  const threshold = log(2 / alpha)
  const seen: Look[] = []
  let low = -1
  let high = 1
  let sum = 0
  let counted = 0
  for (const n of looks) {
    for (; counted < n; counted++) sum += values[counted]
    // For a finite population the unmeasured items lie in [0, 1]: sure bounds on the mean.
    const sureLow = population === undefined ? 0 : sum / population
    const sureHigh = population === undefined ? 1 : (sum + population - n) / population
    const failed = below[n - 1] >= threshold || sureHigh < m0
    const passed = above[n - 1] >= threshold || sureLow > m0
    const decision: LookDecision = failed ? 'fail' : passed ? 'pass' : n === budget ? 'inconclusive' : 'continue'
    const look: Look = { n, decision }
    if (options.trace === true || decision !== 'continue') {
      const interval = pairedSequenceInterval(diffs.slice(0, n), tuned)
      low = max(low, interval.low)
      high = min(high, interval.high)
      look.interval = options.trace === true ? { n, low, high } : interval
    }
    seen.push(look)
    if (decision !== 'continue')
      return { verdict: decision, stoppedAt: n, budget, looks: seen, interval: look.interval as SequenceInterval }
  }
  // checkLookSchedule ends every schedule at the budget, so the loop always returns.
  throw new Error('unreachable: the last look is at the budget')
}

function checkMargin(margin: number): void {
  if (!isFiniteNumber(margin) || margin < 0 || margin >= 1)
    throw new UsageError('sequential.bad_margin', 'The margin (the tolerated drop) must be a number in [0, 1).', {
      field: 'max_drop',
      value: margin
    })
}

/**
 * The order a sequential gate measures instances in: a uniformly random permutation of 0..n-1
 * (Fisher-Yates) from the seeded generator, the same on every machine. A random order is what
 * makes the without-replacement sequence valid: each next instance is a uniform draw from the
 * ones not yet measured.
 */
export function sequentialOrder(n: number, seed: number): number[] {
  const random = createRandom(seed, 'sequential-order')
  const order = Array.from({ length: n }, (_, i) => i)
  for (let i = n - 1; i > 0; i--) {
    const j = random.below(i + 1)
    const swap = order[i]
    order[i] = order[j]
    order[j] = swap
  }
  return order
}
