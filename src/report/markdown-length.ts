/**
 * The "Answer length" section of the PR comment (docs/method.md "Answer length"): per measurement
 * with answers, verdict first, the candidate/baseline ratio of mean answer length with its
 * interval, the band, both means and the unit. Ungated rows say `reported`: they never decide.
 * Pure; run names come from output files and are escaped.
 */
import { codeSpan, escapeInline } from './escape.js'
import { formatNumber, VERDICT_EMOJI } from './format.js'
import type { AnswerLength } from '../model/report.js'

function band(row: AnswerLength): string {
  return [row.min === null ? null : `≥ ${String(row.min)}`, row.max === null ? null : `≤ ${String(row.max)}`].filter(Boolean).join(', ')
}

export function renderAnswerLengthMarkdown(rows: AnswerLength[] | undefined): string[] {
  if (!rows || rows.length === 0) return []
  // Stacked cells (<br>) as in the comparisons table, so that the table fits a pull-request conversation.
  const lines = ['### Answer length', '', '| Verdict | Answers of | C / B | Band | Mean length, n |', '|---|---|--:|--:|--:|']
  for (const r of rows) {
    const verdict = r.gated ? `${VERDICT_EMOJI[r.verdict]} ${r.verdict}` : `ℹ️ reported<br>(${r.verdict})`
    const cells = [
      verdict,
      `${escapeInline(r.run, 36)}<br>${r.source}`,
      `**${formatNumber(r.ratio.estimate)}×**<br>[${formatNumber(r.ratio.low)}, ${formatNumber(r.ratio.high)}]`,
      `${band(r).replace(', ', '<br>')}${r.gated ? '' : '<br>(not gated)'}`,
      `${formatNumber(r.baseline_mean)} → ${formatNumber(r.candidate_mean)}<br>${escapeInline(r.unit.split(' (')[0], 40)}, ${r.n}`
    ]
    lines.push(`| ${cells.join(' | ')} |`)
  }
  lines.push(
    '',
    `_C / B: the candidate's mean answer length over the baseline's, with its ${Math.round(rows[0].ratio.level * 100)}% interval (paired bootstrap over instances)._`
  )
  // The table keeps the unit short (it must fit a pull-request conversation); why a fallback was taken is said once below.
  const why = [...new Set(rows.map(r => r.unit).filter(u => u.includes(' (')))]
  for (const unit of why) lines.push(`- ${escapeInline(unit, 200)}`)
  const open = rows.filter(r => r.gated && r.verdict !== 'pass')
  for (const r of open) lines.push(`- ${r.source} ${codeSpan(r.run, { maxLength: 80 })}: ${escapeInline(r.reason, 400)}`)
  if (open.length > 0 || why.length > 0) lines.push('')
  return lines
}
