/**
 * An anytime-valid confidence sequence for the mean of values in [0, 1], by betting
 * (docs/method.md "Sequential verdicts"): Waudby-Smith and Ramdas, "Estimating means of bounded
 * random variables by betting", JRSS-B 2024 (the hedged capital process with predictable plug-in
 * bets), and, for a frozen set of N items drawn in random order without replacement, their
 * "Confidence sequences for sampling without replacement", NeurIPS 2020.
 *
 * A gambler bets against each candidate mean m; under the true mean the capital is a nonnegative
 * martingale, so by Ville's inequality it ever reaches 1/a with probability at most a. The
 * interval at time t holds every m whose capital has not reached that level. Because the bound
 * holds over all t at once, the interval may be looked at after every instance and the look may
 * stop the gate, which a fixed-n interval does not allow.
 */
import { UsageError } from '../errors.js'
import { isFiniteNumber, isInteger, log, log1p, max, min, sqrt } from '../stats/math.js'

export interface SequenceOptions {
  /**
   * Two-sided error: each side gets half (the lower bound is wrong, ever, with probability at most
   * alpha / 2 = 2.5% at the default 0.05), the level a fixed-n 95% interval has on each side.
   */
  alpha?: number
  /**
   * The size N of the frozen set the values are drawn from without replacement, in a uniformly
   * random order. Absent: the values are independent draws with a common mean (a superpopulation).
   */
  population?: number
  /** How far a bet may go towards ruin: |bet| <= truncation / distance to the bound (0 < c < 1). */
  truncation?: number
  /**
   * The sample size the bets are tuned for (a gate's budget): the interval is narrowest there
   * and valid at every n all the same. Absent: bets shrink like 1 / sqrt(n log n), no n favoured.
   */
  horizon?: number
}

/** The options with their defaults, checked. */
export interface CheckedSequenceOptions {
  alpha: number
  population?: number
  c: number
  horizon?: number
}

export interface SequenceInterval {
  /** Values seen. */
  n: number
  low: number
  high: number
}

const DEFAULT_ALPHA = 0.05
// Waudby-Smith and Ramdas's default: a bet never risks more than half the capital.
const DEFAULT_TRUNCATION = 0.5
// Bisection steps on [0, 1]: 2^-40 is far below any margin a gate can state.
const STEPS = 40

/**
 * The predictable plug-in bets lambda_i (before truncation), i = 1..n: each uses only the values
 * before it. lambda_i = sqrt(2 log(2/alpha) / (var_{i-1} * i * log(1 + i))), with the running
 * variance var_i = (1/4 + sum_{j<=i} (x_j - mean_j)^2) / (i + 1) and mean_i = (1/2 + sum_{j<=i}
 * x_j) / (i + 1): one fictitious observation with mean 1/2 and variance 1/4 starts both, so the
 * first bet is defined.
 */
export function plugInBets(values: readonly number[], alpha: number, horizon?: number): number[] {
  const level = log(2 / alpha)
  const bets: number[] = []
  let sum = 0
  let squares = 0
  let variance = 0.25
  for (let i = 1; i <= values.length; i++) {
    bets.push(sqrt((2 * level) / (variance * (horizon ?? i * log(1 + i)))))
    const x = values[i - 1]
    sum += x
    const mean = (0.5 + sum) / (i + 1)
    squares += (x - mean) * (x - mean)
    variance = (0.25 + squares) / (i + 1)
  }
  return bets
}

/**
 * The running log capital, after each value, of the bettor on "the mean is above m" (side +1) or
 * "below m" (side -1): log K_t = sum_{i<=t} log(1 + side * bet_i * (x_i - m_i)), with the bet
 * truncated so a factor never falls below 1 - truncation. For a finite population the bet is on
 * the mean of the items not yet drawn, which the candidate mean m fixes:
 * m_i = (N m - sum_{j<i} x_j) / (N - i + 1).
 */
export function runningLogCapital(
  values: readonly number[],
  bets: readonly number[],
  m: number,
  side: 1 | -1,
  c: number,
  population?: number
): number[] {
  const out: number[] = []
  let total = 0
  let sum = 0
  for (let i = 0; i < values.length; i++) {
    const x = values[i]
    const mi = population === undefined ? m : (population * m - sum) / (population - i)
    const room = side === 1 ? mi : 1 - mi
    const bet = room > 0 ? min(bets[i], c / room) : bets[i]
    total += log1p(side * bet * (x - mi))
    sum += x
    out.push(total)
  }
  return out
}

function logCapital(values: readonly number[], bets: readonly number[], m: number, side: 1 | -1, c: number, population?: number): number {
  const running = runningLogCapital(values, bets, m, side, c, population)
  return running.length === 0 ? 0 : running[running.length - 1]
}

/**
 * The confidence sequence's interval for the mean of `values` (each in [0, 1], in the order they
 * were drawn) after all of them. Each side is a one-sided sequence at alpha / 2, which is the
 * hedged process max(K+/2, K-/2) >= 1/alpha of the paper. The capital for "above m" only falls as m
 * rises (each factor 1 + bet (x - m) does, truncation included), and the capital for "below m" only
 * rises, so each bound is found by bisection. A finite population also bounds the mean for sure:
 * the items not drawn are between 0 and 1, so at n = N the interval is the exact mean.
 */
export function bettingInterval(values: readonly number[], options: SequenceOptions = {}): SequenceInterval {
  const { alpha, population, c, horizon } = checkOptions(options, values.length)
  checkUnitValues(values)
  const n = values.length
  let low = 0
  let high = 1
  if (population !== undefined) {
    const sum = values.reduce((a, b) => a + b, 0)
    low = sum / population
    high = (sum + population - n) / population
  }
  if (n === 0 || high - low <= 0) return { n, low, high }
  const bets = plugInBets(values, alpha, horizon)
  const threshold = log(2 / alpha)
  const excludedBelow = (m: number) => logCapital(values, bets, m, 1, c, population) >= threshold
  const excludedAbove = (m: number) => logCapital(values, bets, m, -1, c, population) >= threshold
  const lowBound = excludedBelow(low) ? bisect(low, high, excludedBelow, true) : low
  const highBound = excludedAbove(high) ? bisect(low, high, excludedAbove, false) : high
  // Both sides exclude everything only in a sample that is wrong on both sides at once (chance
  // below alpha): keep one point between them rather than an empty interval.
  if (lowBound > highBound) {
    const mid = (lowBound + highBound) / 2
    return { n, low: mid, high: mid }
  }
  return { n, low: lowBound, high: highBound }
}

/**
 * The boundary of an excluded region, rounded towards the included side (a wider interval, never
 * a narrower one). `fromBelow`: `excluded` holds at `a` and up to the boundary.
 */
function bisect(a: number, b: number, excluded: (m: number) => boolean, fromBelow: boolean): number {
  let lo = a
  let hi = b
  for (let k = 0; k < STEPS; k++) {
    const mid = (lo + hi) / 2
    if (excluded(mid) === fromBelow) lo = mid
    else hi = mid
  }
  return fromBelow ? hi : lo
}

/**
 * The interval for the mean of paired differences candidate - baseline, each in [-1, 1] (a 0/1
 * metric's differences, or a score in [0, 1]'s): the values are rescaled to (d + 1) / 2, and the
 * interval back.
 */
export function pairedSequenceInterval(diffs: readonly number[], options: SequenceOptions = {}): SequenceInterval {
  const { n, low, high } = bettingInterval(unitDifferences(diffs), options)
  return { n, low: max(-1, 2 * low - 1), high: min(1, 2 * high - 1) }
}

export function checkOptions(options: SequenceOptions, n: number): CheckedSequenceOptions {
  const alpha = options.alpha ?? DEFAULT_ALPHA
  const c = options.truncation ?? DEFAULT_TRUNCATION
  if (!isFiniteNumber(alpha) || alpha <= 0 || alpha >= 1)
    throw new UsageError('sequential.bad_alpha', 'alpha must be a number strictly between 0 and 1.', { field: 'alpha', value: alpha })
  if (!isFiniteNumber(c) || c <= 0 || c >= 1)
    throw new UsageError('sequential.bad_truncation', 'The bet truncation must be strictly between 0 and 1.', {
      field: 'truncation',
      value: c
    })
  const population = options.population
  if (population !== undefined && (!isInteger(population) || population < max(1, n)))
    throw new UsageError('sequential.bad_population', `The population must be a whole number of items, at least the ${n} drawn.`, {
      field: 'population',
      value: population
    })
  const horizon = options.horizon
  if (horizon !== undefined && (!isInteger(horizon) || horizon < 1))
    throw new UsageError('sequential.bad_horizon', 'The horizon the bets are tuned for must be a whole number, at least 1.', {
      field: 'horizon',
      value: horizon
    })
  return { alpha, population, c, horizon }
}

/** Each value a number in [0, 1]: a bet is only safe on bounded values. */
export function checkUnitValues(values: readonly number[]): void {
  for (let i = 0; i < values.length; i++) {
    const x = values[i]
    if (!isFiniteNumber(x) || x < 0 || x > 1)
      throw new UsageError('sequential.value_out_of_bounds', 'Each value of a confidence sequence must be a number in [0, 1].', {
        field: `values[${i}]`,
        value: x
      })
  }
}

/** Paired differences in [-1, 1] rescaled to (d + 1) / 2 in [0, 1]. */
export function unitDifferences(diffs: readonly number[]): number[] {
  return diffs.map((d, i) => {
    if (!isFiniteNumber(d) || d < -1 || d > 1)
      throw new UsageError('sequential.difference_out_of_bounds', 'Each paired difference must be a number in [-1, 1].', {
        field: `differences[${i}]`,
        value: d
      })
    return (d + 1) / 2
  })
}
