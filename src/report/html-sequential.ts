/// <reference lib="dom" />
/**
 * The sequential verdicts in report.html (docs/report.md "Sequential verdicts"): per sequential
 * row, its confidence sequence against n as an inline SVG (each look's interval a step of the
 * band, the margin dashed, zero, the stop marked), where it stopped and what it spent. Bundled
 * into the page with html-client.ts; it imports only types and sequence-plot.ts (which imports
 * only types), and every text goes in through `textContent` or an attribute: run names come
 * from output files.
 */
import type { Comparison, SequentialRow } from '../model/report.js'
import { differenceLabel, marginLabel, requestsPhrase, sequenceGeometry, stopPhrase, type SequenceGeometry } from './sequence-plot.js'

type El = (tag: 'section' | 'h2' | 'h3' | 'p' | 'div', attrs?: Record<string, string>, ...children: (Node | string | null)[]) => HTMLElement
type Svg = (tag: string, attrs: Record<string, string | number>) => SVGElement

// The page's palette (html.ts STYLE), as presentation attributes: the SVG needs no style rules.
const COLOUR: Record<SequentialRow['decision'], string> = { pass: '#1a7f37', fail: '#cf222e', inconclusive: '#bf8700' }
const GREY = '#8c959f'
const INK = '#1f2328'
// Long run names wrap instead of widening the page.
const WRAP = 'overflow-wrap: anywhere'

function text(svg: Svg, attrs: Record<string, string | number>, content: string): SVGElement {
  const node = svg('text', { 'font-size': 11, fill: INK, ...attrs })
  node.textContent = content
  return node
}

function axes(svg: Svg, g: SequenceGeometry, direction: 'higher' | 'lower'): SVGElement {
  const { box } = g
  const group = svg('g', { class: 'seq-axes' })
  const bottom = box.height - box.bottom
  group.append(svg('line', { x1: box.left, x2: box.width - box.right, y1: bottom, y2: bottom, stroke: GREY }))
  group.append(svg('line', { x1: box.left, x2: box.left, y1: box.top, y2: bottom, stroke: GREY }))
  for (const tick of g.xTicks) {
    group.append(svg('line', { x1: tick.at, x2: tick.at, y1: bottom, y2: bottom + 4, stroke: GREY }))
    group.append(
      text(svg, { x: tick.at, y: bottom + 16, 'text-anchor': 'middle', class: 'seq-x-tick', 'data-value': tick.value }, tick.text)
    )
  }
  for (const tick of g.yTicks) {
    group.append(svg('line', { x1: box.left - 4, x2: box.left, y1: tick.at, y2: tick.at, stroke: GREY }))
    group.append(
      text(svg, { x: box.left - 6, y: tick.at + 4, 'text-anchor': 'end', class: 'seq-y-tick', 'data-value': tick.value }, tick.text)
    )
  }
  const middle = (box.left + box.width - box.right) / 2
  group.append(
    text(svg, { x: middle, y: box.height - 6, 'text-anchor': 'middle', class: 'seq-x-label' }, 'n (instances compared on both sides)')
  )
  const yMiddle = (box.top + bottom) / 2
  group.append(
    text(
      svg,
      { x: 12, y: yMiddle, 'text-anchor': 'middle', transform: `rotate(-90 12 ${yMiddle})`, class: 'seq-y-label' },
      differenceLabel(direction)
    )
  )
  return group
}

function plot(svg: Svg, row: Comparison, s: SequentialRow, g: SequenceGeometry): SVGElement {
  const { box } = g
  const colour = COLOUR[s.decision] ?? GREY
  const root = svg('svg', {
    class: 'sequence',
    width: box.width,
    height: box.height,
    viewBox: `0 0 ${box.width} ${box.height}`,
    style: 'display: block; max-width: 100%; height: auto',
    role: 'img',
    'data-budget': s.budget,
    'data-stopped-at': s.stopped_at
  })
  const title = svg('title', {})
  title.textContent = `${row.run} ${row.metric}: confidence sequence of the paired difference against n; ${stopPhrase(s)}; tolerated drop ${row.max_drop}`
  root.append(title, axes(svg, g, row.direction))
  const right = box.width - box.right
  root.append(svg('line', { x1: box.left, x2: right, y1: g.zeroY, y2: g.zeroY, stroke: GREY, class: 'seq-zero' }))
  root.append(
    svg('polygon', {
      points: g.band.map(([x, y]) => `${x},${y}`).join(' '),
      fill: colour,
      'fill-opacity': 0.25,
      stroke: colour,
      class: 'seq-band'
    })
  )
  for (const step of g.steps)
    root.append(
      svg('line', { x1: step.x0, x2: step.x0, y1: step.yLow, y2: step.yHigh, stroke: colour, class: 'seq-look', 'data-n': step.n })
    )
  root.append(
    svg('line', {
      x1: box.left,
      x2: right,
      y1: g.marginY,
      y2: g.marginY,
      stroke: COLOUR.fail,
      'stroke-dasharray': '5 3',
      class: 'seq-margin'
    })
  )
  root.append(
    text(
      svg,
      { x: right - 2, y: g.marginY - 4, 'text-anchor': 'end', fill: COLOUR.fail, class: 'seq-margin-label' },
      marginLabel(row.max_drop)
    )
  )
  const bottom = box.height - box.bottom
  root.append(
    svg('line', {
      x1: g.stop.x,
      x2: g.stop.x,
      y1: box.top,
      y2: bottom,
      stroke: INK,
      'stroke-width': 2,
      class: 'seq-stop',
      'data-n': g.stop.n
    })
  )
  const atEnd = g.stop.x > (box.left + right) / 2
  const stopLabel = s.certain ? `stop: n = ${g.stop.n}, ${s.decision}` : `budget: n = ${g.stop.n}, inconclusive`
  root.append(
    text(
      svg,
      { x: atEnd ? g.stop.x - 4 : g.stop.x + 4, y: box.top + 10, 'text-anchor': atEnd ? 'end' : 'start', class: 'seq-stop-label' },
      stopLabel
    )
  )
  return root
}

function rowBox(el: El, svg: Svg, row: Comparison, s: SequentialRow): HTMLElement {
  const box = el('div', { class: `sequence-row ${s.decision}`, 'data-id': row.id })
  box.append(el('h3', { style: WRAP }, `${row.run} ${row.metric}`))
  const geometry = sequenceGeometry(s, row.max_drop)
  if (geometry) box.append(plot(svg, row, s, geometry))
  else
    box.append(el('p', { class: 'note' }, 'The looks recorded for this row cannot be drawn (none, or not increasing within the budget).'))
  box.append(el('p', { class: `seq-stop-line check ${s.decision}`, style: WRAP }, `${s.decision}: ${stopPhrase(s)}`))
  box.append(el('p', { class: 'seq-spend' }, `${requestsPhrase(s)}.`))
  return box
}

/** The section, or null when no row of the report is sequential. */
export function sequentialSection(el: El, svg: Svg, comparisons: readonly Comparison[]): HTMLElement | null {
  const rows = comparisons.filter(row => row.sequential)
  if (rows.length === 0) return null
  const section = el('section', { id: 'sequential' }, el('h2', {}, 'Sequential verdicts'))
  for (const row of rows) section.append(rowBox(el, svg, row, row.sequential as SequentialRow))
  section.append(
    el(
      'p',
      { class: 'note' },
      'The band is the anytime-valid confidence sequence of the paired difference, looked at after every stage; the gate stops at the first look whose band is wholly above the dashed margin (pass) or wholly below it (fail), and is inconclusive at the budget otherwise (docs/method.md "Sequential verdicts").'
    )
  )
  return section
}
