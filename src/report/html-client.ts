/// <reference lib="dom" />
/**
 * The script of report.html, run in the reader's browser: its own bundle entry
 * (scripts/build-report-page.mjs bundles it into html-client.bundle.ts, which html.ts embeds),
 * typed against the report model. It imports types and plot-labels.ts, which imports nothing:
 * nothing of Node may reach the page.
 *
 * Everything shown comes from the JSON block `#helm-gate-data` and is inserted with
 * `textContent` or as SVG attributes: model output, prompts and run names are untrusted and never
 * become markup.
 */
import type { FidelityReport } from '../model/fidelity-report.js'
import type { LoadCheckResult, LoadInterval, LoadReport, LoadRatio } from '../model/load-report.js'
import type { CalibrationRow, ChangedExample, Comparison, EfficiencyEntry, ReportIssue, SideInfo, Report } from '../model/report.js'
import type { IdentityDiffers, IdentityRow, ServingRow } from '../model/side-identity.js'
import { fullLabel, plotLabels } from './plot-labels.js'
import { loadScheduleText } from './load-schedule.js'
import { gridSection } from './html-grid.js'

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

// ---- header: verdict, headline, sides, issues
function header(): HTMLElement {
  const box = el(
    'header',
    {},
    el('h1', { class: `verdict ${report.verdict}` }, `helm-gate: ${report.verdict}`),
    el('p', {}, report.headline)
  )
  const sides = el('table', { class: 'sides' })
  const row = (label: string, read: (s: SideInfo) => string, key?: IdentityRow): void => {
    const cells = [read(report.baseline), read(report.candidate)]
    if (cells.every(c => c === '')) return
    const marked = key !== undefined && data.differs?.[key] === true
    sides.append(
      el(
        'tr',
        marked ? { class: 'differs' } : {},
        el('th', {}, marked ? `${label} (differs)` : label),
        ...cells.map(c => el('td', {}, c || '—'))
      )
    )
  }
  sides.append(el('tr', {}, el('th', {}, ''), el('th', {}, 'Baseline'), el('th', {}, 'Candidate')))
  row(
    'Deployment',
    s => {
      const id = s.identity
      return [id?.model ?? s.deployment, id?.host ? `on ${id.host}` : '', id?.api ? `(${id.api})` : ''].filter(Boolean).join(' ')
    },
    'deployment'
  )
  row(
    'Engine',
    s => {
      const e = s.identity?.engine
      if (!e) return ''
      return [
        e.version && `version ${e.version}`,
        e.root && `weights ${e.root}`,
        e.max_model_len !== null && `context ${e.max_model_len}`,
        e.owned_by && `by ${e.owned_by}`,
        e.details
      ]
        .filter(Boolean)
        .join(' · ')
    },
    'engine'
  )
  // The serving configuration, compared when the report was built: a row whose sides differ is marked.
  const serving = report.context?.serving
  const servingRow = (label: string, r: ServingRow | null | undefined): void => {
    if (!r) return
    sides.append(
      el(
        'tr',
        r.differs ? { class: 'differs' } : {},
        el('th', {}, r.differs ? `${label} (differs)` : label),
        el('td', {}, r.baseline || '—'),
        el('td', {}, r.candidate || '—')
      )
    )
  }
  servingRow('Chat template', serving?.chat_template)
  // What the harness's own requests sent (HELM's adapter spec), beside what the server would default to.
  row('Sampling (requests)', s => s.requested_sampling?.cell ?? '', 'requested_sampling')
  servingRow('Sampling (server defaults)', serving?.sampling)
  row(
    'Image',
    s => {
      const i = s.identity?.image
      if (!i) return ''
      return [i.name, i.digest ? `digest ${i.digest}` : i.id ? `image id ${i.id} (no registry digest)` : 'digest unknown'].join(' · ')
    },
    'image'
  )
  row(
    'Weights',
    s => {
      const w = s.identity?.weights
      if (!w) return ''
      return [w.file, w.sha256 ? `sha256 ${w.sha256}` : (w.error ?? '')].filter(Boolean).join(' · ')
    },
    'weights'
  )
  row('HELM', s => s.helm_version ?? '')
  row('Source', s => {
    const o = s.identity?.origin
    if (!o) return ''
    if (o.kind !== 'archived') return o.kind === 'run' ? 'run by this gate' : `from ${o.artifact_name ?? 'shard artifacts'}`
    return [
      'archived',
      o.workflow_run_id !== undefined && `run ${o.workflow_run_id}`,
      o.age_hours !== undefined && `${Math.round(o.age_hours)} h old`
    ]
      .filter(Boolean)
      .join(', ')
  })
  box.append(sides)
  const s = report.settings
  const fingerprint = report.context?.fingerprint
  box.append(
    el(
      'p',
      { class: 'settings' },
      `${fingerprint ? `Gate set ${String(fingerprint).slice(0, 16)} · ` : ''}${Math.round(s.confidence * 1000) / 10}% intervals (${s.interval}), ${s.resamples} resamples, seed ${s.seed}`
    )
  )
  for (const [kind, list] of [
    ['errors', report.errors],
    ['warnings', report.warnings]
  ] as const) {
    if (!list.length) continue
    box.append(el('h2', {}, `${kind === 'errors' ? 'Errors' : 'Warnings'} (${list.length})`))
    box.append(el('ul', { class: kind }, ...list.map((i: ReportIssue) => el('li', {}, el('code', {}, i.code), ' ', i.message))))
  }
  return box
}

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

// ---- changed answers, side by side with the differing characters marked
function diffSegments(a: string, b: string): [Node[], Node[]] {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const midA = a.slice(start, endA)
  const midB = b.slice(start, endB)
  const mark = (text: string): Node => el('mark', {}, text)
  const text = (t: string): Node => document.createTextNode(t)
  // Character LCS of the differing middle when it is small; otherwise the whole middle is marked.
  if (midA.length * midB.length > 0 && midA.length * midB.length <= 250_000) {
    const n = midA.length
    const m = midB.length
    const table = new Uint16Array((n + 1) * (m + 1))
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * (m + 1) + j] =
          midA[i] === midB[j] ? table[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1])
      }
    }
    const outA: Node[] = [text(a.slice(0, start))]
    const outB: Node[] = [text(b.slice(0, start))]
    let i = 0
    let j = 0
    let same = ''
    let onlyA = ''
    let onlyB = ''
    const flush = (): void => {
      if (onlyA) outA.push(mark(onlyA))
      if (onlyB) outB.push(mark(onlyB))
      onlyA = ''
      onlyB = ''
    }
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        flush()
        same += midA[i]
        i++
        j++
        continue
      }
      if (same) {
        outA.push(text(same))
        outB.push(text(same))
        same = ''
      }
      if (j >= m || (i < n && table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1])) onlyA += midA[i++]
      else onlyB += midB[j++]
    }
    flush()
    if (same) {
      outA.push(text(same))
      outB.push(text(same))
    }
    outA.push(text(a.slice(endA)))
    outB.push(text(b.slice(endB)))
    return [outA, outB]
  }
  return [
    [text(a.slice(0, start)), ...(midA ? [mark(midA)] : []), text(a.slice(endA))],
    [text(b.slice(0, start)), ...(midB ? [mark(midB)] : []), text(b.slice(endB))]
  ]
}

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
      const [b, k] = diffSegments(String(e.baseline_output ?? ''), String(e.candidate_output ?? ''))
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

// ---- efficiency, and the load half
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

/**
 * The load half (report.load): its verdict, then per level one table with a row per metric
 * (baseline, candidate, the candidate/baseline ratio with its interval, and the checks on that
 * metric with their verdicts). Server-provided text (model names, reasons) goes in as text.
 */
function load(section: LoadReport | undefined): HTMLElement | null {
  if (!section) return null
  const box = el(
    'section',
    { id: 'load' },
    el('h2', { class: `load-verdict ${section.verdict}` }, `Load: ${section.verdict}`),
    el('p', {}, String(section.headline ?? ''))
  )
  if (section.skipped) {
    box.append(el('p', { class: 'note' }, String(section.skipped)))
    return box
  }
  const units: Record<string, string> = { output_tokens_per_second: 'tok/s', request_throughput: 'req/s', goodput: 'req/s' }
  const value = (metric: string, v: unknown): string => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return '—'
    if (metric === 'error_rate') return `${Number((v * 100).toPrecision(3))}%`
    return `${Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)} ${units[metric] ?? 'ms'}`
  }
  // As in the comment: three decimals (one from 10 up).
  const fixed = (v: number): string => v.toFixed(v >= 10 ? 1 : 3)
  const ratioText = (r: LoadInterval | null): string => (r ? `${fixed(r.estimate)}× [${fixed(r.low)}, ${fixed(r.high)}]` : '—')
  const levelName = (level: number): string => (section.mode === 'concurrency' ? `concurrency ${level}` : `${level} requests/s`)
  const checkText = (c: LoadCheckResult): string => {
    const op = c.kind === 'min_ratio' || c.kind === 'min' ? '≥' : '≤'
    const bound = String(c.kind).endsWith('ratio') ? `${c.threshold}×` : value(c.metric, c.threshold)
    return `${op} ${bound}: ${c.verdict}`
  }
  const ratios: LoadRatio[] = section.ratios ?? []
  const checks: LoadCheckResult[] = section.checks ?? []
  for (const level of section.levels ?? []) {
    const metrics = [...new Set([...ratios, ...checks].filter(r => r.level === level).map(r => String(r.metric)))]
    if (!metrics.length) continue
    const rows = metrics.map(metric => {
      const r = ratios.find(x => x.level === level && x.metric === metric)
      const own = checks.filter(c => c.level === level && c.metric === metric)
      const verdicts: string[] = own.map(c => c.verdict)
      const worst = ['error', 'fail', 'inconclusive', 'pass'].find(v => verdicts.includes(v)) ?? 'info'
      const checkCell = el('td', { class: 'checks' })
      own.forEach((c, i) => {
        if (i) checkCell.append(el('br'))
        checkCell.append(el('span', { class: `check ${c.verdict}`, title: String(c.reason ?? '') }, checkText(c)))
      })
      if (!own.length) checkCell.append('—')
      return el(
        'tr',
        { class: worst, 'data-metric': metric },
        el('td', {}, metric),
        el('td', { class: 'num' }, value(metric, r?.baseline ?? own[0]?.baseline)),
        el('td', { class: 'num' }, value(metric, r?.candidate ?? own[0]?.candidate)),
        el('td', { class: 'num' }, ratioText(r?.ratio ?? own[0]?.ratio ?? null)),
        el('td', { class: 'num' }, String(r?.pairs ?? own[0]?.pairs ?? '—')),
        checkCell
      )
    })
    box.append(
      el('h3', {}, levelName(level)),
      el(
        'table',
        { class: 'load-level', 'data-level': String(level) },
        el(
          'thead',
          {},
          el('tr', {}, ...['Metric', 'Baseline', 'Candidate', 'Ratio [interval]', 'Pairs', 'Checks'].map(h => el('th', {}, h)))
        ),
        el('tbody', {}, ...rows)
      )
    )
  }
  const open = checks.filter(c => c.verdict === 'inconclusive' || c.verdict === 'error')
  if (open.length)
    box.append(el('ul', { class: 'load-reasons' }, ...open.map(c => el('li', {}, `${c.metric} at ${levelName(c.level)}: ${c.reason}`))))
  for (const [kind, list] of [
    ['errors', section.errors ?? []],
    ['warnings', section.warnings ?? []]
  ] as const) {
    if (list.length)
      box.append(el('ul', { class: kind }, ...list.map((i: ReportIssue) => el('li', {}, el('code', {}, i.code), ' ', i.message))))
  }
  const st = section.settings ?? {}
  box.append(
    el(
      'p',
      { class: 'settings' },
      `${st.repetitions} blocks per side per level, ${loadScheduleText(section)}; intervals: ${st.interval_method}; percentiles: ${st.percentile_method}.`
    )
  )
  for (const note of section.notes ?? []) box.append(el('p', { class: 'note' }, note))
  return box
}

// ---- fidelity: the instances with the largest divergence, token by token

/** Whitespace made visible, so a changed space or line break can be seen in a token. */
function visibleToken(text: string): string {
  return text.replace(/ /g, '␣').replace(/\n/g, '⏎').replace(/\t/g, '⇥')
}

/** Red where the candidate gives the baseline's token less probability, green where more; the stronger, the larger |delta-p|. */
function deltaShade(deltaP: number): string {
  const alpha = Math.min(1, Math.abs(deltaP)) * 0.85
  return deltaP < 0 ? `rgba(207, 34, 46, ${alpha.toFixed(3)})` : `rgba(26, 127, 55, ${alpha.toFixed(3)})`
}

/**
 * report.fidelity: its checks, then each of the worst instances with the baseline's answer token by
 * token above the candidate's most likely token at the same position, every column shaded by
 * delta-p. Model text goes in with textContent only.
 */
function fidelity(section: FidelityReport | undefined): HTMLElement | null {
  if (!section) return null
  const box = el('section', { id: 'fidelity' }, el('h2', {}, 'Fidelity'))
  if (section.checks.length > 0) {
    const rows = section.checks.map(c =>
      el(
        'tr',
        { class: c.verdict },
        el('td', { class: 'verdict-cell' }, c.verdict),
        el('td', {}, `${c.metric} ${c.bound === 'min' ? '≥' : '≤'} ${String(c.threshold)}`),
        el('td', { class: 'num' }, `${num(c.figure.corrected)} [${num(c.figure.ci.low)}, ${num(c.figure.ci.high)}]`),
        el('td', { class: 'num' }, num(c.figure.candidate)),
        el('td', { class: 'num' }, num(c.figure.floor))
      )
    )
    box.append(
      el(
        'table',
        { class: 'fidelity-checks' },
        el('thead', {}, el('tr', {}, ...['verdict', 'check', 'value [interval]', 'candidate', 'A/A floor'].map(h => el('th', {}, h)))),
        el('tbody', {}, ...rows)
      )
    )
  }
  box.append(
    el('h3', {}, 'Largest divergence'),
    el(
      'p',
      { class: 'note' },
      `The ${section.worst.length} instances with the largest mean KL. Per position, the baseline's token (above) and the candidate's most likely token there (below), shaded by delta-p = p_C - p_B of the baseline's token: red where the candidate gives it less probability, green where more. A framed column is where the candidate would pick another token.`
    )
  )
  for (const row of section.worst) {
    const head = el(
      'div',
      { class: 'answer-head' },
      `${row.id}: mean KL ${num(row.klMean)}, max KL ${num(row.klMax)}, top-1 agreement ${num(row.top1Agreement)}, mean delta-p ${signed(row.deltaPMean)}, first divergence ${row.firstDivergence === null ? 'none' : `at token ${row.firstDivergence}`}`
    )
    const item = el('div', { class: 'fidelity-instance', 'data-id': row.id }, head)
    const tokens = row.tokens ?? []
    if (tokens.length > 0) {
      const strip = el('div', { class: 'token-strip' })
      tokens.forEach((cell, t) => {
        const differs = cell.candidate !== null && cell.candidate !== cell.baseline
        strip.append(
          el(
            'span',
            {
              class: differs ? 'token-pair differs' : 'token-pair',
              style: `background-color: ${deltaShade(cell.deltaP)}`,
              title: `position ${t}: delta-p ${signed(cell.deltaP)}`,
              'data-delta-p': String(cell.deltaP)
            },
            el('span', { class: 'token baseline' }, visibleToken(cell.baseline)),
            el('span', { class: 'token candidate' }, cell.candidate === null ? '—' : visibleToken(cell.candidate))
          )
        )
      })
      item.append(el('div', { class: 'label' }, 'Baseline answer / candidate top-1'), strip)
    } else {
      item.append(el('p', { class: 'note' }, 'No per-token figures were recorded for this instance.'))
    }
    box.append(item)
  }
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
root.append(header(), filters(redraw), plotBox, tableBox)
const directionBox = direction()
if (directionBox) root.append(directionBox)
root.append(answersBox)
const eff = efficiency()
if (eff) root.append(eff)
const calibrationBox = calibration()
if (calibrationBox) root.append(calibrationBox)
const gridBox = gridSection(el, report.holistic)
if (gridBox) root.append(gridBox)
const loadBox = load(report.load)
if (loadBox) root.append(loadBox)
const fidelityBox = fidelity(report.fidelity)
if (fidelityBox) root.append(fidelityBox)
for (const note of report.notes) root.append(el('p', { class: 'note' }, note))
redraw()
