/**
 * What values a metric can take, so that impossible values are refused and missing instances can
 * be imputed at the metric's worst (docs/method.md "Missing data: the worst-case bound").
 */
import type { MetricValue } from '../model/harness.js'

export interface MetricRange {
  low: number
  high: number
  /** 0/1 by HELM's definition or by what one side holds. */
  binary: boolean
  /** Why the range applies, for messages. */
  because: string
}

/**
 * HELM's 0/1 metrics (benchmark/metrics/basic_metrics.py and evaluate_reference_metrics.py),
 * with their `@k` variants: a value outside [0, 1] is a damaged file, not a score.
 */
const BINARY_METRICS = new Set([
  'exact_match',
  'quasi_exact_match',
  'prefix_exact_match',
  'quasi_prefix_exact_match',
  'exact_match_indicator',
  'final_number_exact_match',
  'exact_set_match',
  'math_equiv',
  'math_equiv_chain_of_thought'
])

/**
 * lm-evaluation-harness's per-sample 0/1 metrics (docs/lm-eval.md): accuracy over the choices of a
 * multiple-choice task (`acc`, `acc_norm`, `acc_mutual_info`) and `exact_match` (already above).
 */
const LM_EVAL_BINARY_METRICS = new Set(['acc', 'acc_norm', 'acc_mutual_info'])

/** HELM metrics that are continuous but bounded to [0, 1] (F1, ROUGE and BLEU scores, set overlaps). */
const UNIT_INTERVAL_METRICS = new Set(['f1_score', 'f1_set_match', 'iou_set_match', 'rouge_1', 'rouge_2', 'rouge_l', 'bleu_1', 'bleu_4'])

/**
 * Beyond this magnitude a value cannot be a HELM score or count, and sums of a few million of
 * them (and their squares) would come close to overflowing a double; such values are refused
 * rather than averaged into an infinite or meaningless interval.
 */
export const MAX_MAGNITUDE = 1e100

function baseName(metric: string): string {
  return metric.replace(/@\d+$/, '')
}

function isZeroOneSide(values: MetricValue[]): boolean {
  let zero = false
  let one = false
  for (const v of values) {
    if (v.value === null) continue
    if (v.value === 0) zero = true
    else if (v.value === 1) one = true
    else return false
  }
  return zero && one
}

/** The range of `metric`, or null when it is unbounded (nothing known about its values). */
export function metricRange(metric: string, baseline: MetricValue[], candidate: MetricValue[]): MetricRange | null {
  const name = baseName(metric)
  if (BINARY_METRICS.has(name)) return { low: 0, high: 1, binary: true, because: `${metric} is a 0/1 metric in HELM` }
  if (LM_EVAL_BINARY_METRICS.has(name)) return { low: 0, high: 1, binary: true, because: `${metric} is a 0/1 metric in lm-eval` }
  if (UNIT_INTERVAL_METRICS.has(name)) return { low: 0, high: 1, binary: false, because: `${metric} lies in [0, 1] in HELM` }
  for (const [side, values] of [
    ['baseline', baseline],
    ['candidate', candidate]
  ] as const) {
    if (isZeroOneSide(values)) return { low: 0, high: 1, binary: true, because: `${metric} is 0/1 on the ${side} side` }
  }
  return null
}

/** The first value outside the range (a non-finite value with a count included), or null. */
export function firstOutOfRange(values: MetricValue[], range: MetricRange): MetricValue | null {
  for (const v of values) {
    const x = v.raw ?? v.value
    if (x === null || x === undefined) continue
    if (!(x >= range.low && x <= range.high)) return v
  }
  return null
}

/** The first value too large to average safely, or null. */
export function firstHuge(values: MetricValue[]): MetricValue | null {
  for (const v of values) if (v.value !== null && Math.abs(v.value) > MAX_MAGNITUDE) return v
  return null
}

export function describeValueKey(v: MetricValue): string {
  return `instance ${v.instanceId}, trial ${v.trainTrialIndex}${v.perturbation ? `, perturbation ${v.perturbation}` : ''}`
}
