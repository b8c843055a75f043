/// <reference lib="dom" />
/**
 * The script of report.html, run in the reader's browser: its own bundle entry
 * (scripts/build-report-page.mjs bundles it into html-client.bundle.ts, which html.ts embeds),
 * typed against the report model. It imports types and the page modules (plot-labels.ts,
 * load-schedule.ts, sequence-plot.ts and the html-*.ts sections: the header, the load half, the
 * answers' diff, the grid, the sequential verdicts, the parts), which import only types and each
 * other: nothing of Node may reach the page.
 *
 * Everything shown comes from the JSON block `#helm-gate-data` and is inserted with
 * `textContent` or as SVG attributes: model output, prompts and run names are untrusted and never
 * become markup.
 */
import type { CalibrationRow, ChangedExample, Comparison, EfficiencyEntry, Report } from '../model/report.js'
import type { IdentityDiffers } from '../model/side-identity.js'
import { fullLabel, plotLabels } from './plot-labels.js'
import { headerSection } from './html-header.js'
import { loadSection } from './html-load.js'
import { diffSegments } from './html-diff.js'
import { gridSection } from './html-grid.js'
import { sequentialSection } from './html-sequential.js'
import { partSections } from './html-parts.js'

/** What html.ts embeds in `#helm-gate-data`. */
interface PageData {
  report: Report
  changed: Record<string, ChangedExample[]>
  /** Per header row: the sides differ (computed by html.ts from model/side-identity.ts). */
  differs: IdentityDiffers
}
const data = JSON.parse(document.getElementById('helm-gate-data')!.textContent!) as PageData
const report = data.report
const changed = data.changed
const comparisons = report.comparisons
const root = document.getElementById('app')!
const SVG = 'http://www.w3.org/2000/svg'

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  for (const child of children) if (child !== null) node.append(child instanceof Node ? child : document.createTextNode(child))
  return node
}
function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(SVG, tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v))
  return node
}
function num(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—'
  if (Number.isInteger(value)) return String(value)
  const magnitude = Math.floor(Math.log10(Math.abs(value)))
  return value.toFixed(Math.min(4, Math.max(0, 3 - magnitude)))
}
function signed(value: unknown): string {
  const text = num(value)
  return typeof value === 'number' && value > 0 && !/^0(\.0*)?$/.test(text) ? `+${text}` : text
}
const verdictOf = (c: Comparison): string => (c.gated ? c.verdict : 'info')
const marginOf = (c: Comparison): number => (c.direction === 'lower' ? c.max_drop : -c.max_drop)
const labelOf = (c: Comparison): string => fullLabel(c)

// ---- filters shared by the plot, the table and the answers
const state = { run: '', perturbation: '', direction: '', search: '', stratum: '' }
const PERTURBATION_CLEAN = '(clean)'
const perturbationOf = (c: Comparison): string => c.perturbation ?? PERTURBATION_CLEAN
const comparisonShown = (c: Comparison): boolean =>
  (state.run === '' || c.run === state.run) && (state.perturbation === '' || perturbationOf(c) === state.perturbation)

function filters(onChange: () => void): HTMLElement {
  const select = (name: 'run' | 'perturbation' | 'stratum', label: string, values: string[]): HTMLElement => {
    const s = el('select', { id: `filter-${name}`, 'aria-label': label }, el('option', { value: '' }, `all ${label}`))
    for (const v of values) s.append(el('option', { value: v }, v))
    s.addEventListener('change', () => {
      state[name] = s.value
      onChange()
    })
    return s
  }
  const runs = [...new Set(comparisons.map(c => c.run))].sort()
  const perturbations = [...new Set(comparisons.map(perturbationOf))].sort()
  // Traffic rows' changed answers carry their stratum (`<tag>/<length>`): a filter when there are any.
  const strata = [
    ...new Set(
      Object.values(changed)
        .flat()
        .map(e => e.stratum)
        .filter((v): v is string => typeof v === 'string')
    )
  ].sort()
  const direction = el(
    'select',
    { id: 'filter-direction', 'aria-label': 'changed answers' },
    el('option', { value: '' }, 'won and lost'),
    el('option', { value: 'won' }, 'won (better)'),
    el('option', { value: 'lost' }, 'lost (worse)')
  )
  direction.addEventListener('change', () => {
    state.direction = direction.value
    onChange()
  })
  const search = el('input', { id: 'filter-search', type: 'search', placeholder: 'search answers, inputs, ids', 'aria-label': 'search' })
  search.addEventListener('input', () => {
    state.search = search.value.toLowerCase()
    onChange()
  })
  return el(
    'div',
    { class: 'filters' },
    select('run', 'runs', runs),
    select('perturbation', 'perturbations', perturbations),
    ...(strata.length > 0 ? [select('stratum', 'strata', strata)] : []),
    direction,
    search
  )
}

// ---- forest plot: each comparison's interval and delta against its tolerated change
function forest(): SVGElement {
  const rows = comparisons.filter(comparisonShown)
  const values: number[] = [0]
  for (const c of rows)
    for (const v of [c.ci.low, c.ci.high, c.delta, marginOf(c)]) if (typeof v === 'number' && Number.isFinite(v)) values.push(v)
  let min = Math.min(...values)
  let max = Math.max(...values)
  const pad = (max - min) * 0.05 || 0.01
  min -= pad
  max += pad
  const left = 280
  const width = 440
  const rowHeight = 24
  const height = rows.length * rowHeight + 40
  const x = (v: number): number => left + ((v - min) / (max - min)) * width
  const right = 40
  const plot = svg('svg', {
    id: 'forest',
    width: left + width + right,
    height,
    viewBox: `0 0 ${left + width + right} ${height}`,
    'data-min': min,
    'data-max': max,
    'data-left': left,
    'data-width': width,
    role: 'img'
  })
  plot.append(svg('line', { x1: x(0), x2: x(0), y1: 0, y2: height - 30, class: 'zero' }))
  // 44 characters fit beside the plot at 11 px (the label column is 280 px wide).
  const shown = plotLabels(rows, 44)
  rows.forEach((c, i) => {
    const y = 16 + i * rowHeight
    const label = svg('text', { x: 4, y: y + 4, class: 'label' })
    label.textContent = shown[i]
    const title = svg('title', {})
    title.textContent = `${labelOf(c)}: ${signed(c.delta)} [${signed(c.ci.low)}, ${signed(c.ci.high)}], tolerated ${signed(marginOf(c))}, ${verdictOf(c)}`
    const group = svg('g', { class: `row ${verdictOf(c)}`, 'data-id': c.id })
    group.append(title, label)
    group.append(svg('line', { x1: x(marginOf(c)), x2: x(marginOf(c)), y1: y - 9, y2: y + 9, class: 'margin' }))
    if (Number.isFinite(c.ci.low) && Number.isFinite(c.ci.high))
      group.append(svg('line', { x1: x(c.ci.low), x2: x(c.ci.high), y1: y, y2: y, class: 'ci' }))
    if (Number.isFinite(c.delta)) group.append(svg('circle', { cx: x(c.delta), cy: y, r: 5, class: 'mark', 'data-id': c.id }))
    plot.append(group)
  })
  // Ticks at round values (1, 2 or 5 times a power of ten) so that at most about five labels
  // share the axis; a label that would still touch its neighbour is left out (the three fixed
  // ticks this replaced could land on one another: min, 0 and max close together).
  const rough = (max - min) / 4
  const power = Math.pow(10, Math.floor(Math.log10(rough)))
  const step = [1, 2, 5, 10].map(f => f * power).find(s => s >= rough) ?? 10 * power
  const digits = Math.max(0, -Math.floor(Math.log10(step)))
  const tickText = (v: number): string => {
    const rounded = Math.abs(v) < step / 2 ? 0 : v
    const text = rounded.toFixed(digits)
    return rounded > 0 ? `+${text}` : text
  }
  const CHAR_WIDTH = 7
  let lastRight = -Infinity
  for (let k = Math.ceil(min / step); k * step <= max; k++) {
    const v = k * step
    const text = tickText(v)
    const half = (text.length * CHAR_WIDTH) / 2
    const at = x(v)
    if (at - half < lastRight + 8) continue
    lastRight = at + half
    plot.append(svg('line', { x1: at, x2: at, y1: height - 30, y2: height - 25, class: 'tick' }))
    const t = svg('text', { x: at, y: height - 10, class: 'axis', 'text-anchor': 'middle', 'data-value': v })
    t.textContent = text
    plot.append(t)
  }
  return plot
}

// ---- the comparisons table, sortable by any column
const columns: [string, (c: Comparison) => string | number][] = [
  ['Verdict', verdictOf],
  ['Run', c => c.run],
  ['Metric', c => c.metric],
  ['Split', c => c.split ?? ''],
  ['Perturbation', c => c.perturbation ?? ''],
  ['n', c => c.n],
  ['Baseline', c => c.baseline_mean],
  ['Candidate', c => c.candidate_mean],
  ['Δ', c => c.delta],
  ['Interval', c => c.ci.low],
  ['Tolerated', marginOf],
  ['Better / worse', c => (c.direction === 'lower' ? c.losses : c.wins) - (c.direction === 'lower' ? c.wins : c.losses)]
]
const sort = { column: -1, descending: false }
function table(): HTMLElement {
  const rows = comparisons.filter(comparisonShown)
  if (sort.column >= 0) {
    const read = columns[sort.column][1]
    rows.sort((a, b) => {
      const va = read(a)
      const vb = read(b)
      const order = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb))
      return sort.descending ? -order : order
    })
  }
  const head = el('tr', {})
  columns.forEach(([name], i) => {
    const th = el(
      'th',
      { 'data-column': String(i), class: sort.column === i ? (sort.descending ? 'sorted desc' : 'sorted asc') : '' },
      name
    )
    th.addEventListener('click', () => {
      sort.descending = sort.column === i ? !sort.descending : false
      sort.column = i
      redraw()
    })
    head.append(th)
  })
  const body = rows.map(c => {
    const better = c.direction === 'lower' ? c.losses : c.wins
    const worse = c.direction === 'lower' ? c.wins : c.losses
    return el(
      'tr',
      { 'data-id': c.id, class: verdictOf(c) },
      el('td', { class: 'verdict-cell' }, verdictOf(c)),
      el('td', {}, c.run),
      el('td', {}, `${c.metric}${c.direction === 'lower' ? ' (lower is better)' : ''}`),
      el('td', {}, c.split ?? '—'),
      el('td', {}, c.perturbation ?? '—'),
      el('td', { class: 'num' }, String(c.n)),
      el('td', { class: 'num' }, num(c.baseline_mean)),
      el('td', { class: 'num' }, num(c.candidate_mean)),
      el('td', { class: 'num' }, signed(c.delta)),
      el('td', { class: 'num' }, `[${signed(c.ci.low)}, ${signed(c.ci.high)}]`),
      el('td', { class: 'num' }, signed(marginOf(c))),
      el('td', { class: 'num' }, `+${better} / -${worse}`, directionP(c))
    )
  })
  return el('table', { id: 'comparisons' }, el('thead', {}, head), el('tbody', {}, ...body))
}

// ---- the direction of a change: information only, never a verdict
/** McNemar's p under the counts, where the row's answers are right or wrong. */
function directionP(c: Comparison): HTMLElement | null {
  const d = c.change_direction
  if (!d || d.kind === 'absent') return null
  // On its own line: the cell does not wrap (td.num), and the table must not widen the page.
  return el('span', { class: 'direction-p' }, el('br'), `(p ${d.p_value < 0.01 ? '< 0.01' : d.p_value.toFixed(2)})`)
}
/** One sentence per row whose answers moved (churn, a gain, a drop), with the split by the baseline's margin or why there is none. */
function direction(): HTMLElement | null {
  const lines: HTMLElement[] = []
  for (const c of comparisons) {
    const d = c.change_direction
    if (!d || d.kind === 'absent' || d.kind === 'none') continue
    const margin = d.margin
      ? ` (sure: +${d.margin.sure.won} / -${d.margin.sure.lost}; not sure: +${d.margin.unsure.won} / -${d.margin.unsure.lost}; sure is max_prob ≥ ${d.margin.sure_at})`
      : `; no split by the baseline's margin: ${d.margin_reason ?? 'unknown'}`
    lines.push(el('li', { 'data-id': c.id, class: `direction ${d.kind}` }, `${labelOf(c)}: ${d.sentence}${margin}`))
  }
  if (!lines.length) return null
  return el(
    'section',
    { id: 'direction' },
    el('h2', {}, 'Direction'),
    el('p', { class: 'note' }, "Information only, never a verdict: answers won and lost, McNemar's exact p-value."),
    el('ul', {}, ...lines)
  )
}

// ---- changed answers, side by side with the differing characters marked (html-diff.ts)
function answers(): HTMLElement {
  const box = el('div', { id: 'answers' })
  let shown = 0
  for (const c of comparisons) {
    if (!comparisonShown(c)) continue
    const list = changed[c.id] ?? c.examples ?? []
    if (!list.length) continue
    const cards: HTMLElement[] = []
    for (const e of list) {
      const better = c.direction === 'lower' ? e.candidate_value < e.baseline_value : e.candidate_value > e.baseline_value
      if (state.direction === 'won' && !better) continue
      if (state.direction === 'lost' && better) continue
      if (state.stratum && e.stratum !== state.stratum) continue
      if (state.search) {
        const haystack = [e.instance_id, e.input, e.reference, e.failed_check ?? '', e.baseline_output, e.candidate_output]
          .join('\n')
          .toLowerCase()
        if (!haystack.includes(state.search)) continue
      }
      const [b, k] = diffSegments(el, String(e.baseline_output ?? ''), String(e.candidate_output ?? ''))
      cards.push(
        el(
          'div',
          { class: `answer ${better ? 'won' : 'lost'}`, 'data-instance': e.instance_id },
          el(
            'div',
            { class: 'answer-head' },
            `${e.instance_id}${e.stratum ? ` [${e.stratum}]` : ''} (trial ${e.train_trial_index}): ${num(e.baseline_value)} → ${num(e.candidate_value)}, ${better ? 'better' : 'worse'}`
          ),
          el('div', { class: 'io' }, el('div', { class: 'label' }, 'Input'), el('pre', {}, String(e.input ?? ''))),
          el('div', { class: 'io' }, el('div', { class: 'label' }, 'Reference'), el('pre', {}, String(e.reference ?? ''))),
          ...(e.failed_check
            ? [el('div', { class: 'io' }, el('div', { class: 'label' }, 'Failed check'), el('pre', {}, String(e.failed_check)))]
            : []),
          el(
            'div',
            { class: 'outputs' },
            el('div', {}, el('div', { class: 'label' }, 'Baseline output'), el('pre', { class: 'baseline' }, ...b)),
            el('div', {}, el('div', { class: 'label' }, 'Candidate output'), el('pre', { class: 'candidate' }, ...k))
          )
        )
      )
    }
    if (!cards.length) continue
    shown += cards.length
    const details = el(
      'details',
      { 'data-id': c.id, open: '' },
      el('summary', {}, `${labelOf(c)}: ${cards.length} of ${list.length} changed answers`),
      ...cards
    )
    box.append(details)
  }
  box.prepend(el('p', { id: 'answers-count' }, `${shown} changed answers shown`))
  return box
}

// ---- efficiency and calibration (the load half is html-load.ts)
/**
 * report.calibrations: per run that gates it, the rise of ECE or Brier (candidate minus baseline)
 * with its interval against the tolerated rise. Four decimals, as the comment shows them.
 */
function calibration(): HTMLElement | null {
  const rows: CalibrationRow[] = report.calibrations ?? []
  if (!rows.length) return null
  const d = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(4)}`
  const box = el('section', { id: 'calibration' }, el('h2', {}, 'Calibration'))
  box.append(
    el(
      'table',
      { class: 'calibration' },
      el(
        'tr',
        {},
        ...['Verdict', 'Run', 'Metric', 'Rise (C − B) [interval]', 'Tolerates', 'Baseline → candidate', 'n'].map(h => el('th', {}, h))
      ),
      ...rows.map((c: CalibrationRow) =>
        el(
          'tr',
          { class: String(c.verdict) },
          el('td', { class: 'verdict-cell' }, String(c.verdict)),
          el('td', {}, String(c.run)),
          el('td', {}, c.metric === 'ece' ? 'ECE (10 bins)' : 'Brier'),
          el('td', { class: 'num' }, `${d(c.delta)} [${d(c.ci.low)}, ${d(c.ci.high)}]`),
          el('td', { class: 'num' }, d(c.max_increase)),
          el('td', { class: 'num' }, `${c.baseline.toFixed(4)} → ${c.candidate.toFixed(4)}`),
          el('td', { class: 'num' }, String(c.n))
        )
      )
    )
  )
  for (const c of rows.filter(r => r.verdict !== 'pass')) box.append(el('p', { class: 'note' }, `${c.run}: ${c.reason}`))
  return box
}

function efficiency(): HTMLElement | null {
  const entries: EfficiencyEntry[] = report.efficiency
  if (!entries.length) return null
  const ms = (s: number): string => (Math.abs(s) < 10 ? `${num(s * 1000)} ms` : `${num(s)} s`)
  const ratio = (r: EfficiencyEntry['median_ratio']): string => `${num(r.estimate)}× [${num(r.low)}, ${num(r.high)}]`
  const box = el('section', { id: 'efficiency' }, el('h2', {}, 'Efficiency: request times (information only, not gated)'))
  if (report.context?.concurrent)
    box.append(
      el(
        'p',
        { class: 'note' },
        'Both sides ran at the same time on one machine: the ratios reflect the shared client as much as the servers.'
      )
    )
  box.append(
    el(
      'table',
      {},
      el('tr', {}, ...['Run', 'n', 'Median baseline', 'Median candidate', 'Median ratio', 'p90 ratio'].map(h => el('th', {}, h))),
      ...entries.map(e =>
        el(
          'tr',
          {},
          el('td', {}, e.run),
          el('td', {}, String(e.n)),
          el('td', {}, ms(e.baseline_median)),
          el('td', {}, ms(e.candidate_median)),
          el('td', {}, ratio(e.median_ratio)),
          el('td', {}, ratio(e.p90_ratio))
        )
      )
    )
  )
  return box
}

// ---- layout
const plotBox = el('section', { id: 'plot' }, el('h2', {}, 'Forest plot'))
const tableBox = el('section', { id: 'table' }, el('h2', {}, 'Comparisons'))
const answersBox = el('section', { id: 'changed' }, el('h2', {}, 'Changed answers'))
function redraw(): void {
  plotBox.replaceChildren(plotBox.firstChild!, forest())
  tableBox.replaceChildren(tableBox.firstChild!, table())
  answersBox.replaceChildren(answersBox.firstChild!, answers())
}
root.append(headerSection(el, report, data.differs), filters(redraw), plotBox, tableBox)
const directionBox = direction()
if (directionBox) root.append(directionBox)
root.append(answersBox)
const eff = efficiency()
if (eff) root.append(eff)
const calibrationBox = calibration()
if (calibrationBox) root.append(calibrationBox)
const gridBox = gridSection(el, report.holistic)
if (gridBox) root.append(gridBox)
const sequentialBox = sequentialSection(el, svg, comparisons)
if (sequentialBox) root.append(sequentialBox)
const loadBox = loadSection(el, report.load)
if (loadBox) root.append(loadBox)
// Each measurement's part (report.parts): it says what it shows.
root.append(...partSections(el, report.parts))
for (const note of report.notes) root.append(el('p', { class: 'note' }, note))
redraw()
