/**
 * The geometry of a sequential row's plot in report.html (docs/report.md "Sequential verdicts"):
 * the confidence sequence of the paired difference against n, as a step band (each look's
 * interval holds until the next look), the margin, zero, the stop and the axis ticks, in the
 * SVG's own units. Pure, and it imports only types: it is bundled into the page with
 * html-sequential.ts, and its numbers are unit-tested without a browser.
 */
import type { SequentialRow } from '../model/report.js'

/** The plot's box, in SVG units: the plotting area is inside the margins. */
export interface PlotBox {
  width: number
  height: number
  left: number
  right: number
  top: number
  bottom: number
}

export const SEQUENCE_BOX: PlotBox = { width: 720, height: 260, left: 64, right: 24, top: 16, bottom: 44 }

/** One look's interval, held from its n to the next look's (the last look: a sliver at its n). */
export interface BandStep {
  n: number
  low: number
  high: number
  decision: SequentialRow['looks'][number]['decision']
  x0: number
  x1: number
  yLow: number
  yHigh: number
}

export interface AxisTick {
  value: number
  /** The position along its axis (x for n, y for the difference). */
  at: number
  text: string
}

export interface SequenceGeometry {
  box: PlotBox
  /** The n axis runs from 0 to the budget; the difference axis over `yDomain`. */
  budget: number
  yDomain: { min: number; max: number }
  steps: BandStep[]
  /** The band's outline, upper edge left to right then lower edge back: an SVG polygon's points. */
  band: Array<[number, number]>
  /** y of -margin (the tolerated drop) and of zero. */
  marginY: number
  zeroY: number
  /** x of the stop and the look's interval there. */
  stop: { n: number; x: number; yLow: number; yHigh: number }
  xTicks: AxisTick[]
  yTicks: AxisTick[]
}

// The last look's interval is drawn this wide (SVG units) so a stop at the budget still shows.
const SLIVER = 6
const MIN_SPAN = 0.02

/**
 * The plot's geometry, or null when the row's looks cannot be drawn (none, an n that is not a
 * positive whole number within the budget, an interval that is not finite): the page then says
 * so instead of drawing a made-up band. The y domain covers every interval, -margin and zero,
 * within [-1, 1] (a paired difference of values in [0, 1] never leaves it).
 */
export function sequenceGeometry(s: SequentialRow, margin: number, box: PlotBox = SEQUENCE_BOX): SequenceGeometry | null {
  const looks = s.looks
  if (!Array.isArray(looks) || looks.length === 0 || !(s.budget >= 1) || !Number.isFinite(margin)) return null
  for (let i = 0; i < looks.length; i++) {
    const { n, low, high } = looks[i]
    if (!Number.isInteger(n) || n < 1 || n > s.budget || (i > 0 && n <= looks[i - 1].n)) return null
    if (!Number.isFinite(low) || !Number.isFinite(high) || low > high) return null
  }
  const values = [0, -margin, ...looks.flatMap(look => [look.low, look.high])]
  let min = Math.max(-1, Math.min(...values))
  let max = Math.min(1, Math.max(...values))
  const pad = Math.max((max - min) * 0.05, MIN_SPAN / 2)
  min = Math.max(-1, min - pad)
  max = Math.min(1, max + pad)
  const plotWidth = box.width - box.left - box.right
  const plotHeight = box.height - box.top - box.bottom
  const x = (n: number): number => box.left + (n / s.budget) * plotWidth
  const y = (d: number): number => box.top + ((max - d) / (max - min)) * plotHeight
  const steps = looks.map((look, i): BandStep => {
    const x0 = x(look.n)
    const x1 = i + 1 < looks.length ? x(looks[i + 1].n) : Math.min(x0 + SLIVER, box.width - box.right)
    return { n: look.n, low: look.low, high: look.high, decision: look.decision, x0, x1, yLow: y(look.low), yHigh: y(look.high) }
  })
  const upper = steps.flatMap((step): Array<[number, number]> => [
    [step.x0, step.yHigh],
    [step.x1, step.yHigh]
  ])
  const lower = [...steps].reverse().flatMap((step): Array<[number, number]> => [
    [step.x1, step.yLow],
    [step.x0, step.yLow]
  ])
  // The stop is the look at stopped_at; a row whose stop is not one of its looks is drawn at
  // its last look (the looks are what the sequence was seen at).
  const stopStep = steps.find(step => step.n === s.stopped_at) ?? steps[steps.length - 1]
  return {
    box,
    budget: s.budget,
    yDomain: { min, max },
    steps,
    band: [...upper, ...lower],
    marginY: y(-margin),
    zeroY: y(0),
    stop: { n: stopStep.n, x: stopStep.x0, yLow: stopStep.yLow, yHigh: stopStep.yHigh },
    xTicks: roundTicks(0, s.budget, 6, true).values.map(v => ({ value: v, at: x(v), text: String(v) })),
    yTicks: yTicks(min, max).map(t => ({ ...t, at: y(t.value) }))
  }
}

/**
 * Ticks at round values (1, 2 or 5 times a power of ten) from min to max, about `count` of
 * them; whole numbers only for counts.
 */
export function roundTicks(min: number, max: number, count: number, whole: boolean): { step: number; values: number[] } {
  if (!(max > min) || !Number.isFinite(min) || !Number.isFinite(max)) return { step: 1, values: [min] }
  const rough = (max - min) / Math.max(1, count - 1)
  const power = Math.pow(10, Math.floor(Math.log10(rough)))
  // The round step nearest the rough one (by ratio): about `count` ticks, never two or three.
  const ratio = (v: number): number => Math.max(v / rough, rough / v)
  let step = [1, 2, 5, 10].map(f => f * power).reduce((best, v) => (ratio(v) < ratio(best) ? v : best))
  if (whole) step = Math.max(1, Math.round(step))
  const out: number[] = []
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + step * 1e-9; k++) out.push(Math.abs(k * step) < step / 2 ? 0 : k * step)
  return { step, values: out }
}

/** The difference axis's ticks, signed, with as many decimals as their step needs. */
function yTicks(min: number, max: number): Array<{ value: number; text: string }> {
  const { step, values } = roundTicks(min, max, 5, false)
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9))
  return values.map(value => {
    const text = value.toFixed(digits)
    return { value, text: value > 0 ? `+${text}` : text }
  })
}

/**
 * Where the sequence stopped, in the words of the PR comment, the console and report.html (one
 * owner: src/report/markdown-sequential.ts takes it from here, since the page's bundle may import
 * only type-only modules, which this is).
 */
export function stopPhrase(s: SequentialRow): string {
  if (!s.certain) return `ran to the budget (n = ${s.budget}): inconclusive`
  if (s.stopped_at < s.budget) return `stopped early at n = ${s.stopped_at} of ${s.budget} (certain)`
  return `decided at the budget (n = ${s.budget}): ${s.decision} (certain)`
}

/** The requests the stages spent beside the fixed design's, as the comment says it. */
export function requestsPhrase(s: SequentialRow): string {
  return `${s.requests_spent} instance requests spent on both sides (the fixed design: ${s.requests_fixed})`
}

/** The margin line's label: the tolerated drop as the difference it stands at. */
export function marginLabel(margin: number): string {
  return margin === 0 ? 'margin 0' : `margin −${margin}`
}

/** What the difference axis measures: the harm is always downwards, so a lower-is-better metric is flipped. */
export function differenceLabel(direction: 'higher' | 'lower'): string {
  return direction === 'lower' ? 'Δ = baseline − candidate (a rise is the harm)' : 'Δ = candidate − baseline'
}
