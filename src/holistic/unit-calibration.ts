/**
 * The calibration row of one paired unit: each side's probability records read from the values
 * the harness already opened (`max_prob` beside `exact_match`, as HELM's own calibration metrics
 * pair them), then the paired check of src/holistic/calibration.ts. Any doubt (no probabilities,
 * an unpaired record, a fractional score) is a named error for the caller's log, never a row.
 */
import type { CalibrationSettings } from '../config/calibration-check.js'
import type { StatisticsSettings } from '../config/types.js'
import { GateError, InputError } from '../errors.js'
import type { UnitValues } from '../model/harness.js'
import type { CalibrationRow } from '../model/report.js'
import { checkCalibration } from './calibration.js'
import type { ProbabilityRecord } from './types.js'

const PROBABILITY_METRIC = 'max_prob'
const CORRECTNESS_METRIC = 'exact_match'

/** Where HELM records probabilities, for the error that says a run has none (docs/gate-file.md "Calibration"). */
const WHERE_PROBABILITIES =
  'HELM writes max_prob only when the requests return log-probabilities (a multiple-choice adapter, or a client that asks for logprobs)'

/** One side's records in `split` (null: every split): each value of `max_prob` with its `exact_match`. */
export function probabilityRecordsOf(run: string, values: UnitValues, split: string | null): ProbabilityRecord[] {
  const file = values.perInstanceStatsFile
  const probs = values.values(PROBABILITY_METRIC, split).filter(v => v.value !== null)
  if (probs.length === 0) {
    throw new InputError(
      'holistic.no_probabilities',
      `run ${run} has no ${PROBABILITY_METRIC}: a calibration check needs it. ${WHERE_PROBABILITIES}.`,
      {
        file,
        field: PROBABILITY_METRIC,
        value: run
      }
    )
  }
  // All exactly 1 is what HELM writes when the answers came without log-probabilities (a chat
  // client, a simple model): ECE would only restate the error rate.
  if (probs.every(v => v.value === 1)) {
    throw new InputError(
      'holistic.no_probabilities',
      `run ${run}: every ${PROBABILITY_METRIC} is 1, so the answers came without log-probabilities and calibration cannot be measured. ${WHERE_PROBABILITIES}.`,
      { file, field: PROBABILITY_METRIC, value: 1 }
    )
  }
  const keyOf = (v: { instanceId: string; trainTrialIndex: number; perturbation: string | null }): string =>
    JSON.stringify([v.instanceId, v.trainTrialIndex, v.perturbation])
  const correct = new Map(values.values(CORRECTNESS_METRIC, split).map(v => [keyOf(v), v.value]))
  return probs.map(v => {
    const field = `${v.instanceId}, trial ${v.trainTrialIndex}, ${v.perturbation ?? 'clean'}`
    const score = correct.get(keyOf(v))
    if (score === undefined || score === null) {
      throw new InputError('holistic.no_exact_match', `run ${run}: an instance has ${PROBABILITY_METRIC} but no ${CORRECTNESS_METRIC}`, {
        file,
        field,
        value: null
      })
    }
    if (score !== 0 && score !== 1) {
      throw new InputError('holistic.fractional_exact_match', `run ${run}: ${CORRECTNESS_METRIC} is neither 0 nor 1`, {
        file,
        field,
        value: score
      })
    }
    const prob = v.value as number
    if (!(prob >= 0 && prob <= 1)) {
      throw new InputError('holistic.bad_probability', `run ${run}: ${PROBABILITY_METRIC} is outside [0, 1]`, { file, field, value: prob })
    }
    return { instanceId: v.instanceId, trainTrialIndex: v.trainTrialIndex, perturbation: v.perturbation, prob, correct: score === 1 }
  })
}

/**
 * The unit's calibration row, or the error that stands for it. The statistics settings are the
 * gate's own (confidence, resamples, seed), so the row is reproducible like every other.
 */
export function unitCalibration(
  run: string,
  check: CalibrationSettings,
  baseline: UnitValues,
  candidate: UnitValues,
  split: string | null,
  statistics: StatisticsSettings
): CalibrationRow | GateError {
  let b: ProbabilityRecord[]
  let c: ProbabilityRecord[]
  try {
    b = probabilityRecordsOf(run, baseline, split)
    c = probabilityRecordsOf(run, candidate, split)
  } catch (error) {
    if (error instanceof GateError) return error
    throw error
  }
  const decision = checkCalibration(
    b,
    c,
    { metric: check.metric, max_increase: check.maxIncrease },
    { resamples: statistics.resamples, seed: statistics.seed, confidence: statistics.confidence }
  )
  if (decision.verdict === 'error' || decision.estimate === null) {
    return new InputError('holistic.calibration', `run ${run}: the calibration check could not be made: ${decision.reason}`, {
      file: baseline.perInstanceStatsFile,
      field: PROBABILITY_METRIC,
      value: run
    })
  }
  const e = decision.estimate
  return {
    run,
    metric: check.metric,
    split,
    n: e.n,
    pairs: e.pairs,
    baseline: e.baseline,
    candidate: e.candidate,
    delta: e.delta,
    ci: e.ci,
    max_increase: check.maxIncrease,
    gated: true,
    verdict: decision.verdict,
    n_needed: decision.nNeeded,
    reason: decision.reason
  }
}
