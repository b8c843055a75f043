/**
 * A monospace forest plot: one line per comparison, its interval drawn against its margin (the
 * tolerated drop) and zero, all on one shared axis in metric units. ASCII only, so every
 * monospace font (GitHub's code blocks, terminals, log viewers) keeps the columns aligned.
 *
 *   label             [----*--:---]    |          fail        interval crosses the margin
 *   label                   :   [--*---|--]       pass        interval right of the margin
 *
 * When marks fall on the same column the more important one wins: the estimate `*`, then the
 * interval ends `[` `]`, the margin `:`, zero `|`, and the interval body `-`.
 */
import { sanitizeText, truncateText } from './escape.js'
import { formatSigned } from './format.js'

export interface ForestRow {
  /** Untrusted (run and metric names): control characters and line breaks are removed. */
  label: string
  low: number
  high: number
  estimate: number
  /** The tolerated-drop line on the delta axis (-max_drop, or +max_drop for lower-is-better). */
  margin: number
  /** A short word shown after the plot, e.g. `pass` or `info`. */
  verdict: string
}

export interface ForestPlotOptions {
  /** Columns of the plot area. */
  width?: number
  /** Longest label before it is truncated. */
  labelWidth?: number
  /**
   * The widest a row may be (a PR comment's code block scrolls beyond it, hiding the upper
   * interval ends). Labels give way first, down to what leaves the plot area MIN_PLOT_WIDTH
   * columns, then the plot area. The legend line is 80 columns.
   */
  maxColumns?: number
}

/** Narrower than this the interval, margin and zero of a row crowd into a few columns. */
export const MIN_PLOT_WIDTH = 31
const MIN_WIDTH = 11
const VERDICT_WIDTH = 16

export const FOREST_MARKS = {
  estimate: '*',
  low: '[',
  high: ']',
  margin: ':',
  zero: '|',
  body: '-'
} as const

export interface ForestAxis {
  min: number
  max: number
  width: number
}

/** The shared axis: every finite interval end, margin and zero, with a little room either side. */
export function forestAxis(rows: readonly ForestRow[], width: number): ForestAxis {
  const values = [0]
  for (const row of rows) {
    for (const v of [row.low, row.high, row.estimate, row.margin]) if (Number.isFinite(v)) values.push(v)
  }
  let min = Math.min(...values)
  let max = Math.max(...values)
  if (max - min <= 0) {
    min -= 1
    max += 1
  }
  const pad = (max - min) * 0.04
  return { min: min - pad, max: max + pad, width }
}

/** The column (0-based, inside the plot area) where a value is drawn. */
export function forestColumn(axis: ForestAxis, value: number): number {
  const position = Math.round(((value - axis.min) / (axis.max - axis.min)) * (axis.width - 1))
  return Math.min(axis.width - 1, Math.max(0, position))
}

function plotLine(axis: ForestAxis, row: ForestRow): string {
  const cells: string[] = new Array<string>(axis.width).fill(' ')
  const rank: number[] = new Array<number>(axis.width).fill(0)
  const put = (value: number, mark: string, priority: number): void => {
    if (!Number.isFinite(value)) return
    const column = forestColumn(axis, value)
    if (priority >= rank[column]) {
      cells[column] = mark
      rank[column] = priority
    }
  }
  if (Number.isFinite(row.low) && Number.isFinite(row.high)) {
    const from = forestColumn(axis, Math.min(row.low, row.high))
    const to = forestColumn(axis, Math.max(row.low, row.high))
    for (let column = from; column <= to; column += 1) {
      cells[column] = FOREST_MARKS.body
      rank[column] = 1
    }
  }
  put(0, FOREST_MARKS.zero, 2)
  put(row.margin, FOREST_MARKS.margin, 3)
  put(row.low, FOREST_MARKS.low, 4)
  put(row.high, FOREST_MARKS.high, 4)
  put(row.estimate, FOREST_MARKS.estimate, 5)
  return cells.join('')
}

function cleanLabel(label: string): string {
  return sanitizeText(label).replace(/\s+/g, ' ').trim()
}

/** Values at the left end, at zero and at the right end, placed under their columns. */
function axisLine(axis: ForestAxis): string {
  const line: string[] = new Array<string>(axis.width).fill(' ')
  const place = (text: string, start: number): void => {
    const from = Math.max(0, Math.min(axis.width - text.length, start))
    for (let i = 0; i < text.length; i += 1) {
      if (line[from + i] !== ' ' || (from + i > 0 && line[from + i - 1] !== ' ')) return
    }
    for (let i = 0; i < text.length; i += 1) line[from + i] = text[i]
  }
  const zero = '0'
  place(zero, forestColumn(axis, 0))
  place(formatSigned(axis.min), 0)
  const right = formatSigned(axis.max)
  place(right, axis.width - right.length)
  return line.join('').trimEnd()
}

/**
 * The plot as text lines (without a code fence): the rows, then a tick line and the axis
 * values, then a legend. Labels are padded to a common width so the plot areas line up.
 */
export function renderForestPlot(rows: readonly ForestRow[], options: ForestPlotOptions = {}): string[] {
  const verdicts = rows.map(row => truncateText(cleanLabel(row.verdict), VERDICT_WIDTH))
  // A row is `label plot verdict`: two spaces besides the label, the plot and the verdict.
  const room = (options.maxColumns ?? Infinity) - 2 - Math.max(0, ...verdicts.map(verdict => verdict.length))
  const maxLabel = Math.max(1, Math.min(options.labelWidth ?? 36, room - MIN_PLOT_WIDTH))
  const labels = rows.map(row => truncateText(cleanLabel(row.label), maxLabel))
  const labelWidth = Math.max(0, ...labels.map(label => label.length))
  const width = Math.max(MIN_WIDTH, Math.min(options.width ?? 41, room - labelWidth))
  const axis = forestAxis(rows, width)
  const indent = ' '.repeat(labelWidth)
  const lines = rows.map((row, i) => `${labels[i].padEnd(labelWidth)} ${plotLine(axis, row)} ${verdicts[i]}`.trimEnd())
  const ticks = new Array<string>(width).fill('-')
  ticks[0] = '+'
  ticks[width - 1] = '+'
  ticks[forestColumn(axis, 0)] = '+'
  lines.push(`${indent} ${ticks.join('')}`)
  lines.push(`${indent} ${axisLine(axis)}`.trimEnd())
  lines.push('')
  lines.push(
    `${FOREST_MARKS.low}${FOREST_MARKS.body}${FOREST_MARKS.estimate}${FOREST_MARKS.body}${FOREST_MARKS.high} interval and delta (candidate - baseline)   ` +
      `${FOREST_MARKS.margin} tolerated drop   ${FOREST_MARKS.zero} no change`
  )
  return lines
}
