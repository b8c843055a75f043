/**
 * The direction of a change in the PR comment (docs/report.md "The direction of a change"): the
 * comparisons table's Changed cell with McNemar's p-value under the counts, and under the table
 * one sentence per row whose answers moved (churn, a gain, a drop), with the split by the
 * baseline's margin or why there is none. Information only: nothing here decides a verdict.
 * Pure; run names come from output files and are escaped.
 */
import { escapeInline } from './escape.js'
import { formatCount } from './format.js'
import type { Comparison, DirectionShown } from '../model/report.js'

/** The direction of a row when it has one (its values are 0/1 per instance). */
export function shownDirection(comparison: Comparison): DirectionShown | null {
  const d = comparison.change_direction
  return d && d.kind !== 'absent' ? d : null
}

/** Two decimals, and `< 0.01` rather than a p-value of `0.00`. */
export function pValueText(p: number): string {
  return p < 0.01 ? '< 0.01' : p.toFixed(2)
}

/** `+3 / -5`, then `(p 0.73)` on its own line where the row has a direction: narrow enough for 800 px. */
export function changedCell(comparison: Comparison, flips: string): string {
  const d = shownDirection(comparison)
  return d ? `${flips}<br>(p ${pValueText(d.p_value)})` : flips
}

function rowLabel(c: Comparison, runLabel: (run: string) => string): string {
  const parts = [runLabel(c.run), c.metric, c.split, c.perturbation].filter((p): p is string => p !== null && p !== '')
  return escapeInline(parts.join(' · '), 120)
}

/** The sentence of each shown row whose answers moved; empty when none moved. */
export function directionBlock(shown: Comparison[], runLabel: (run: string) => string): string[] {
  const lines: string[] = []
  for (const c of shown) {
    const d = shownDirection(c)
    if (!d || d.kind === 'none') continue
    const margin = d.margin
      ? ` (sure: +${formatCount(d.margin.sure.won)} / -${formatCount(d.margin.sure.lost)}; not sure: +${formatCount(d.margin.unsure.won)} / -${formatCount(d.margin.unsure.lost)}; sure is max_prob ≥ ${d.margin.sure_at})`
      : `; no split by the baseline's margin: ${d.margin_reason ?? 'unknown'}`
    lines.push(`- ${rowLabel(c, runLabel)}: ${escapeInline(d.sentence + margin, 600)}`)
  }
  if (lines.length === 0) return []
  return ['', "_Direction (information only, never a verdict): answers won and lost, McNemar's exact p-value._", ...lines]
}
