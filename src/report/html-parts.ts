/// <reference lib="dom" />
/**
 * Each measurement's part (report.parts, model/measurement-part.ts) in report.html: a section with
 * its verdict, every table (the page's detail tables included), its sentences and its pair strips.
 * It names no measurement. Bundled into the page with html-client.ts (it imports only types);
 * every text goes in through `textContent` (the `el` the page gives it).
 */
import type { PartStrip, PartTable, ReportPart } from '../model/measurement-part.js'

type El = (
  tag: 'section' | 'h2' | 'h3' | 'table' | 'thead' | 'tbody' | 'tr' | 'th' | 'td' | 'p' | 'span' | 'div' | 'ul' | 'li',
  attrs?: Record<string, string>,
  ...children: (Node | string | null)[]
) => HTMLElement

/** Whitespace made visible, so a changed space or line break can be seen in a token. */
function visible(text: string): string {
  return text.replace(/ /g, '␣').replace(/\n/g, '⏎').replace(/\t/g, '⇥')
}

/** Red below zero, green above; the stronger, the larger the value. */
function shade(value: number): string {
  const alpha = Math.min(1, Math.abs(value)) * 0.85
  return value < 0 ? `rgba(207, 34, 46, ${alpha.toFixed(3)})` : `rgba(26, 127, 55, ${alpha.toFixed(3)})`
}

function tableBox(el: El, key: string, table: PartTable): HTMLElement {
  const right = new Set(table.numeric ?? [])
  const rows = table.rows.map((row, r) =>
    el(
      'tr',
      table.verdicts?.[r] ? { class: String(table.verdicts[r]) } : {},
      ...row.map((cell, i) =>
        el('td', i === 0 && table.verdicts?.[r] ? { class: 'verdict-cell' } : right.has(i) ? { class: 'num' } : {}, cell)
      )
    )
  )
  return el(
    'table',
    { class: `part-table ${key}-table` },
    el('thead', {}, el('tr', {}, ...table.columns.map(c => el('th', {}, c)))),
    el('tbody', {}, ...rows)
  )
}

function stripBox(el: El, key: string, strip: PartStrip): HTMLElement {
  const row = el('div', { class: 'token-strip' })
  for (const cell of strip.cells) {
    row.append(
      el(
        'span',
        {
          class: cell.marked ? 'token-pair differs' : 'token-pair',
          style: `background-color: ${shade(cell.value)}`,
          title: cell.title,
          'data-value': String(cell.value)
        },
        el('span', { class: 'token baseline' }, visible(cell.above)),
        el('span', { class: 'token candidate' }, cell.below === null ? '—' : visible(cell.below))
      )
    )
  }
  return el(
    'div',
    { class: `${key}-instance part-strip`, 'data-id': strip.id },
    el('div', { class: 'answer-head' }, strip.label),
    el('div', { class: 'label' }, strip.legend),
    row
  )
}

export function partSection(el: El, part: ReportPart): HTMLElement {
  const word = part.verdict === null ? part.summary : `${part.verdict} (${part.summary})`
  const box = el('section', { id: part.key, class: 'part' }, el('h2', {}, part.title), el('p', { class: part.verdict ?? 'note' }, word))
  for (const table of part.tables) if (table.rows.length > 0) box.append(tableBox(el, part.key, table))
  for (const line of part.lines) box.append(el('p', { class: 'note' }, line))
  for (const strip of part.strips ?? []) box.append(stripBox(el, part.key, strip))
  return box
}

export function partSections(el: El, parts: readonly ReportPart[] | undefined): HTMLElement[] {
  return (parts ?? []).map(part => partSection(el, part))
}
