/**
 * The fidelity figures and checks over instances (docs/fidelity.md "Statistics"). Pure.
 *
 * Per instance the candidate's value (scored on the baseline's answer) is paired with the floor's
 * value (a second pass of the baseline scored the same way: the A/A floor), so that engine
 * nondeterminism is not charged to the change. The paired engine (src/stats/) gives the mean of
 * candidate - floor with its interval: a cluster bootstrap over instances (the tokens of one answer
 * move together), or Tango's interval when every per-instance value is 0 or 1. A check's threshold
 * is in the metric's own units and is read against perfect + (candidate - floor): the value the
 * candidate would show against a deterministic baseline. On a deterministic server the floor is
 * exactly perfect and the corrected value is the candidate's own.
 */
import type { FidelityCheck, FidelityMetric } from '../config/fidelity.js'
import { FIDELITY_METRICS, METRIC_SHAPE } from '../config/fidelity.js'
import type { StatisticsSettings } from '../config/types.js'
import { GuardError } from '../errors.js'
import type { FidelityCheckRow, FidelityFigure, FidelityInstanceRow } from '../model/fidelity-report.js'
import { decideVerdict, estimatePaired, type PairedEstimate } from '../stats/index.js'
import type { InstanceFidelity } from './token-metrics.js'

export interface InstanceScores {
  id: string
  /** The candidate scored on the baseline's answer. */
  candidate: InstanceFidelity
  /** The baseline's second pass scored on the first pass's answer; null when no rerun was made. */
  floor: InstanceFidelity | null
  /** Tokens in the baseline's (first pass) answer, in the candidate's own greedy answer, and in the rerun's. */
  baselineTokens: number
  candidateTokens: number | null
  rerunTokens: number | null
}

/** The per-instance value of a metric for the candidate and for the floor (null: not measured). */
function values(metric: FidelityMetric, s: InstanceScores): { candidate: number; floor: number } | null {
  const perfect = METRIC_SHAPE[metric].perfect
  if (metric === 'answer_length_ratio') {
    if (s.candidateTokens === null || s.baselineTokens === 0) return null
    return {
      candidate: s.candidateTokens / s.baselineTokens,
      floor: s.rerunTokens === null ? perfect : s.rerunTokens / s.baselineTokens
    }
  }
  const pick = (f: InstanceFidelity): number =>
    metric === 'top1_agreement' ? f.top1Agreement : metric === 'kld_mean' ? f.klMean : metric === 'kld_max' ? f.klMax : f.deltaPMean
  return { candidate: pick(s.candidate), floor: s.floor === null ? perfect : pick(s.floor) }
}

function estimate(metric: FidelityMetric, rows: InstanceScores[], settings: StatisticsSettings): PairedEstimate | null {
  const pairs = rows.map(r => values(metric, r))
  if (pairs.length === 0 || pairs.some(p => p === null)) return null
  // Agreement is a share: where every instance's value is 0 or 1 (one-token answers, or all
  // agreeing), auto gives Tango's interval, as for exact match. The others are continuous: a KL of
  // exactly 0 on every instance is not a 0/1 outcome, so they always take the cluster bootstrap.
  return estimatePaired(
    (pairs as { candidate: number; floor: number }[]).map(p => ({ baseline: [p.floor], candidate: [p.candidate] })),
    { ...settings, interval: metric === 'top1_agreement' ? 'auto' : 'bootstrap' }
  )
}

export function fidelityFigure(metric: FidelityMetric, rows: InstanceScores[], settings: StatisticsSettings): FidelityFigure | null {
  const est = estimate(metric, rows, settings)
  if (est === null) return null
  return figureOf(metric, est)
}

/** The values one instance can take, per metric. */
const METRIC_RANGE: Record<FidelityMetric, { low: number; high: number }> = {
  top1_agreement: { low: 0, high: 1 },
  kld_mean: { low: 0, high: Infinity },
  kld_max: { low: 0, high: Infinity },
  delta_p_mean: { low: -1, high: 1 },
  answer_length_ratio: { low: 0, high: Infinity }
}

function figureOf(metric: FidelityMetric, est: PairedEstimate): FidelityFigure {
  const perfect = METRIC_SHAPE[metric].perfect
  // Each instance's candidate - floor lies in [low - floor, high - floor], so their mean lies in
  // [low - F, high - F] for the floor's mean F. Tango's interval (and a bootstrap near the edge)
  // can reach past that: all-agreeing answers gave top-1 agreement [0.886, 1.114]. The shown
  // interval is cut to what the values can be; the verdict is decided on the interval as computed
  // (decideFidelityCheck), and a cut bound is one no threshold inside the range can lie beyond.
  const range = METRIC_RANGE[metric]
  const lowest = perfect + range.low - est.baselineMean
  const highest = perfect + range.high - est.baselineMean
  return {
    metric,
    candidate: est.candidateMean,
    floor: est.baselineMean,
    corrected: perfect + est.delta,
    ci: {
      low: Math.min(highest, Math.max(lowest, perfect + est.ci.low)),
      high: Math.max(lowest, Math.min(highest, perfect + est.ci.high)),
      level: est.ci.level
    }
  }
}

/**
 * One check: pass when the whole interval of the corrected value is on the good side of the
 * threshold, fail when it is all on the bad side, inconclusive otherwise (with the instances that
 * would resolve it), by the same rule and n_needed as every other comparison (stats/decide-verdict.ts).
 */
export function decideFidelityCheck(check: FidelityCheck, rows: InstanceScores[], settings: StatisticsSettings): FidelityCheckRow {
  const est = estimate(check.metric, rows, settings)
  if (est === null) {
    throw new GuardError(
      'fidelity.not_measured',
      `fidelity: ${check.metric} was not measured on every instance (the candidate's own answer is needed for answer_length_ratio)`,
      { field: 'fidelity.checks', value: check.metric }
    )
  }
  const perfect = METRIC_SHAPE[check.metric].perfect
  const margin = Math.abs(check.value - perfect)
  const decision = decideVerdict(est, margin, check.bound === 'min' ? 'higher' : 'lower', settings.confidence)
  const figure = figureOf(check.metric, est)
  const shown = `${fmt(figure.corrected)} [${fmt(figure.ci.low)}, ${fmt(figure.ci.high)}]`
  const side = check.bound === 'min' ? 'at least' : 'at most'
  const reason =
    decision.verdict === 'pass'
      ? `${check.metric} ${shown}: the whole interval is within ${side} ${check.value}.`
      : decision.verdict === 'fail'
        ? `${check.metric} ${shown}: the whole interval is beyond ${check.value}; the candidate departs from the baseline more than tolerated.`
        : decision.nNeeded === null
          ? `${check.metric} ${shown}: the estimate itself is beyond ${check.value}; more instances would not make this pass.`
          : `${check.metric} ${shown} straddles ${check.value}: about ${decision.nNeeded} instances (now ${est.n}) would resolve it; use more instances, not a looser threshold.`
  return {
    verdict: decision.verdict,
    metric: check.metric,
    bound: check.bound,
    threshold: check.value,
    figure,
    nNeeded: decision.nNeeded,
    reason
  }
}

/** Every figure that could be computed, in the order of FIDELITY_METRICS. */
export function fidelityFigures(rows: InstanceScores[], settings: StatisticsSettings): FidelityFigure[] {
  const out: FidelityFigure[] = []
  for (const metric of FIDELITY_METRICS) {
    const figure = fidelityFigure(metric, rows, settings)
    if (figure !== null) out.push(figure)
  }
  return out
}

/** The instances with the largest mean KL (ties by id), for the reviewer to look at. */
export function worstInstances(rows: InstanceScores[], count: number): FidelityInstanceRow[] {
  return [...rows]
    .sort((a, b) => b.candidate.klMean - a.candidate.klMean || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, count)
    .map(r => ({
      id: r.id,
      positions: r.candidate.positions,
      top1Agreement: r.candidate.top1Agreement,
      klMean: r.candidate.klMean,
      klMax: r.candidate.klMax,
      deltaPMean: r.candidate.deltaPMean,
      firstDivergence: r.candidate.firstDivergence,
      lengthRatio: r.candidateTokens === null ? null : r.candidateTokens / r.baselineTokens,
      ...(r.candidate.cells ? { tokens: r.candidate.cells } : {})
    }))
}

function fmt(x: number): string {
  return Number(x.toPrecision(4)).toString()
}
