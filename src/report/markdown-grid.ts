/**
 * The holistic grid in the PR comment (docs/report.md "The holistic grid"), compact: one row per
 * run entry, one narrow column per metric family, a verdict mark where gated, `·` where shown
 * only, `–` where blank; the blank cells' reasons listed once under the table (the same reason
 * for several entries is said once), required families starred. Folded in a <details> so that it
 * costs the comment one line until opened. Pure; entries come from the gate file and are escaped.
 */
import { escapeInline } from './escape.js'
import { VERDICT_EMOJI } from './format.js'
import type { HolisticCell, HolisticGrid } from '../model/holistic-grid.js'

/** Column headings short enough that nine columns fit the comment at 800 px. */
const HEADING: Record<HolisticCell['family'], string> = {
  accuracy: 'acc',
  calibration: 'cal',
  robustness: 'rob',
  fairness: 'fair',
  bias: 'bias',
  toxicity: 'tox',
  efficiency: 'eff',
  answer_length: 'len',
  fidelity: 'fid'
}

function mark(cell: HolisticCell): string {
  if (cell.state === 'blank') return cell.required ? '⛔ –' : '–'
  if (cell.state === 'shown') return cell.verdict ? `· ${VERDICT_EMOJI[cell.verdict]}` : '·'
  return cell.verdict ? VERDICT_EMOJI[cell.verdict] : '·'
}

export function renderGridMarkdown(grid: HolisticGrid | undefined): string[] {
  if (!grid || grid.rows.length === 0) return []
  const families = grid.families.filter(f => f !== 'fidelity')
  const all = [...grid.rows.flatMap(r => r.cells), ...grid.gate]
  const gated = new Set(all.filter(c => c.state === 'gated').map(c => c.family)).size
  const blanks = all.filter(c => c.state === 'blank').length
  const heading = (f: HolisticCell['family']): string => `${HEADING[f]}${grid.required.includes(f) ? '*' : ''}`
  const lines = [
    '<details>',
    `<summary>Holistic grid: ${gated} of ${grid.families.length} families gated, ${blanks} blank ${blanks === 1 ? 'cell' : 'cells'}</summary>`,
    '',
    `| Entry | ${families.map(heading).join(' | ')} |`,
    `|---|${families.map(() => ':-:').join('|')}|`
  ]
  for (const row of grid.rows) lines.push(`| ${escapeInline(row.entry, 40)} | ${row.cells.map(mark).join(' | ')} |`)
  for (const cell of grid.gate) lines.push('', `Whole gate, ${heading(cell.family)}: ${mark(cell)} ${escapeInline(cell.reason, 200)}`)
  const reasons = new Map<string, string[]>()
  for (const row of grid.rows) {
    for (const cell of row.cells.filter(c => c.state === 'blank')) {
      const key = `${HEADING[cell.family]}: ${cell.reason}`
      reasons.set(key, [...(reasons.get(key) ?? []), row.entry])
    }
  }
  lines.push('', '_✅ ❌ 🟡 ⛔ gated verdict · `·` measured, shown only · `–` blank (why below) · `*` required (`require:`)._', '')
  for (const [reason, entries] of reasons) {
    const where = entries.length === grid.rows.length ? 'every entry' : entries.map(e => escapeInline(e, 40)).join(', ')
    lines.push(`- ${escapeInline(reason, 200)} (${where})`)
  }
  lines.push('', '</details>', '')
  return lines
}
