/**
 * The direction of a change, as far as fidelity can tell it (docs/method.md "Paired calibration
 * and the direction of a change"). Fidelity scores the candidate on the baseline's own greedy
 * answer, so there is no reference to be right or wrong against: a flip is a position where the
 * candidate's most likely token is not the baseline's token, and it is neither won nor lost. What
 * it can say is where the flips fall: at positions where the baseline was sure (its top-1 margin,
 * p1 - p2 over its reported top-k, at least SURE_MARGIN) or unsure. Flips of a benign change
 * gather where the baseline was unsure; flips where it was sure are the ones a reviewer should
 * read. Pure: the positions in, counts and one sentence out.
 */
import { SURE_MARGIN } from './direction.js'

/** One reported alternative (the shape src/fidelity/ gives: a token id or text and its log-probability). */
interface Alternative {
  token: string
  logprob: number
}

/** One position of the baseline's answer as each side reported it. */
export interface ScoredPosition {
  baseline: { token: string; top: readonly Alternative[] }
  candidate: { top: readonly Alternative[] }
}

export interface PositionFlips {
  positions: number
  flips: number
}

export interface FidelityDirection {
  positions: number
  flips: number
  /** Positions (and their flips) where the baseline's top-1 margin was at least `sureMargin`. */
  sure: PositionFlips
  /** The others, including positions where the baseline reported a single alternative. */
  unsure: PositionFlips
  /** The margin the split used. */
  sureMargin: number
  sentence: string
}

/** p1 - p2 of the reported alternatives (p2 = 0 when only one was reported). */
export function topMargin(top: readonly Alternative[]): number {
  let p1 = 0
  let p2 = 0
  for (const e of top) {
    const p = Math.exp(e.logprob)
    if (p > p1) {
      p2 = p1
      p1 = p
    } else if (p > p2) p2 = p
  }
  return p1 - p2
}

function argmax(top: readonly Alternative[]): string | null {
  let best: Alternative | null = null
  for (const e of top) if (best === null || e.logprob > best.logprob) best = e
  return best?.token ?? null
}

const share = (part: number, whole: number): string => (whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`)

/**
 * The flips of every scored position, split by the baseline's margin. Positions of all instances
 * are counted together: the figure describes where the tokens moved, it gates nothing.
 */
export function fidelityDirection(instances: readonly (readonly ScoredPosition[])[], sureMargin = SURE_MARGIN): FidelityDirection {
  if (!(Number.isFinite(sureMargin) && sureMargin >= 0 && sureMargin <= 1)) {
    throw new RangeError(`the sure margin must be in [0, 1], not ${sureMargin}`)
  }
  const sure = { positions: 0, flips: 0 }
  const unsure = { positions: 0, flips: 0 }
  for (const positions of instances) {
    for (const p of positions) {
      const bucket = topMargin(p.baseline.top) >= sureMargin ? sure : unsure
      bucket.positions++
      if (argmax(p.candidate.top) !== p.baseline.token) bucket.flips++
    }
  }
  const positions = sure.positions + unsure.positions
  const flips = sure.flips + unsure.flips
  return { positions, flips, sure, unsure, sureMargin, sentence: sentenceFor(positions, flips, sure, unsure, sureMargin) }
}

function sentenceFor(positions: number, flips: number, sure: PositionFlips, unsure: PositionFlips, margin: number): string {
  if (positions === 0) return 'No positions were scored.'
  if (flips === 0) return `The candidate's most likely token was the baseline's at all ${positions} positions.`
  const where =
    sure.flips === 0
      ? `all where the baseline was unsure (top-1 margin below ${margin})`
      : `${sure.flips} where the baseline was sure (margin ${margin} or more: ${share(sure.flips, sure.positions)} of those positions) and ${unsure.flips} where it was unsure (${share(unsure.flips, unsure.positions)})`
  return `The most likely token changed at ${flips} of ${positions} positions (${share(flips, positions)}): ${where}. With no reference answer a flip is neither won nor lost.`
}
