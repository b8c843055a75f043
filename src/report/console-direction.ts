/**
 * The direction of a change on the terminal (docs/report.md "The direction of a change"): one
 * line per comparison row, information only. The caller escapes the row's name.
 */
import { formatCount } from './format.js'
import { pValueText } from './markdown-direction.js'
import type { Comparison } from '../model/report.js'

/** `+3/-5 (McNemar p 0.73): churn; sure +1/-3, not sure +2/-2`, or why the row has none. */
export function directionLine(c: Comparison): string | null {
  const d = c.change_direction
  if (!d) return null
  if (d.kind === 'absent') return `no direction: ${d.reason}`
  const counts = (f: { won: number; lost: number }): string => `+${formatCount(f.won)}/-${formatCount(f.lost)}`
  const margin = d.margin
    ? `; sure ${counts(d.margin.sure)}, not sure ${counts(d.margin.unsure)} (max_prob ≥ ${d.margin.sure_at})`
    : `; no margin split: ${d.margin_reason ?? 'unknown'}`
  return `${counts(d)} (McNemar p ${pValueText(d.p_value)}): ${d.kind}${margin}`
}
