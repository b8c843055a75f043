/// <reference lib="dom" />
/**
 * The holistic grid in report.html, in full (docs/report.md "The holistic grid"): one row per run
 * entry, one column per metric family, each cell its state and verdict with the reason written
 * out, required families marked. Bundled into the page with html-client.ts (it imports only
 * types); every text goes in through `textContent` (the `el` the page gives it).
 */
import type { HolisticCell, HolisticGrid } from '../model/holistic-grid.js'

type El = (
  tag: 'section' | 'h2' | 'table' | 'tr' | 'th' | 'td' | 'p' | 'span',
  attrs?: Record<string, string>,
  ...children: (Node | string | null)[]
) => HTMLElement

const TITLE: Record<HolisticCell['family'], string> = {
  accuracy: 'Accuracy',
  calibration: 'Calibration',
  robustness: 'Robustness',
  fairness: 'Fairness',
  bias: 'Bias',
  toxicity: 'Toxicity',
  efficiency: 'Efficiency',
  answer_length: 'Answer length',
  fidelity: 'Fidelity'
}

function cellBox(el: El, cell: HolisticCell): HTMLElement {
  const head =
    cell.state === 'blank' ? 'blank' : cell.state === 'shown' ? `shown${cell.verdict ? `: ${cell.verdict}` : ''}` : String(cell.verdict)
  const classes = ['grid-cell', cell.state, cell.state === 'gated' ? String(cell.verdict) : '', cell.required ? 'required' : ''].filter(
    Boolean
  )
  return el(
    'td',
    { class: classes.join(' ') },
    el('span', { class: 'grid-state' }, cell.required ? `${head} (required)` : head),
    el('span', { class: 'grid-reason' }, cell.reason)
  )
}

/** The grid's section, or null when the report has none. */
export function gridSection(el: El, grid: HolisticGrid | undefined): HTMLElement | null {
  if (!grid || grid.rows.length === 0) return null
  const families = grid.families.filter(f => f !== 'fidelity')
  const box = el('section', { id: 'holistic' }, el('h2', {}, 'Holistic grid'))
  box.append(
    el(
      'table',
      { class: 'holistic' },
      el('tr', {}, el('th', {}, 'Entry'), ...families.map(f => el('th', {}, `${TITLE[f]}${grid.required.includes(f) ? ' *' : ''}`))),
      ...grid.rows.map(row => el('tr', {}, el('td', {}, row.entry), ...row.cells.map(cell => cellBox(el, cell))))
    )
  )
  for (const cell of grid.gate) {
    box.append(
      el(
        'p',
        { class: 'note' },
        `Whole gate, ${TITLE[cell.family]}${cell.required ? ' (required)' : ''}: ${cell.state === 'blank' ? 'blank' : String(cell.verdict)}: ${cell.reason}`
      )
    )
  }
  box.append(
    el(
      'p',
      { class: 'note' },
      'A gated cell is the verdict of its rows; shown: measured, information only; blank: not measured, with the reason. * required by the gate file (require:): not gated is an error.'
    )
  )
  return box
}
