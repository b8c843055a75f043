/**
 * Power planning: how many eval instances would make a comparison decisive?
 *
 * A normal approximation for the mean of paired differences d_i = candidate_i - baseline_i:
 * the two-sided interval is delta +/- z * sd / sqrt(n). The gate passes when the lower bound
 * clears -m, so with an expected delta > -m the smallest sufficient n is
 *   n = ceil( (z * sd / (delta + m))^2 ).
 * For 0/1 metrics with discordance rate r (the share of instances whose answer changes) and an
 * expected delta of 0, sd^2 = r, so n = ceil(z^2 * r / m^2): the margin must be wider than the
 * noise that changed answers alone produce. With delta <= -m no sample size can pass.
 *
 * Both the `power` command (planning from an assumed sd) and an inconclusive verdict (resolving
 * from the interval just measured, `instancesToResolve`) use this one relation.
 */
import { normalQuantile } from './normal.js'

export interface PowerInput {
  /** Standard deviation of the per-instance difference. */
  sd: number
  /** Expected mean difference (candidate - baseline); 0 when planning before any pilot. */
  delta: number
  /** Tolerated drop in metric units (> 0). */
  margin: number
  /** Two-sided interval level, e.g. 0.95. */
  confidence: number
}

/** The smallest n whose interval lies above -margin, or null when none can (delta <= -margin). */
export function instancesNeeded(input: PowerInput): number | null {
  const room = input.delta + input.margin
  if (!(input.margin > 0) || room <= 0) return null
  if (input.sd <= 0) return 1
  const z = normalQuantile(1 - (1 - input.confidence) / 2)
  return Math.max(1, Math.ceil(((z * input.sd) / room) ** 2))
}

/** sd of a paired 0/1 difference from its discordance rate r = P(answer changes) and delta. */
export function binarySd(discordance: number, delta = 0): number {
  return Math.sqrt(Math.max(0, discordance - delta * delta))
}

/**
 * From a measured interval: n_needed ~ n (half_width / (delta + m))^2. The half-width shrinks like
 * 1/sqrt(n), and the interval clears the margin once it is narrower than the distance from the
 * estimate to -m; the same relation as instancesNeeded, with z * sd = half_width * sqrt(n).
 */
export function instancesToResolve(n: number, halfWidth: number, distance: number): number {
  return Math.max(n + 1, Math.ceil(n * (halfWidth / distance) ** 2))
}
