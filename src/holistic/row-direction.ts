/**
 * The direction of one comparison row (docs/method.md "Paired calibration and the direction of a
 * change"): its paired 0/1 values counted as won and lost, split by the baseline's `max_prob`
 * where the run has one, read from the values the harness already opened (nothing is read
 * twice). Information only: nothing here is an error or changes a verdict, so a doubt about the
 * margin leaves the split out with its reason instead of failing the gate.
 */
import type { UnitValues } from '../model/harness.js'
import type { ChangeDirection, FlipCount } from '../model/report.js'
import { directionOfFlips, SURE_PROB } from './direction.js'

const PROBABILITY_METRIC = 'max_prob'

/** The baseline's `max_prob` by (instance, trial, perturbation) in one split, or why the margin is unknown. */
export type BaselineMargins = { probs: ReadonlyMap<string, number> } | { reason: string }

export function marginKey(instanceId: string, trainTrialIndex: number, perturbation: string | null): string {
  // \u0001 for the clean instance: no perturbation key is empty, but none may collide with it either.
  return `${instanceId}\u0000${trainTrialIndex}\u0000${perturbation ?? '\u0001'}`
}

/** Read once per unit: every row of the unit (clean, each perturbation) looks its margins up here. */
export function baselineMargins(run: string, baseline: UnitValues, split: string | null): BaselineMargins {
  const values = baseline.values(PROBABILITY_METRIC, split).filter(v => v.value !== null)
  if (values.length === 0) {
    return {
      reason: `run ${run} has no ${PROBABILITY_METRIC} on the baseline (HELM writes it only when the requests return log-probabilities)`
    }
  }
  // HELM writes 1 everywhere when the answers came without log-probabilities: every answer would be "sure".
  if (values.every(v => v.value === 1)) {
    return { reason: `every ${PROBABILITY_METRIC} of the baseline is 1: its answers came without log-probabilities` }
  }
  const probs = new Map<string, number>()
  for (const v of values) {
    const prob = v.value as number
    if (!(prob >= 0 && prob <= 1)) {
      return {
        reason: `the baseline's ${PROBABILITY_METRIC} of instance ${v.instanceId} (trial ${v.trainTrialIndex}) is ${prob}, outside [0, 1]`
      }
    }
    probs.set(marginKey(v.instanceId, v.trainTrialIndex, v.perturbation), prob)
  }
  return { probs }
}

/** One paired instance of a row: its trials' values on each side, in the same order. */
export interface PairedInstance {
  instanceId: string
  perturbation: string | null
  trials: readonly number[]
  baseline: readonly number[]
  candidate: readonly number[]
}

export interface RowDirectionInput {
  metric: string
  /** Every paired value is 0 or 1 (the row's estimate says). */
  binary: boolean
  higherIsBetter: boolean
  margins: BaselineMargins
}

/** O(pairs): one pass, one look-up per flipped answer; no resampling. */
export function rowDirection(input: RowDirectionInput, instances: readonly PairedInstance[]): ChangeDirection {
  if (!input.binary) {
    return { kind: 'absent', reason: `${input.metric} is not 0 or 1 on every instance, so no answer is simply won or lost` }
  }
  const right = input.higherIsBetter ? 1 : 0
  const probs = 'probs' in input.margins ? input.margins.probs : null
  const sure: FlipCount = { won: 0, lost: 0 }
  const unsure: FlipCount = { won: 0, lost: 0 }
  let pairs = 0
  let unknown = 0
  let firstUnknown = ''
  for (const inst of instances) {
    for (let t = 0; t < inst.baseline.length; t++) {
      pairs++
      const b = inst.baseline[t] === right
      const c = inst.candidate[t] === right
      if (b === c) continue
      const prob = probs?.get(marginKey(inst.instanceId, inst.trials[t], inst.perturbation))
      if (probs && prob === undefined && unknown++ === 0) firstUnknown = inst.instanceId
      const bucket = prob !== undefined && prob >= SURE_PROB ? sure : unsure
      if (c) bucket.won++
      else bucket.lost++
    }
  }
  const flips = { won: sure.won + unsure.won, lost: sure.lost + unsure.lost }
  let reason = 'reason' in input.margins ? input.margins.reason : null
  if (reason === null && unknown > 0) {
    reason = `${unknown} of the flipped answers have no ${PROBABILITY_METRIC} on the baseline (instance ${firstUnknown} first)`
  }
  const split = reason === null ? { sure, unsure } : null
  const summary = directionOfFlips(pairs, flips, split)
  return {
    kind: summary.kind,
    pairs,
    won: summary.won,
    lost: summary.lost,
    p_value: summary.p,
    margin: split ? { by: PROBABILITY_METRIC, sure_at: SURE_PROB, sure, unsure } : null,
    margin_reason: reason,
    sentence: summary.sentence
  }
}
