/// <reference lib="dom" />
/**
 * The script of report.html, run in the reader's browser. It is embedded as source text
 * (`reportPage.toString()`), so it must stay self-contained: no imports, no outer variables.
 *
 * Everything shown comes from the JSON block `#helm-gate-data` and is inserted with
 * `textContent` or as SVG attributes: model output, prompts and run names are untrusted and never
 * become markup.
 */
export function reportPage(): void {
  type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
  const data = JSON.parse(document.getElementById('helm-gate-data')!.textContent!) as Json
  const report = data.report as Json
  const changed = data.changed as Record<string, Json[]>
  const comparisons = report.comparisons as Json[]
  const root = document.getElementById('app')!
  const SVG = 'http://www.w3.org/2000/svg'

  function el(tag: string, attrs: Record<string, string> = {}, ...children: (Node | string | null)[]): HTMLElement {
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
  const verdictOf = (c: Json): string => (c.gated ? c.verdict : 'info')
  const marginOf = (c: Json): number => (c.direction === 'lower' ? c.max_drop : -c.max_drop)
  const labelOf = (c: Json): string => [c.run, c.metric, c.split, c.perturbation].filter(p => p !== null && p !== '').join(' · ')

  // ---- header: verdict, headline, sides, issues
  function header(): HTMLElement {
    const box = el(
      'header',
      {},
      el('h1', { class: `verdict ${report.verdict}` }, `helm-gate: ${report.verdict}`),
      el('p', {}, report.headline)
    )
    const sides = el('table', { class: 'sides' })
    const row = (label: string, read: (s: Json) => string): void => {
      const cells = [read(report.baseline), read(report.candidate)]
      if (cells.every(c => c === '')) return
      sides.append(el('tr', {}, el('th', {}, label), ...cells.map(c => el('td', {}, c || '—'))))
    }
    sides.append(el('tr', {}, el('th', {}, ''), el('th', {}, 'Baseline'), el('th', {}, 'Candidate')))
    row('Deployment', s => {
      const id = s.identity
      return [id?.model ?? s.deployment, id?.host ? `on ${id.host}` : '', id?.api ? `(${id.api})` : ''].filter(Boolean).join(' ')
    })
    row('Engine', s => {
      const e = s.identity?.engine
      if (!e) return ''
      return [
        e.version && `version ${e.version}`,
        e.root && `weights ${e.root}`,
        e.max_model_len !== null && `context ${e.max_model_len}`,
        e.owned_by && `by ${e.owned_by}`
      ]
        .filter(Boolean)
        .join(' · ')
    })
    row('Image', s => {
      const i = s.identity?.image
      if (!i) return ''
      return [i.name, i.digest ? `digest ${i.digest}` : i.id ? `image id ${i.id} (no registry digest)` : 'digest unknown'].join(' · ')
    })
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
      box.append(el('ul', { class: kind }, ...list.map((i: Json) => el('li', {}, el('code', {}, i.code), ' ', i.message))))
    }
    return box
  }

  // ---- filters shared by the plot, the table and the answers
  const state = { run: '', perturbation: '', direction: '', search: '' }
  const PERTURBATION_CLEAN = '(clean)'
  const perturbationOf = (c: Json): string => c.perturbation ?? PERTURBATION_CLEAN
  const comparisonShown = (c: Json): boolean =>
    (state.run === '' || c.run === state.run) && (state.perturbation === '' || perturbationOf(c) === state.perturbation)

  function filters(onChange: () => void): HTMLElement {
    const select = (name: string, label: string, values: string[]): HTMLElement => {
      const s = el('select', { id: `filter-${name}`, 'aria-label': label }, el('option', { value: '' }, `all ${label}`))
      for (const v of values) s.append(el('option', { value: v }, v))
      s.addEventListener('change', () => {
        ;(state as Record<string, string>)[name] = (s as HTMLSelectElement).value
        onChange()
      })
      return s
    }
    const runs = [...new Set(comparisons.map(c => c.run as string))].sort()
    const perturbations = [...new Set(comparisons.map(perturbationOf))].sort()
    const direction = el(
      'select',
      { id: 'filter-direction', 'aria-label': 'changed answers' },
      el('option', { value: '' }, 'won and lost'),
      el('option', { value: 'won' }, 'won (better)'),
      el('option', { value: 'lost' }, 'lost (worse)')
    )
    direction.addEventListener('change', () => {
      state.direction = (direction as HTMLSelectElement).value
      onChange()
    })
    const search = el('input', { id: 'filter-search', type: 'search', placeholder: 'search answers, inputs, ids', 'aria-label': 'search' })
    search.addEventListener('input', () => {
      state.search = (search as HTMLInputElement).value.toLowerCase()
      onChange()
    })
    return el(
      'div',
      { class: 'filters' },
      select('run', 'runs', runs),
      select('perturbation', 'perturbations', perturbations),
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
    const plot = svg('svg', {
      id: 'forest',
      width: left + width + 20,
      height,
      viewBox: `0 0 ${left + width + 20} ${height}`,
      'data-min': min,
      'data-max': max,
      'data-left': left,
      'data-width': width,
      role: 'img'
    })
    plot.append(svg('line', { x1: x(0), x2: x(0), y1: 0, y2: height - 30, class: 'zero' }))
    rows.forEach((c, i) => {
      const y = 16 + i * rowHeight
      const label = svg('text', { x: 4, y: y + 4, class: 'label' })
      label.textContent = labelOf(c).length > 44 ? `${labelOf(c).slice(0, 43)}…` : labelOf(c)
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
    const axis = (v: number): void => {
      const t = svg('text', { x: x(v), y: height - 10, class: 'axis' })
      t.textContent = signed(v)
      plot.append(t)
    }
    axis(min + pad)
    axis(0)
    axis(max - pad)
    return plot
  }

  // ---- the comparisons table, sortable by any column
  const columns: [string, (c: Json) => string | number][] = [
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
        el('td', { class: 'num' }, `+${better} / -${worse}`)
      )
    })
    return el('table', { id: 'comparisons' }, el('thead', {}, head), el('tbody', {}, ...body))
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
      const list = (changed[c.id] ?? c.examples ?? []) as Json[]
      if (!list.length) continue
      const cards: HTMLElement[] = []
      for (const e of list) {
        const better = c.direction === 'lower' ? e.candidate_value < e.baseline_value : e.candidate_value > e.baseline_value
        if (state.direction === 'won' && !better) continue
        if (state.direction === 'lost' && better) continue
        if (state.search) {
          const haystack = [e.instance_id, e.input, e.reference, e.baseline_output, e.candidate_output].join('\n').toLowerCase()
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
              `${e.instance_id} (trial ${e.train_trial_index}): ${num(e.baseline_value)} → ${num(e.candidate_value)}, ${better ? 'better' : 'worse'}`
            ),
            el('div', { class: 'io' }, el('div', { class: 'label' }, 'Input'), el('pre', {}, String(e.input ?? ''))),
            el('div', { class: 'io' }, el('div', { class: 'label' }, 'Reference'), el('pre', {}, String(e.reference ?? ''))),
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
  function efficiency(): HTMLElement | null {
    const entries = report.efficiency as Json[]
    if (!entries.length) return null
    const ms = (s: number): string => (Math.abs(s) < 10 ? `${num(s * 1000)} ms` : `${num(s)} s`)
    const ratio = (r: Json): string => `${num(r.estimate)}× [${num(r.low)}, ${num(r.high)}]`
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

  /** The load half's figures (report.load); rendered here so the rest of the page needs no change. */
  function load(section: Json | undefined): HTMLElement | null {
    if (!section) return null
    return el('section', { id: 'load' }, el('h2', {}, 'Load'), el('pre', {}, JSON.stringify(section, null, 2)))
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
  root.append(header(), filters(redraw), plotBox, tableBox, answersBox)
  const eff = efficiency()
  if (eff) root.append(eff)
  const loadBox = load(report.load)
  if (loadBox) root.append(loadBox)
  for (const note of report.notes as string[]) root.append(el('p', { class: 'note' }, note))
  redraw()
}
