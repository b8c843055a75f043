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
import { decideRatioBand, ratioOfMeans, ratioOfMeansDelta, type MeanRatioEstimate } from '../stats/index.js'
import { ratioOfMeansOffThread } from '../stats/off-thread.js'
import type { IssueLog } from '../model/issue-log.js'
import type { MetricValue, PairedLengths } from '../model/harness.js'
import { pairValues } from './pairing.js'
import type { RunData } from './run-data.js'

/** The band an ungated row's verdict is shown against (it never decides). */
export const REPORTED_LENGTH_BAND: AnswerLengthBand = { min: 0.8, max: 1.25 }

/** The interval of a row whose band decides. */
export const LENGTH_INTERVAL_METHOD = 'paired bootstrap of the ratio of means'
/** The interval of a row that is only shown: one pass, no resamples (docs/method.md "Answer length"). */
export const SHOWN_LENGTH_INTERVAL_METHOD = 'delta method on the log scale (shown only, not gated)'

/**
 * The one rule for which interval a row gets: the paired bootstrap when its band gates, the
 * delta method when it is information only, so that an ungated row adds no resampling to the
 * gated path (issue: no release slower than the last; docs/benchmarks.md "Against the previous
 * release"). Both cover about 95% on the simulated lengths (__tests__/stats/coverage.test.ts).
 */
function methodFor(band: AnswerLengthBand | null): string {
  return band ? LENGTH_INTERVAL_METHOD : SHOWN_LENGTH_INTERVAL_METHOD
}

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
    est = band ? ratioOfMeans(baseline, candidate, statistics) : ratioOfMeansDelta(baseline, candidate, statistics)
  } catch (error) {
    throw named(source, run, error)
  }
  return rowFromEstimate(source, run, unit, est, band)
}

/** A GateError from the interval, said of its row. */
function named(source: AnswerLength['source'], run: string, error: unknown): unknown {
  if (error instanceof GateError)
    return new GateError(error.code, `${source} ${run}, ${ANSWER_LENGTH_METRIC}: ${error.message}`, error.location)
  return error
}

/** The row from its interval: decided against the band, or shown against the default one. */
function rowFromEstimate(
  source: AnswerLength['source'],
  run: string,
  unit: string,
  est: MeanRatioEstimate,
  band: AnswerLengthBand | null
): AnswerLength {
  const shownBand = band ?? REPORTED_LENGTH_BAND
  const decision = decideRatioBand(est, shownBand)
  return {
    source,
    run,
    unit,
    n: est.n,
    baseline_mean: est.baselineMean,
    candidate_mean: est.candidateMean,
    ratio: { estimate: est.estimate, low: est.low, high: est.high, level: est.level, method: methodFor(band) },
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

/** The fallback where HELM records no tokens: its chat clients return completions without tokens, so the stat is 0. */
export const HELM_CHARACTERS_UNIT = 'characters (HELM recorded no output tokens: its chat clients keep none)'

/**
 * The answer-length row of one paired unit from the lengths its harness paired (a HELM run's
 * output tokens or characters, an lm-eval task's characters): decided against the entry's band,
 * or shown against the default one. A gated row's bootstrap runs on a statistics worker
 * (stats/off-thread.ts): start it before the gated comparisons and await it after them, and it
 * overlaps the gated path instead of following it; a shown row's delta-method interval is one pass
 * in process (`methodFor`). A row that cannot be computed is an error when its band gates
 * (fail closed), a warning otherwise; the issue is logged by `settle`, when the caller awaits it,
 * so the log keeps the order it had when the row was computed in place.
 */
export async function unitAnswerLength(
  name: string,
  gated: GatedRun,
  lengths: PairedLengths,
  statistics: StatisticsSettings
): Promise<{ settle(log: IssueLog): AnswerLength | null }> {
  const band = gated.answerLength ?? null
  try {
    const est = band
      ? await ratioOfMeansOffThread(lengths.baseline, lengths.candidate, statistics)
      : ratioOfMeansDelta(lengths.baseline, lengths.candidate, statistics)
    const row = rowFromEstimate(lengths.source, name, lengths.unit, est, band)
    return { settle: () => row }
  } catch (caught) {
    const error = named(lengths.source, name, caught)
    if (!(error instanceof GateError)) throw error
    return {
      settle: log => {
        if (band) log.fromError(error)
        else log.warn(error.code, error.message, { file: lengths.file })
        return null
      }
    }
  }
}

/**
 * The answer lengths of one HELM run pair: HELM's `num_output_tokens` of the clean instances in
 * the compared split, paired by instance (the mean over train trials per instance). Where HELM
 * recorded no tokens on a side (the stat is absent, or 0 on every instance: its chat clients keep
 * no tokens), both sides fall back to the code points of each answer's text in scenario_state.json.
 * A run where neither can be read is a warning, or an error when its band gates (fail closed).
 */
export function helmLengths(
  run: string,
  gated: GatedRun,
  split: string | null,
  b: RunData,
  c: RunData,
  log: IssueLog
): PairedLengths | null {
  const band = gated.answerLength ?? null
  const problem = (message: string, file: string): null => {
    if (band) log.error('length.not_recorded', `run ${run}: ${message}`, { file, field: ANSWER_LENGTH_METRIC })
    else log.warn('length.not_recorded', `run ${run}: ${message}`, { file })
    return null
  }
  const clean = (side: RunData): MetricValue[] =>
    side.metricNames().includes(HELM_LENGTH_STAT) ? side.values(HELM_LENGTH_STAT, split).filter(v => v.perturbation === null) : []
  const recorded = (values: MetricValue[]): boolean => values.some(v => v.value !== null && v.value > 0)
  let values = { baseline: clean(b), candidate: clean(c) }
  let unit = TOKENS_UNIT
  if (!recorded(values.baseline) || !recorded(values.candidate)) {
    const chars = (side: RunData): MetricValue[] | null =>
      side.requestStates === null
        ? null
        : side.requestStates
            .filter(s => s.perturbation === null)
            .map(s => ({ instanceId: s.instanceId, trainTrialIndex: s.trainTrialIndex, perturbation: null, value: s.outputChars ?? null }))
    const cb = chars(b)
    const cc = chars(c)
    if (cb === null || cc === null) {
      return problem(
        `no ${HELM_LENGTH_STAT} and no scenario_state.json, so the answer lengths cannot be compared`,
        (cb === null ? b : c).perInstanceStatsFile
      )
    }
    values = { baseline: cb, candidate: cc }
    unit = HELM_CHARACTERS_UNIT
  }
  const paired = pairValues(values.baseline, values.candidate)
  const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length
  if (paired.clusters.length === 0) return problem('no instance has an answer length on both sides', c.perInstanceStatsFile)
  return {
    source: 'helm',
    unit,
    baseline: paired.clusters.map(k => mean(k.baseline)),
    candidate: paired.clusters.map(k => mean(k.candidate)),
    file: c.perInstanceStatsFile
  }
}
