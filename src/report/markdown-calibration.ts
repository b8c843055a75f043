/**
 * The "Calibration" section of the PR comment (docs/method.md "Paired calibration and the
 * direction of a change"): per run whose gate entry asks for it, verdict first, the rise of ECE or
 * the Brier score (candidate minus baseline) with its interval, the tolerated rise, both sides'
 * values and the instances. Pure; run names come from output files and are escaped.
 */
import { codeSpan, escapeInline } from './escape.js'
import { VERDICT_EMOJI } from './format.js'
import type { CalibrationRow } from '../model/report.js'

/** Four decimals: ECE and Brier move in small steps, and the tolerated rise is usually 0.01 to 0.05. */
const fixed = (x: number): string => x.toFixed(4)
const signed = (x: number): string => `${x >= 0 ? '+' : ''}${fixed(x)}`

export function renderCalibrationMarkdown(rows: CalibrationRow[] | undefined): string[] {
  if (!rows || rows.length === 0) return []
  const lines = ['### Calibration', '', '| Verdict | Run | Rise (C − B) | Tolerates | Baseline → candidate, n |', '|---|---|--:|--:|--:|']
  for (const r of rows) {
    const cells = [
      `${VERDICT_EMOJI[r.verdict]} ${r.verdict}`,
      `${escapeInline(r.run, 36)}<br>${r.metric === 'ece' ? 'ECE (10 bins)' : 'Brier'}`,
      `**${signed(r.delta)}**<br>[${signed(r.ci.low)}, ${signed(r.ci.high)}]`,
      signed(r.max_increase),
      `${fixed(r.baseline)} → ${fixed(r.candidate)}<br>${r.n}`
    ]
    lines.push(`| ${cells.join(' | ')} |`)
  }
  lines.push(
    '',
    `_Rise: the candidate's calibration error minus the baseline's on the same instances (positive is less calibrated), with its ${Math.round(rows[0].ci.level * 100)}% interval (cluster bootstrap over instances)._`
  )
  const open = rows.filter(r => r.verdict !== 'pass')
  for (const r of open) lines.push(`- ${codeSpan(r.run, { maxLength: 80 })}: ${escapeInline(r.reason, 400)}`)
  lines.push('')
  return lines
}
