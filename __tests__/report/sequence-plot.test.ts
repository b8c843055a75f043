import { describe, expect, it } from '@jest/globals'
import type { SequentialRow } from '../../src/model/report.js'
import {
  differenceLabel,
  marginLabel,
  requestsPhrase,
  roundTicks,
  sequenceGeometry,
  stopPhrase,
  type PlotBox
} from '../../src/report/sequence-plot.js'

// A box with round numbers: the plotting area is x 100..500 and y 20..220.
const BOX: PlotBox = { width: 520, height: 260, left: 100, right: 20, top: 20, bottom: 40 }

const STOP: SequentialRow = {
  stopped_at: 200,
  budget: 400,
  decision: 'pass',
  certain: true,
  looks: [
    { n: 100, low: -0.5, high: 0.3, decision: 'continue' },
    { n: 200, low: -0.04, high: 0.1, decision: 'pass' }
  ],
  requests_spent: 600,
  requests_fixed: 800
}

describe('sequenceGeometry', () => {
  it('puts each look at its n on a 0..budget axis and holds its interval until the next look', () => {
    const g = sequenceGeometry(STOP, 0.05, BOX)!
    // y covers [-0.5, 0.3], -0.05 and 0, padded by 5% of the span (0.04): [-0.54, 0.34].
    expect(g.yDomain.min).toBeCloseTo(-0.54, 12)
    expect(g.yDomain.max).toBeCloseTo(0.34, 12)
    const y = (d: number): number => 20 + ((0.34 - d) / 0.88) * 200
    expect(g.steps.map(s => [s.n, s.x0, s.x1])).toEqual([
      [100, 200, 300],
      [200, 300, 306]
    ])
    expect(g.steps[0].yLow).toBeCloseTo(y(-0.5), 9)
    expect(g.steps[0].yHigh).toBeCloseTo(y(0.3), 9)
    expect(g.marginY).toBeCloseTo(y(-0.05), 9)
    expect(g.zeroY).toBeCloseTo(y(0), 9)
    // Higher differences are drawn higher up (smaller y), and the margin below zero.
    expect(g.steps[1].yHigh).toBeLessThan(g.steps[1].yLow)
    expect(g.marginY).toBeGreaterThan(g.zeroY)
    expect(g.stop).toEqual({ n: 200, x: 300, yLow: g.steps[1].yLow, yHigh: g.steps[1].yHigh })
  })

  it('outlines the band as a step polygon: the upper edge left to right, then the lower edge back', () => {
    const g = sequenceGeometry(STOP, 0.05, BOX)!
    const [a, b] = g.steps
    expect(g.band).toEqual([
      [a.x0, a.yHigh],
      [a.x1, a.yHigh],
      [b.x0, b.yHigh],
      [b.x1, b.yHigh],
      [b.x1, b.yLow],
      [b.x0, b.yLow],
      [a.x1, a.yLow],
      [a.x0, a.yLow]
    ])
  })

  it('stops at the budget for a row that ran to it, and keeps the axis inside [-1, 1]', () => {
    const budget: SequentialRow = {
      ...STOP,
      stopped_at: 400,
      decision: 'inconclusive',
      certain: false,
      looks: [
        { n: 200, low: -1, high: 1, decision: 'continue' },
        { n: 400, low: -0.2, high: 0.1, decision: 'inconclusive' }
      ]
    }
    const g = sequenceGeometry(budget, 0.05, BOX)!
    expect(g.yDomain).toEqual({ min: -1, max: 1 })
    expect(g.stop.x).toBe(500)
    // The last look's sliver does not run past the plotting area.
    expect(g.steps[1].x1).toBe(500)
    expect(g.xTicks.map(t => t.text)).toEqual(['0', '100', '200', '300', '400'])
    expect(g.xTicks.map(t => t.at)).toEqual([100, 200, 300, 400, 500])
    expect(g.yTicks.map(t => t.text)).toEqual(['-1.0', '-0.5', '0.0', '+0.5', '+1.0'])
  })

  it('draws nothing it would have to make up', () => {
    const looks = STOP.looks
    expect(sequenceGeometry({ ...STOP, looks: [] }, 0.05)).toBeNull()
    expect(sequenceGeometry({ ...STOP, looks: [looks[1], looks[0]] }, 0.05)).toBeNull()
    expect(sequenceGeometry({ ...STOP, looks: [{ ...looks[0], n: 401 }] }, 0.05)).toBeNull()
    expect(sequenceGeometry({ ...STOP, looks: [{ ...looks[0], low: Number.NaN }] }, 0.05)).toBeNull()
    expect(sequenceGeometry({ ...STOP, looks: [{ ...looks[0], low: 0.5, high: 0.1 }] }, 0.05)).toBeNull()
    expect(sequenceGeometry(STOP, Number.NaN)).toBeNull()
  })
})

describe('roundTicks', () => {
  it('picks 1, 2 or 5 times a power of ten, whole numbers for counts', () => {
    expect(roundTicks(0, 79, 6, true).values).toEqual([0, 20, 40, 60])
    expect(roundTicks(0, 10, 6, true).values).toEqual([0, 2, 4, 6, 8, 10])
    expect(roundTicks(0, 3, 6, true).values).toEqual([0, 1, 2, 3])
    expect(roundTicks(-0.07, 0.03, 5, false).values.map(v => Number(v.toFixed(6)))).toEqual([-0.06, -0.04, -0.02, 0, 0.02])
  })
})

describe('the words beside the plot', () => {
  const rows: SequentialRow[] = [
    STOP,
    { ...STOP, stopped_at: 400, decision: 'fail' },
    { ...STOP, stopped_at: 400, decision: 'inconclusive', certain: false }
  ]

  it('say where the sequence stopped and what it spent (the PR comment takes the same words)', () => {
    expect(rows.map(stopPhrase)).toEqual([
      'stopped early at n = 200 of 400 (certain)',
      'decided at the budget (n = 400): fail (certain)',
      'ran to the budget (n = 400): inconclusive'
    ])
    expect(requestsPhrase(STOP)).toBe(
      `${STOP.requests_spent} instance requests spent on both sides (the fixed design: ${STOP.requests_fixed})`
    )
  })

  it('name the margin and the difference the axis measures', () => {
    expect(marginLabel(0.05)).toBe('margin −0.05')
    expect(marginLabel(0)).toBe('margin 0')
    expect(differenceLabel('higher')).toBe('Δ = candidate − baseline')
    expect(differenceLabel('lower')).toBe('Δ = baseline − candidate (a rise is the harm)')
  })
})
