/**
 * The answer-length row of one measurement (docs/method.md "Answer length"): the candidate/baseline
 * ratio of mean tokens per answer over the paired instances, with its interval, decided against
 * the gate file's band when there is one and shown against the default band otherwise. A chat
 * template or end-of-sequence change shows here before any score moves. Pure.
 */
import type { AnswerLengthBand } from '../config/answer-length-band.js'
import { ANSWER_LENGTH_METRIC } from '../config/answer-length-band.js'
import type { GatedRun, StatisticsSettings } from '../config/types.js'
import { GateError } from '../errors.js'
import type { AnswerLength } from '../model/report.js'
import { decideRatioBand, ratioOfMeans } from '../stats/index.js'
import type { IssueLog } from './issues.js'
import { pairValues, type MetricValue } from './pairing.js'
import type { RunData } from './run-data.js'

/** The band an ungated row's verdict is shown against (it never decides). */
export const REPORTED_LENGTH_BAND: AnswerLengthBand = { min: 0.8, max: 1.25 }

export const LENGTH_INTERVAL_METHOD = 'paired bootstrap of the ratio of means'

/** The unit where the harness records no token counts. */
export const CHARACTERS_UNIT = 'characters (no token counts recorded)'
export const TOKENS_UNIT = 'output tokens'

export function answerLengthRow(
  source: AnswerLength['source'],
  run: string,
  unit: string,
  baseline: readonly number[],
  candidate: readonly number[],
  band: AnswerLengthBand | null,
  statistics: StatisticsSettings
): AnswerLength {
  let est
  try {
    est = ratioOfMeans(baseline, candidate, statistics)
  } catch (error) {
    if (error instanceof GateError)
      throw new GateError(error.code, `${source} ${run}, ${ANSWER_LENGTH_METRIC}: ${error.message}`, error.location)
    throw error
  }
  const shownBand = band ?? REPORTED_LENGTH_BAND
  const decision = decideRatioBand(est, shownBand)
  return {
    source,
    run,
    unit,
    n: est.n,
    baseline_mean: est.baselineMean,
    candidate_mean: est.candidateMean,
    ratio: { estimate: est.estimate, low: est.low, high: est.high, level: est.level, method: LENGTH_INTERVAL_METHOD },
    gated: band !== null,
    min: shownBand.min,
    max: shownBand.max,
    verdict: decision.verdict,
    n_needed: decision.nNeeded,
    reason: decision.reason
  }
}

/** HELM's own count of a completion's tokens, per instance (basic metrics, every HELM version read). */
export const HELM_LENGTH_STAT = 'num_output_tokens'

/**
 * The answer-length row of one HELM run pair: HELM's `num_output_tokens` of the clean instances
 * in the compared split, paired by instance (the mean over train trials per instance). A run
 * without the stat is reported as a warning, or as an error when its band gates (fail closed).
 */
export function helmAnswerLength(
  run: string,
  gated: GatedRun,
  split: string | null,
  b: RunData,
  c: RunData,
  statistics: StatisticsSettings,
  log: IssueLog
): AnswerLength | null {
  const missing = [b, c].find(side => !side.metricNames().includes(HELM_LENGTH_STAT))
  if (missing) {
    const message = `run ${run}: no ${HELM_LENGTH_STAT} in per_instance_stats.json, so the answer lengths cannot be compared`
    if (gated.answerLength) log.error('length.not_recorded', message, { file: missing.perInstanceStatsFile, field: ANSWER_LENGTH_METRIC })
    else log.warn('length.not_recorded', message, { file: missing.perInstanceStatsFile })
    return null
  }
  const clean = (side: RunData): MetricValue[] => side.values(HELM_LENGTH_STAT, split).filter(v => v.perturbation === null)
  const paired = pairValues(clean(b), clean(c))
  const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length
  if (paired.clusters.length === 0) {
    const message = `run ${run}: no instance has ${HELM_LENGTH_STAT} on both sides`
    if (gated.answerLength) log.error('length.not_recorded', message, { file: c.perInstanceStatsFile, field: ANSWER_LENGTH_METRIC })
    else log.warn('length.not_recorded', message, { file: c.perInstanceStatsFile })
    return null
  }
  try {
    return answerLengthRow(
      'helm',
      run,
      TOKENS_UNIT,
      paired.clusters.map(k => mean(k.baseline)),
      paired.clusters.map(k => mean(k.candidate)),
      gated.answerLength ?? null,
      statistics
    )
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    if (gated.answerLength) log.fromError(error)
    else log.warn(error.code, error.message, { file: c.perInstanceStatsFile })
    return null
  }
}
