/**
 * Each measurement's part (report.parts, model/measurement-part.ts) for a terminal: a heading with
 * its verdict, its tables aligned, its sentences. It names no measurement. Untrusted text has its
 * control characters escaped; colour is applied after padding (escape codes have no width).
 */
import { escapeTerminal, truncateText } from './escape.js'
import { VERDICT_WORD } from './format.js'
import type { PartTable, ReportPart } from '../model/measurement-part.js'
import type { Verdict } from '../model/verdict.js'

export type Paint = (text: string, tone: 'green' | 'red' | 'yellow' | 'dim' | 'bold') => string

const TONE: Record<Verdict, 'green' | 'red' | 'yellow'> = { pass: 'green', fail: 'red', error: 'red', inconclusive: 'yellow' }

function safe(text: string, max: number): string {
  return truncateText(escapeTerminal(text), max)
}

function tableLines(table: PartTable, paint: Paint): string[] {
  const right = new Set(table.numeric ?? [])
  const header = table.columns.map(c => safe(c.toUpperCase(), 40))
  const rows = table.rows.map(row => row.map(cell => safe(cell, 60)))
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => (r[i] ?? '').length)))
  const pad = (cells: string[]): string[] => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
  const out = [paint(pad(header).join('  ').trimEnd(), 'bold')]
  rows.forEach((cells, r) => {
    const padded = pad(cells)
    const verdict = table.verdicts?.[r]
    if (verdict) padded[0] = paint(padded[0], TONE[verdict])
    out.push(padded.join('  ').trimEnd())
  })
  return out
}

export function renderPartConsole(part: ReportPart, paint: Paint): string[] {
  const word = part.verdict === null ? part.summary : `${VERDICT_WORD[part.verdict]} (${part.summary})`
  const head = `${safe(part.title, 60)}: ${safe(word, 200)}`
  const out = ['', part.verdict === null ? paint(head, 'bold') : paint(head, TONE[part.verdict])]
  for (const table of part.tables) if (!table.page_only && table.rows.length > 0) out.push(...tableLines(table, paint))
  for (const line of part.lines) out.push(`  ${safe(line, 400)}`)
  return out
}

export function renderPartsConsole(parts: readonly ReportPart[] | undefined, paint: Paint): string[] {
  return (parts ?? []).flatMap(part => renderPartConsole(part, paint))
}
