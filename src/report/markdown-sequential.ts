/**
 * The sequential verdicts of a gate file's `sequential:` section (docs/gate-file.md "Sequential
 * verdicts") in the PR comment and on the console: per gated row, where its confidence sequence
 * stopped (`stopped early at n = 120 of 500 (certain)`, `ran to the budget (n = 500):
 * inconclusive`) and the instance requests the stages spent beside the fixed design's. Pure; run
 * names come from output files and are escaped.
 */
import { codeSpan } from './escape.js'
import { VERDICT_EMOJI } from './format.js'
import type { Comparison, SequentialRow } from '../model/report.js'

/** Where the sequence stopped, in the words of the comment. */
export function sequentialPhrase(s: SequentialRow): string {
  if (!s.certain) return `ran to the budget (n = ${s.budget}): inconclusive`
  if (s.stopped_at < s.budget) return `stopped early at n = ${s.stopped_at} of ${s.budget} (certain)`
  return `decided at the budget (n = ${s.budget}): ${s.decision} (certain)`
}

/** What the stages spent (each stage asks its first instances again) beside one run at the budget. */
export function spendPhrase(s: SequentialRow): string {
  return `${s.requests_spent} instance requests spent on both sides (the fixed design: ${s.requests_fixed})`
}

/** The comment's section: one line per sequential row; nothing on a gate without them. */
export function renderSequentialMarkdown(rows: readonly Comparison[]): string[] {
  const staged = rows.filter(row => row.sequential)
  if (staged.length === 0) return []
  const lines = ['### Sequential verdicts', '']
  for (const row of staged) {
    const s = row.sequential as SequentialRow
    lines.push(
      `- ${VERDICT_EMOJI[row.verdict]} ${codeSpan(row.run, { maxLength: 80 })} ${codeSpan(row.metric, { maxLength: 40 })}: ${sequentialPhrase(s)}; ${spendPhrase(s)}`
    )
  }
  lines.push(
    '',
    '_Each verdict is its anytime-valid confidence sequence\'s, looked at after every stage (docs/method.md "Sequential verdicts"), not the fixed-n interval at the stop._',
    ''
  )
  return lines
}

/** One console line per sequential row. */
export function sequentialConsoleLines(rows: readonly Comparison[]): string[] {
  return rows
    .filter(row => row.sequential)
    .map(
      row =>
        `sequential ${row.run} ${row.metric}: ${row.verdict}: ${sequentialPhrase(row.sequential as SequentialRow)}; ${spendPhrase(row.sequential as SequentialRow)}`
    )
}
