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
// The wording's one owner is the page's plot module (it imports only types, so the bundle can take it).
import { requestsPhrase as spendPhrase, stopPhrase as sequentialPhrase } from './sequence-plot.js'

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
