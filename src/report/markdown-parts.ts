/**
 * The comment's section of each measurement's part (report.parts, model/measurement-part.ts): a
 * heading with the part's verdict, its tables (verdict first), its sentences. It names no
 * measurement: the part says what it shows. Pure; every text is escaped.
 */
import { escapeInline } from './escape.js'
import { VERDICT_EMOJI, VERDICT_WORD } from './format.js'
import type { PartTable, ReportPart } from '../model/measurement-part.js'

function tableLines(table: PartTable): string[] {
  const right = new Set(table.numeric ?? [])
  const cell = (text: string, i: number, row: number): string => {
    const verdict = i === 0 ? table.verdicts?.[row] : null
    return verdict ? `${VERDICT_EMOJI[verdict]} ${escapeInline(text, 80)}` : escapeInline(text, 200)
  }
  return [
    `| ${table.columns.map(c => escapeInline(c, 80)).join(' | ')} |`,
    `|${table.columns.map((_, i) => (right.has(i) ? '--:' : '---')).join('|')}|`,
    ...table.rows.map((row, r) => `| ${row.map((text, i) => cell(text, i, r)).join(' | ')} |`),
    ''
  ]
}

export function renderPartMarkdown(part: ReportPart): string[] {
  const head =
    part.verdict === null
      ? `### ℹ️ ${escapeInline(part.title, 80)}: ${escapeInline(part.summary, 200)}`
      : `### ${VERDICT_EMOJI[part.verdict]} ${escapeInline(part.title, 80)}: ${VERDICT_WORD[part.verdict]} (${escapeInline(part.summary, 200)})`
  const lines = [head, '']
  for (const table of part.tables) if (!table.page_only && table.rows.length > 0) lines.push(...tableLines(table))
  for (const line of part.lines) lines.push(`- ${escapeInline(line, 400)}`)
  if (part.lines.length > 0) lines.push('')
  return lines
}

export function renderPartsMarkdown(parts: readonly ReportPart[] | undefined): string[] {
  return (parts ?? []).flatMap(renderPartMarkdown)
}
