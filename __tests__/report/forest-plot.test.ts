import { describe, expect, test } from '@jest/globals'
import { FOREST_MARKS, forestAxis, forestColumn, MIN_PLOT_WIDTH, renderForestPlot, type ForestRow } from '../../src/report/forest-plot.js'

function row(overrides: Partial<ForestRow>): ForestRow {
  return { label: 'r', low: -0.01, high: 0.01, estimate: 0, margin: -0.02, verdict: 'pass', ...overrides }
}

/** Column of a mark in a plot line, counted from the start of the plot area. */
function columnsOf(line: string, labelWidth: number): { marks: Map<string, number[]>; area: string } {
  const area = line.slice(labelWidth + 1)
  const marks = new Map<string, number[]>()
  for (let i = 0; i < area.length; i += 1) {
    const list = marks.get(area[i]) ?? []
    list.push(i)
    marks.set(area[i], list)
  }
  return { marks, area }
}

describe('renderForestPlot', () => {
  const rows = [
    row({ label: 'above', low: 0.01, high: 0.05, estimate: 0.03, margin: -0.02, verdict: 'pass' }),
    row({ label: 'below', low: -0.09, high: -0.05, estimate: -0.07, margin: -0.02, verdict: 'fail' }),
    row({ label: 'across', low: -0.04, high: 0.01, estimate: -0.015, margin: -0.02, verdict: 'inconclusive' }),
    row({ label: 'lower-is-better', low: -0.03, high: 0.01, estimate: -0.01, margin: 0.02, verdict: 'pass' })
  ]
  const lines = renderForestPlot(rows, { width: 61 })
  const labelWidth = 'lower-is-better'.length

  test('an interval above the margin is drawn right of the margin tick', () => {
    const { marks } = columnsOf(lines[0], labelWidth)
    const margin = marks.get(FOREST_MARKS.margin)![0]
    expect(marks.get(FOREST_MARKS.low)![0]).toBeGreaterThan(margin)
    expect(marks.get(FOREST_MARKS.high)![0]).toBeGreaterThan(marks.get(FOREST_MARKS.estimate)![0])
  })

  test('an interval below the margin is drawn left of it', () => {
    const { marks } = columnsOf(lines[1], labelWidth)
    expect(marks.get(FOREST_MARKS.high)![0]).toBeLessThan(marks.get(FOREST_MARKS.margin)![0])
    expect(marks.get(FOREST_MARKS.high)![0]).toBeLessThan(marks.get(FOREST_MARKS.zero)![0])
  })

  test('an interval across the margin encloses the margin tick', () => {
    const { marks } = columnsOf(lines[2], labelWidth)
    const margin = marks.get(FOREST_MARKS.margin)![0]
    expect(marks.get(FOREST_MARKS.low)![0]).toBeLessThan(margin)
    expect(marks.get(FOREST_MARKS.high)![0]).toBeGreaterThan(margin)
  })

  test('all rows share one axis: zero is in the same column on every row', () => {
    const zeroColumns = rows.map((r, i) => {
      if (r.low <= 0 && r.high >= 0 && r.estimate !== 0) {
        // Zero is hidden under the interval body; compute where it would be.
        return forestColumn(forestAxis(rows, 61), 0)
      }
      return columnsOf(lines[i], labelWidth).marks.get(FOREST_MARKS.zero)![0]
    })
    expect(new Set(zeroColumns).size).toBe(1)
    // The tick line has '+' at the zero column.
    const tick = lines[rows.length].slice(labelWidth + 1)
    expect(tick[zeroColumns[0]]).toBe('+')
  })

  test('a lower-is-better margin is drawn right of zero', () => {
    const { marks } = columnsOf(lines[3], labelWidth)
    const zero = forestColumn(forestAxis(rows, 61), 0)
    expect(marks.get(FOREST_MARKS.margin)![0]).toBeGreaterThan(zero)
  })

  test('labels are cleaned and padded so the plot areas line up; verdict words follow', () => {
    const plot = renderForestPlot([row({ label: 'a\nb\u001b\u0007', verdict: 'pass' }), row({ label: 'longer label' })], { width: 21 })
    expect(plot[0]).not.toMatch(/[\n\u001b\u0007]/)
    expect(plot[0].startsWith('a b ')).toBe(true)
    expect(plot[0].indexOf('[')).toBe(plot[1].indexOf('['))
    expect(plot[0].endsWith(' pass')).toBe(true)
  })

  test('non-finite values are not drawn', () => {
    const plot = renderForestPlot([row({ low: Number.NaN, high: Number.NaN, estimate: Number.NaN })], { width: 21 })
    expect(plot[0]).not.toContain(FOREST_MARKS.estimate)
    expect(plot[0]).toContain(FOREST_MARKS.margin)
  })

  test('maxColumns: long labels give way first, then the plot area; every row and its upper end fit', () => {
    const long = 'natural_qa:mode=closedbook,data_augmentation=robustness_all · exact_match · test · worst'
    const wide = [row({ label: long, low: 0.01, high: 0.05, estimate: 0.03, verdict: 'inconclusive' }), row({ label: 'short' })]
    const plot = renderForestPlot(wide, { labelWidth: 56, maxColumns: 84 })
    const rowsAndAxis = plot.slice(0, wide.length + 2)
    for (const line of rowsAndAxis) expect(line.length).toBeLessThanOrEqual(84)
    expect(plot[0]).toContain(FOREST_MARKS.high)
    expect(plot[0].endsWith(' inconclusive')).toBe(true)
    // The label lost its end; the plot area kept at least its minimum.
    expect(plot[0]).toContain('…')
    expect(plot[wide.length].trim().length).toBeGreaterThanOrEqual(MIN_PLOT_WIDTH)
    // Short labels leave the plot its full default width.
    const roomy = renderForestPlot([row({ label: 'short' })], { maxColumns: 84 })
    expect(roomy[1].trim()).toHaveLength(41)
  })
})
