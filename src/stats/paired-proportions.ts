/**
 * Analytic intervals for the difference of two paired proportions, candidate minus baseline.
 * Table notation (Newcombe 1998): `both` = 1 on both sides, `wins` = candidate 1 / baseline 0,
 * `losses` = candidate 0 / baseline 1, `neither` = 0 on both sides.
 */
import { twoSidedZ } from './normal.js'
import { max, min, sqrt } from './math.js'

export interface PairedTable {
  both: number
  wins: number
  losses: number
  neither: number
}

/** Wilson's score interval for a single proportion x/n. */
export function wilsonInterval(x: number, n: number, z: number): [number, number] {
  const z2 = z * z
  const centre = (x + z2 / 2) / (n + z2)
  const half = (z * sqrt((x * (n - x)) / n + z2 / 4)) / (n + z2)
  return [max(0, centre - half), min(1, centre + half)]
}

/**
 * Newcombe's hybrid score interval, method 10 of Newcombe (1998), "Improved confidence intervals for
 * the difference between binomial proportions based on paired data", Stat Med 17:2635-2650: Wilson
 * intervals for each side's proportion, combined with the observed correlation phi of the pairs.
 */
export function newcombeInterval(table: PairedTable, confidence: number): [number, number] {
  const { both: e, wins: f, losses: g, neither: h } = table
  const n = e + f + g + h
  const z = twoSidedZ(confidence)
  const p1 = (e + f) / n // candidate
  const p2 = (e + g) / n // baseline
  const [l1, u1] = wilsonInterval(e + f, n, z)
  const [l2, u2] = wilsonInterval(e + g, n, z)
  const phi = newcombePhi(e, f, g, h)
  const delta = sqrt(max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
  const epsilon = sqrt(max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
  const estimate = (f - g) / n
  return [max(-1, estimate - delta), min(1, estimate + epsilon)]
}

/**
 * Newcombe's correlation estimate for method 10: 0 when a margin is empty; a positive association
 * is shrunk by N/2 (and to 0 when eh - fg <= N/2), a negative one is used as is. The same rule is
 * in Fagerland, Lydersen & Laake (2017) ch. 8, whose worked example the tests reproduce.
 */
function newcombePhi(e: number, f: number, g: number, h: number): number {
  const marginProduct = (e + f) * (g + h) * (e + g) * (f + h)
  if (marginProduct === 0) return 0
  const n = e + f + g + h
  const a = e * h - f * g
  if (a > n / 2) return (a - n / 2) / sqrt(marginProduct)
  if (a >= 0) return 0
  return a / sqrt(marginProduct)
}

/**
 * The constrained maximum-likelihood estimate of P(losses cell) when the true difference is `diff`
 * (Tango 1998, eq. for p~21). Maximising the multinomial likelihood with p_wins = q + diff gives
 * 2n q^2 - B q - losses * diff * (1 - diff) = 0 with
 * B = wins (1 + diff) + losses (1 - diff) - 2 n diff; q is its non-negative root.
 */
export function tangoRestrictedLossRate(wins: number, losses: number, n: number, diff: number): number {
  const b = wins * (1 + diff) + losses * (1 - diff) - 2 * n * diff
  const c = losses * diff * (1 - diff)
  const root = sqrt(max(0, b * b + 8 * n * c))
  // For b < 0 the textbook form (b + root) / 4n subtracts two nearly equal numbers and loses
  // every digit when c is small; the equivalent 2c / (root - b) adds two positive ones.
  if (b >= 0) return (b + root) / (4 * n)
  return root - b > 0 ? (2 * c) / (root - b) : 0
}

/** Tango's score statistic for H0: difference = diff (decreasing in diff). */
export function tangoScore(wins: number, losses: number, n: number, diff: number): number {
  const numerator = wins - losses - n * diff
  const q = tangoRestrictedLossRate(wins, losses, n, diff)
  const variance = n * (2 * q + diff * (1 - diff))
  if (!(variance > 0)) return numerator === 0 ? 0 : numerator > 0 ? Infinity : -Infinity
  return numerator / sqrt(variance)
}

/**
 * Tango's score interval, Tango (1998), "Equivalence test and confidence interval for the difference
 * in proportions for the paired-sample design", Stat Med 17:891-908: every difference the score test
 * does not reject at level 1 - confidence. It keeps a sensible width when discordant pairs are few or
 * absent (where Newcombe's interval becomes much narrower).
 */
export function tangoInterval(table: PairedTable, confidence: number): [number, number] {
  const { wins, losses } = table
  const n = table.both + wins + losses + table.neither
  const z = twoSidedZ(confidence)
  const estimate = (wins - losses) / n
  const low = solveDecreasing(d => tangoScore(wins, losses, n, d) - z, -1, estimate)
  const high = solveDecreasing(d => tangoScore(wins, losses, n, d) + z, estimate, 1)
  return [low, high]
}

/**
 * The root of a decreasing function on [low, high] by bisection, clamped to an end when the function
 * keeps one sign there. Stops at a bracket of 1e-15 (about 50 halvings of [-1, 1]): far finer than
 * any reported digit, and sooner than waiting for adjacent doubles, which near 0 takes 1000 steps.
 */
function solveDecreasing(f: (x: number) => number, low: number, high: number): number {
  if (f(low) <= 0) return low
  if (f(high) >= 0) return high
  while (high - low > 1e-15) {
    const mid = (low + high) / 2
    if (mid === low || mid === high) break
    if (f(mid) > 0) low = mid
    else high = mid
  }
  return (low + high) / 2
}
