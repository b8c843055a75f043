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
  return [row.min === null ? null : `≥ ${formatNumber(row.min)}`, row.max === null ? null : `≤ ${formatNumber(row.max)}`]
    .filter(Boolean)
    .join(', ')
}

export function renderAnswerLengthMarkdown(rows: AnswerLength[] | undefined): string[] {
  if (!rows || rows.length === 0) return []
  const lines = [
    '### Answer length',
    '',
    '| verdict | measurement | candidate / baseline [95% interval] | band | mean length (baseline → candidate) | unit |',
    '|---|---|---|---|---|---|'
  ]
  for (const r of rows) {
    const verdict = r.gated ? `${VERDICT_EMOJI[r.verdict]} ${r.verdict}` : `ℹ️ reported (${r.verdict})`
    lines.push(
      `| ${verdict} | ${r.source} ${codeSpan(r.run, { inTable: true, maxLength: 80 })} | ${formatNumber(r.ratio.estimate)}× [${formatNumber(r.ratio.low)}, ${formatNumber(r.ratio.high)}] | ${band(r)}${r.gated ? '' : ' (not gated)'} | ${formatNumber(r.baseline_mean)} → ${formatNumber(r.candidate_mean)} (n = ${r.n}) | ${escapeInline(r.unit, 80).replace(/\|/g, '\\|')} |`
    )
  }
  lines.push('')
  const open = rows.filter(r => r.gated && r.verdict !== 'pass')
  for (const r of open) lines.push(`- ${r.source} ${codeSpan(r.run, { maxLength: 80 })}: ${escapeInline(r.reason, 400)}`)
  if (open.length > 0) lines.push('')
  return lines
}
