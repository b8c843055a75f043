/**
 * Pure comparison of the two sides' blocks: ratios with block-pair intervals per level and
 * metric, and the verdict of each check (docs/load.md, "How the sides are compared").
 *
 * A ratio check passes when its whole interval is on the good side of the threshold, fails when
 * the whole interval is on the bad side, and is inconclusive otherwise (with the block pairs that
 * would resolve it). An absolute check (`min`, `max`) reads the candidate's pooled value. A check
 * whose metric could not be measured (no successful request on a side, a ratio undefined) is
 * never a pass: it is an error.
 */
import type { LoadCheck } from '../config/load-types.js'
import type { Verdict } from '../model/report.js'
import type { CheckVerdict, LoadBlock, LoadCheckResult, LoadRatio, LoadSummary } from '../model/load-report.js'
import { blockPairRatio, pairsToResolve, type PairedLogRatio } from '../stats/log-ratio.js'
import { metricValue } from './metrics.js'

/** The ratios the report always shows, per level (checks may add others). */
export const REPORTED_RATIOS = [
  'output_tokens_per_second',
  'request_throughput',
  'ttft_p50',
  'ttft_p99',
  'itl_p50',
  'itl_p99',
  'latency_p50'
] as const

function pairedValues(blocks: readonly LoadBlock[], level: number, metric: string): { baseline: number[]; candidate: number[] } {
  const at = blocks.filter(b => b.level === level)
  const side = (s: 'baseline' | 'candidate'): number[] =>
    at
      .filter(b => b.side === s)
      .sort((x, y) => x.repetition - y.repetition)
      .map(b => metricValue(b, metric) ?? NaN)
  return { baseline: side('baseline'), candidate: side('candidate') }
}

/** The pooled values of a metric at a level and the block-pair ratio (with the number of pairs). */
function measured(blocks: readonly LoadBlock[], summary: LoadSummary, metric: string, confidence: number) {
  const { baseline, candidate } = pairedValues(blocks, summary.level, metric)
  return {
    pooled: {
      level: summary.level,
      baseline: metricValue(summary.baseline, metric),
      candidate: metricValue(summary.candidate, metric)
    },
    outcome: blockPairRatio(baseline, candidate, confidence),
    pairs: Math.min(baseline.length, candidate.length)
  }
}

export function ratioAt(blocks: readonly LoadBlock[], summary: LoadSummary, metric: string, confidence: number): LoadRatio {
  const { pooled, outcome, pairs } = measured(blocks, summary, metric, confidence)
  return {
    ...pooled,
    metric,
    ratio: outcome.ok ? interval(outcome.ratio) : null,
    pairs,
    reason: outcome.ok ? null : outcome.reason
  }
}

function interval(r: PairedLogRatio): { estimate: number; low: number; high: number } {
  return { estimate: r.estimate, low: r.low, high: r.high }
}

export function reportedRatios(
  blocks: readonly LoadBlock[],
  summary: readonly LoadSummary[],
  checks: readonly LoadCheck[],
  confidence: number
): LoadRatio[] {
  const out: LoadRatio[] = []
  for (const s of summary) {
    const metrics = new Set<string>(REPORTED_RATIOS)
    if (s.baseline.goodput !== null) metrics.add('goodput')
    for (const c of checks)
      if ((c.minRatio !== null || c.maxRatio !== null) && (c.level === null || c.level === s.level)) metrics.add(c.metric)
    for (const metric of metrics) out.push(ratioAt(blocks, s, metric, confidence))
  }
  return out
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(3)
}

export function evaluateCheck(check: LoadCheck, blocks: readonly LoadBlock[], summary: LoadSummary, confidence: number): LoadCheckResult {
  const { pooled, outcome, pairs } = measured(blocks, summary, check.metric, confidence)
  const base = { metric: check.metric, ...pooled }
  if (check.min !== null || check.max !== null) {
    const kind = check.min !== null ? 'min' : 'max'
    const threshold = (check.min ?? check.max) as number
    const value = base.candidate
    if (value === null || !Number.isFinite(value)) {
      return {
        ...base,
        kind,
        threshold,
        ratio: null,
        pairs: 0,
        verdict: 'error',
        pairs_needed: null,
        reason: `the candidate's ${check.metric} could not be measured (no successful request)`
      }
    }
    const good = kind === 'max' ? value <= threshold : value >= threshold
    return {
      ...base,
      kind,
      threshold,
      ratio: null,
      pairs: 0,
      verdict: good ? 'pass' : 'fail',
      pairs_needed: null,
      reason: `candidate ${fmt(value)} ${good ? (kind === 'max' ? '<=' : '>=') : kind === 'max' ? '>' : '<'} ${fmt(threshold)}`
    }
  }
  const kind = check.minRatio !== null ? 'min_ratio' : 'max_ratio'
  const threshold = (check.minRatio ?? check.maxRatio) as number
  if (!outcome.ok) {
    return {
      ...base,
      kind,
      threshold,
      ratio: null,
      pairs,
      verdict: 'error',
      pairs_needed: null,
      reason: `no ratio: ${outcome.reason}`
    }
  }
  const r = outcome.ratio
  let verdict: CheckVerdict
  if (kind === 'min_ratio') verdict = r.low > threshold ? 'pass' : r.high < threshold ? 'fail' : 'inconclusive'
  else verdict = r.high < threshold ? 'pass' : r.low > threshold ? 'fail' : 'inconclusive'
  const needed = verdict === 'inconclusive' ? pairsToResolve(r, threshold, confidence) : null
  const side = kind === 'min_ratio' ? 'above' : 'below'
  const reason =
    verdict === 'pass'
      ? `the whole interval is ${side} ${fmt(threshold)}`
      : verdict === 'fail'
        ? `the whole interval is on the wrong side of ${fmt(threshold)}`
        : needed === null
          ? `the interval contains ${fmt(threshold)} and the estimate sits on it: more pairs will not resolve it`
          : `the interval contains ${fmt(threshold)}; about ${needed} block pairs (repetitions) would resolve it`
  return {
    ...base,
    kind,
    threshold,
    ratio: interval(r),
    pairs: r.pairs,
    verdict,
    pairs_needed: needed,
    reason
  }
}

export function evaluateChecks(
  checks: readonly LoadCheck[],
  blocks: readonly LoadBlock[],
  summary: readonly LoadSummary[],
  confidence: number
): LoadCheckResult[] {
  const out: LoadCheckResult[] = []
  for (const check of checks) {
    for (const s of summary) {
      if (check.level === null || check.level === s.level) out.push(evaluateCheck(check, blocks, s, confidence))
    }
  }
  return out
}

/** How bad a verdict is: error > fail > inconclusive > pass. */
export const VERDICT_RANK: Readonly<Record<Verdict, number>> = { pass: 0, inconclusive: 1, fail: 2, error: 3 }

/** The worse of verdicts: error > fail > inconclusive > pass. */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((worst, v) => (VERDICT_RANK[v] > VERDICT_RANK[worst] ? v : worst), 'pass')
}
