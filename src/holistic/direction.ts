/**
 * The direction of a change: which answers flipped, split by how sure the baseline was, their
 * balance by McNemar's exact test, and one sentence (docs/method.md "Paired calibration and the
 * direction of a change").
 */
import { UsageError } from '../errors.js'
import { mcnemarExactPValue } from '../stats/binomial.js'
import { pairRecords } from './pair-records.js'
import type { ProbabilityRecord } from './types.js'

/** With `max_prob` only: the baseline was sure when its top-1 probability is at least this. */
export const SURE_PROB = 0.8
/** With top-2 probabilities: the baseline was sure when p1 - p2 is at least this. */
export const SURE_MARGIN = 0.5
/** The McNemar level below which the flips are said to lean one way. */
export const DIRECTION_ALPHA = 0.05

export interface FlipCounts {
  won: number
  lost: number
}

export interface DirectionSummary {
  pairs: number
  won: number
  lost: number
  /** Flips where the baseline was sure / not sure (see `baselineSure`). */
  sure: FlipCounts
  unsure: FlipCounts
  /** Two-sided exact McNemar p-value of won against lost. */
  p: number
  /** 'none': nothing moved; 'churn': moved both ways with no lean; 'gain' / 'drop': a lean at DIRECTION_ALPHA. */
  kind: 'none' | 'churn' | 'gain' | 'drop'
  sentence: string
}

export interface DirectionOptions {
  sureProb?: number
  sureMargin?: number
  alpha?: number
}

/** The baseline's top-1 margin decides: p1 - p2 where recorded, else p1 alone. */
export function baselineSure(record: ProbabilityRecord, sureProb = SURE_PROB, sureMargin = SURE_MARGIN): boolean {
  return record.secondProb === undefined ? record.prob >= sureProb : record.prob - record.secondProb >= sureMargin
}

function checkThreshold(value: number, field: string): void {
  if (!(Number.isFinite(value) && value >= 0 && value <= 1)) {
    throw new UsageError('holistic.bad_threshold', `${field} must be a number in [0, 1].`, { field, value })
  }
}

const answers = (n: number): string => `${n} ${n === 1 ? 'answer' : 'answers'}`

/** A direction summary without the split by margin: for answers whose baseline margin is not known. */
export type FlipDirection = Omit<DirectionSummary, 'sure' | 'unsure'>

/**
 * The summary of flips already counted: the balance, its McNemar p-value and the sentence. With
 * `byMargin` the sentence says how many of the lost the baseline was sure of; without it the
 * sentence says nothing of the margin (the caller says why it is unknown), never a made-up split.
 */
export function directionOfFlips(
  pairs: number,
  flips: FlipCounts,
  byMargin: { sure: FlipCounts; unsure: FlipCounts } | null,
  alpha = DIRECTION_ALPHA
): FlipDirection {
  checkThreshold(alpha, 'alpha')
  const { won, lost } = flips
  const p = mcnemarExactPValue(won, lost)
  const moved = won + lost
  const kind = moved === 0 ? 'none' : p >= alpha ? 'churn' : won > lost ? 'gain' : 'drop'
  const label = { none: '', churn: 'churn, not a drop', gain: 'a gain', drop: 'a drop' }[kind]
  const sure = byMargin ? `; ${byMargin.sure.lost} of the lost where the baseline was sure` : ''
  const sentence =
    kind === 'none'
      ? `moved no answers (${answers(pairs)} paired)`
      : `moved ${answers(moved)}: ${won} won, ${lost} lost (McNemar p = ${p.toFixed(2)}): ${label}${sure}`
  return { pairs, won, lost, p, kind, sentence }
}

export function changeDirection(
  baseline: readonly ProbabilityRecord[],
  candidate: readonly ProbabilityRecord[],
  options: DirectionOptions = {}
): DirectionSummary {
  const sureProb = options.sureProb ?? SURE_PROB
  const sureMargin = options.sureMargin ?? SURE_MARGIN
  const alpha = options.alpha ?? DIRECTION_ALPHA
  checkThreshold(sureProb, 'sureProb')
  checkThreshold(sureMargin, 'sureMargin')
  checkThreshold(alpha, 'alpha')
  const paired = pairRecords(baseline, candidate)
  const sure: FlipCounts = { won: 0, lost: 0 }
  const unsure: FlipCounts = { won: 0, lost: 0 }
  for (const { baseline: b, candidate: c } of paired) {
    if (b.correct === c.correct) continue
    const bucket = baselineSure(b, sureProb, sureMargin) ? sure : unsure
    if (c.correct) bucket.won++
    else bucket.lost++
  }
  const flips = { won: sure.won + unsure.won, lost: sure.lost + unsure.lost }
  const { pairs, won, lost, p, kind, sentence } = directionOfFlips(paired.length, flips, { sure, unsure }, alpha)
  return { pairs, won, lost, sure, unsure, p, kind, sentence }
}
