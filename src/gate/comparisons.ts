/**
 * Builds the comparisons of one gated run: the clean instances (gated), each perturbation and
 * the per-instance worst case (gated only when the gate file asks for it).
 */
import type { GatedRun, StatisticsSettings } from '../config/types.js'
import { GateError } from '../errors.js'
import type { ChangedExample, Comparison, WorstCase } from '../model/report.js'
import { decideVerdict, estimatePaired, resolveMaxDrop } from '../stats/index.js'
import type { PairedEstimate, VerdictDecision } from '../stats/types.js'
import type { IssueLog } from '../model/issue-log.js'
import { baselineMargins, rowDirection, type BaselineMargins, type PairedInstance } from '../holistic/row-direction.js'
import { comparisonRow, pairedDecision } from './comparison-row.js'
import { checkMetricValues } from './coverage-guards.js'
import { metricRange, type MetricRange } from './metric-range.js'
import type { MetricValue, UnitValues } from '../model/harness.js'
import { imputeMissing, pairValues, worstCase, type PairedData } from './pairing.js'

/** `split` is resolveSplit's answer (the caller resolves it first to start the answer-length row). */
export function buildComparisons(
  run: string,
  gated: GatedRun,
  split: string | null,
  b: UnitValues,
  c: UnitValues,
  statistics: StatisticsSettings,
  examples: number,
  log: IssueLog
): Comparison[] {
  const valuesB = b.values(gated.metric, split)
  const valuesC = c.values(gated.metric, split)
  const range = metricRange(gated.metric, valuesB, valuesC)
  if (!checkMetricValues(run, gated.metric, range, valuesB, valuesC, b, c, log)) return []

  const out: Comparison[] = []
  const isClean = (v: MetricValue): boolean => v.perturbation === null
  // The baseline's max_prob, looked up once for every row of the unit (the direction's margin).
  const margins = baselineMargins(run, b, split)
  const ctx: OneContext = { run, gated, split, range, b, c, statistics, examples, log, margins }
  const clean = compareOne(ctx, null, true, valuesB.filter(isClean), valuesC.filter(isClean))
  if (clean) out.push(clean)

  const perturbations = [...new Set([...valuesB, ...valuesC].map(v => v.perturbation).filter((p): p is string => p !== null))].sort()
  const gatePerturbed = gated.perturbations === 'gate'
  for (const p of perturbations) {
    const only = (v: MetricValue): boolean => v.perturbation === p
    const cmp = compareOne(ctx, p, gatePerturbed, valuesB.filter(only), valuesC.filter(only))
    if (cmp) out.push(cmp)
  }
  if (perturbations.length > 0) {
    const worst = worstCase(valuesB, valuesC, gated.direction)
    const cmp = compareOne(ctx, 'worst', gatePerturbed, worst.baseline, worst.candidate, { baseline: valuesB, candidate: valuesC })
    if (cmp) out.push(cmp)
  }
  return out
}

/** The split a run's gated metric is compared on; undefined = an error was logged. */
export function resolveSplit(run: string, gated: GatedRun, b: UnitValues, c: UnitValues, log: IssueLog): string | null | undefined {
  const splitsB = b.splits(gated.metric)
  const splitsC = c.splits(gated.metric)
  for (const [side, splits, data] of [
    ['baseline', splitsB, b],
    ['candidate', splitsC, c]
  ] as const) {
    if (splits.length === 0) {
      log.error('guard.metric_missing', `run ${run}: metric ${gated.metric} is absent on the ${side} side`, {
        file: data.perInstanceStatsFile,
        field: 'metric',
        value: `available: ${data.metricNames().join(', ') || 'none'}`
      })
      return undefined
    }
  }
  const split = gated.split ?? defaultSplit(run, gated.metric, splitsB, splitsC, log)
  if (split === undefined) return undefined
  // The default is chosen from the splits of both sides, never from the ones they share: a side
  // that lost its test split must not be judged on valid alone.
  for (const [side, splits, data] of [
    ['baseline', splitsB, b],
    ['candidate', splitsC, c]
  ] as const) {
    if (!splits.includes(split)) {
      log.error('guard.split_missing', `run ${run}: ${gated.metric} has no split ${split} on the ${side} side`, {
        file: data.perInstanceStatsFile,
        field: 'split',
        value: `available: ${splits.join(', ')}`
      })
      return undefined
    }
  }
  return split
}

/** The split to compare when none is configured: the only one, or test. undefined = error logged. */
function defaultSplit(
  run: string,
  metric: string,
  splitsB: (string | null)[],
  splitsC: (string | null)[],
  log: IssueLog
): string | null | undefined {
  const all = [...new Set([...splitsB, ...splitsC])].sort()
  if (all.length === 1) return all[0]
  // Several splits (synthetic_reasoning scores valid and test): test is what users gate on.
  if (all.includes('test')) {
    log.warn('split.default', `run ${run}: ${metric} is reported for splits ${all.join(', ')}; comparing test (set split to choose)`)
    return 'test'
  }
  log.error('guard.split_ambiguous', `run ${run}: ${metric} is reported for several splits; choose one with split`, {
    value: all.join(', ')
  })
  return undefined
}

interface OneContext {
  run: string
  gated: GatedRun
  split: string | null
  range: MetricRange | null
  b: UnitValues
  c: UnitValues
  statistics: StatisticsSettings
  examples: number
  log: IssueLog
  margins: BaselineMargins
}

/** The worst case takes each instance's worst variant, so no one baseline answer stands behind a value. */
const WORST_CASE_MARGIN: BaselineMargins = {
  reason: "the worst case takes each instance's worst variant, so no one max_prob of the baseline stands behind it"
}

function compareOne(
  ctx: OneContext,
  perturbation: string | null,
  isGated: boolean,
  valuesB: MetricValue[],
  valuesC: MetricValue[],
  /** For the per-instance worst case: the per-variant values it was built from. */
  variants?: { baseline: MetricValue[]; candidate: MetricValue[] }
): Comparison | null {
  const { run, gated, split, statistics, examples, log } = ctx
  const label = `run ${run}, ${gated.metric}${split ? ` (${split})` : ''}${perturbation ? `, perturbation ${perturbation}` : ''}`
  const paired = pairValues(valuesB, valuesC)
  if (!pairingHolds(ctx, label, paired)) return null
  let estimate: PairedEstimate
  let maxDrop: number
  let decision: VerdictDecision
  let worst: WorstCaseBound
  try {
    estimate = estimatePaired(paired.clusters, statistics)
    maxDrop = resolveMaxDrop(gated.maxDrop, gated.maxRelativeDrop, estimate.baselineMean)
    decision = pairedDecision(estimate, maxDrop, gated.direction, statistics)
    worst = worstCaseBound(ctx, paired, estimate, maxDrop, valuesB, valuesC, variants)
  } catch (error) {
    if (error instanceof GateError) {
      log.error(error.code, `${label}: ${error.message}`, error.location)
      return null
    }
    throw error
  }
  decision = withWorstCase(log, label, estimate, decision, worst)
  return comparisonRow(
    {
      id: [run, gated.metric, split ?? '', perturbation ?? 'clean'].join(' | '),
      run,
      entry: gated.entry,
      metric: gated.metric,
      split,
      perturbation,
      gated: isGated,
      direction: gated.direction,
      unmatched: paired.unmatched,
      dropped: paired.dropped,
      max_drop: maxDrop,
      max_relative_drop: gated.maxRelativeDrop
    },
    estimate,
    decision,
    {
      worstCase: { imputed: worst.imputed, low: worst.low, high: worst.high, method: worst.method, verdict: worst.verdict },
      reason: decision.reason,
      examples: perturbation === 'worst' ? [] : changedExamples(paired, examples, statistics.flipTolerance),
      // Information only, never part of the verdict above.
      direction: rowDirection(
        {
          metric: gated.metric,
          binary: estimate.binary,
          higherIsBetter: gated.direction === 'higher',
          margins: perturbation === 'worst' ? WORST_CASE_MARGIN : ctx.margins
        },
        pairedInstances(paired, perturbation)
      )
    }
  )
}

/**
 * The pairing guards: too few instances scored on both sides, or none, is an error (false); keys
 * without a partner and values that are not measurements are left out with a warning.
 */
function pairingHolds(ctx: OneContext, label: string, paired: PairedData): boolean {
  const { c, statistics, log } = ctx
  if (paired.overlap < statistics.minOverlap) {
    log.error(
      'guard.overlap',
      `${label}: only ${(paired.overlap * 100).toFixed(1)}% of instances were scored on both sides (minimum ${(statistics.minOverlap * 100).toFixed(1)}%); ${paired.unmatched.baseline} baseline and ${paired.unmatched.candidate} candidate keys are unmatched` +
        (paired.oneSided > 0
          ? `, and ${paired.dropped.baseline} baseline and ${paired.dropped.candidate} candidate values are not measurements (count 0 or not finite)`
          : ''),
      { file: c.perInstanceStatsFile, field: 'min_overlap', value: paired.overlap }
    )
    return false
  }
  if (paired.unmatched.baseline + paired.unmatched.candidate > 0) {
    log.warn(
      'pairing.unmatched',
      `${label}: ${paired.unmatched.baseline} baseline and ${paired.unmatched.candidate} candidate keys have no partner and are left out`
    )
  }
  if (paired.dropped.baseline + paired.dropped.candidate > 0) {
    log.warn(
      'pairing.dropped',
      `${label}: ${paired.dropped.baseline} baseline and ${paired.dropped.candidate} candidate values were not measurements (count 0 or not finite) and are left out`
    )
  }
  if (paired.clusters.length === 0) {
    log.error('guard.no_pairs', `${label}: no instance has a measured value on both sides`, { file: c.perInstanceStatsFile })
    return false
  }
  return true
}

/**
 * The worst case beside the matched instances: a warning whenever instances were imputed (so every
 * rendering shows both bounds), and a pass the worst case does not confirm becomes inconclusive.
 */
function withWorstCase(
  log: IssueLog,
  label: string,
  estimate: PairedEstimate,
  decision: VerdictDecision,
  worst: WorstCaseBound
): VerdictDecision {
  const imputedTotal = worst.imputed.baseline + worst.imputed.candidate
  if (imputedTotal > 0) {
    // A warning, so every rendering (comment, summary, console) shows both bounds side by side.
    const bound =
      worst.low === null || worst.high === null ? 'none (the metric has no known range)' : `[${fmt(worst.low)}, ${fmt(worst.high)}]`
    log.warn(
      'pairing.worst_case',
      `${label}: ${worst.imputed.baseline} baseline and ${worst.imputed.candidate} candidate instances imputed at the worst case: interval ${bound} against [${fmt(estimate.ci.low)}, ${fmt(estimate.ci.high)}] on the matched instances; worst-case verdict ${worst.verdict}`
    )
  }
  if (decision.verdict === 'pass' && worst.verdict !== 'pass') {
    return {
      verdict: 'inconclusive',
      nNeeded: null,
      reason: `Passes on the instances both sides scored, but not with the ${worst.imputed.baseline + worst.imputed.candidate} unmatched ones imputed at their worst: ${worst.reason}`
    }
  }
  return decision
}

/** The paired values by instance, as the direction counts them. */
function pairedInstances(paired: PairedData, perturbation: string | null): PairedInstance[] {
  return paired.clusters.map((cluster, i) => ({
    instanceId: paired.clusterKeys[i].split('\u0000')[0],
    perturbation,
    trials: paired.trials[i],
    baseline: cluster.baseline,
    candidate: cluster.candidate
  }))
}

/** Three significant digits for the pairing.worst_case warning, which sets both intervals side by side. */
function fmt(x: number): string {
  return Number(x.toPrecision(3)).toString()
}

/**
 * What worstCaseBound computes: the report's `worst_case` plus the reason, which only the verdict
 * decision uses (it becomes the comparison's reason when the worst case stops a pass).
 */
type WorstCaseBound = WorstCase & { reason: string }

/**
 * The verdict's interval again with every unmatched instance imputed at the metric's worst value
 * for the candidate and its best for the baseline (docs/method.md "Missing data: the worst-case
 * bound"): instances missing on one side are rarely missing at random, and dropping them flatters
 * the side that lost them. A metric without a known range has no worst value, so any unmatched
 * instance blocks a pass.
 */
function worstCaseBound(
  ctx: OneContext,
  paired: PairedData,
  estimate: PairedEstimate,
  maxDrop: number,
  valuesB: MetricValue[],
  valuesC: MetricValue[],
  variants: { baseline: MetricValue[]; candidate: MetricValue[] } | undefined
): WorstCaseBound {
  const { gated, range, statistics } = ctx
  const missing = paired.unmatched.baseline + paired.unmatched.candidate + paired.oneSided
  const plain = decideVerdict(estimate, maxDrop, gated.direction, statistics.confidence)
  if (missing === 0 && variants === undefined) {
    return {
      imputed: { baseline: 0, candidate: 0 },
      low: estimate.ci.low,
      high: estimate.ci.high,
      method: estimate.ci.method,
      verdict: plain.verdict,
      reason: plain.reason
    }
  }
  if (range === null) {
    const counts = imputedCounts(valuesB, valuesC, variants, { baseline: 0, candidate: 0 }, gated.direction)
    if (counts.imputed.baseline + counts.imputed.candidate === 0) {
      return {
        imputed: counts.imputed,
        low: estimate.ci.low,
        high: estimate.ci.high,
        method: estimate.ci.method,
        verdict: plain.verdict,
        reason: plain.reason
      }
    }
    return {
      imputed: counts.imputed,
      low: null,
      high: null,
      method: null,
      verdict: 'inconclusive',
      reason: `${gated.metric} has no known range, so an instance scored on one side only has no worst value and cannot be ruled out; this cannot pass until both sides score the same instances.`
    }
  }
  const fill =
    gated.direction === 'higher' ? { baseline: range.high, candidate: range.low } : { baseline: range.low, candidate: range.high }
  const { imputed, baseline, candidate } = imputedCounts(valuesB, valuesC, variants, fill, gated.direction)
  if (imputed.baseline + imputed.candidate === 0) {
    return {
      imputed,
      low: estimate.ci.low,
      high: estimate.ci.high,
      method: estimate.ci.method,
      verdict: plain.verdict,
      reason: plain.reason
    }
  }
  const completed = pairValues(baseline, candidate)
  const imputedEstimate = estimatePaired(completed.clusters, statistics)
  const decision = pairedDecision(imputedEstimate, maxDrop, gated.direction, statistics)
  return {
    imputed,
    low: imputedEstimate.ci.low,
    high: imputedEstimate.ci.high,
    method: imputedEstimate.ci.method,
    verdict: decision.verdict,
    reason: decision.reason
  }
}

/** Both sides completed, and how many instances (instance x trial) were imputed on each. */
function imputedCounts(
  valuesB: MetricValue[],
  valuesC: MetricValue[],
  variants: { baseline: MetricValue[]; candidate: MetricValue[] } | undefined,
  fill: { baseline: number; candidate: number },
  direction: 'higher' | 'lower'
): { imputed: { baseline: number; candidate: number }; baseline: MetricValue[]; candidate: MetricValue[] } {
  if (variants === undefined) {
    const done = imputeMissing(valuesB, valuesC, fill)
    return {
      imputed: { baseline: done.imputedKeys.baseline.length, candidate: done.imputedKeys.candidate.length },
      baseline: done.baseline,
      candidate: done.candidate
    }
  }
  // The per-instance worst case: complete every variant first, then take the worst over them, so
  // a variant the candidate lost counts at its worst value.
  const done = imputeMissing(variants.baseline, variants.candidate, fill)
  const instances = (keys: string[]): number =>
    new Set(
      keys.map(k =>
        k
          .split('\u0000')
          .filter((_, i, all) => i === 0 || i === all.length - 1)
          .join('\u0000')
      )
    ).size
  const worst = worstCase(done.baseline, done.candidate, direction)
  return {
    imputed: { baseline: instances(done.imputedKeys.baseline), candidate: instances(done.imputedKeys.candidate) },
    baseline: worst.baseline,
    candidate: worst.candidate
  }
}

/**
 * The first few changed answers, in key order (deterministic). Their text is filled in later
 * from scenario_state.json (see fillHelmExampleTexts in compare.ts), so that only these few are ever read.
 */
function changedExamples(paired: PairedData, limit: number, tolerance: number): ChangedExample[] {
  const out: ChangedExample[] = []
  for (let i = 0; i < paired.clusters.length && out.length < limit; i++) {
    const cluster = paired.clusters[i]
    for (let t = 0; t < cluster.baseline.length && out.length < limit; t++) {
      if (Math.abs(cluster.candidate[t] - cluster.baseline[t]) <= tolerance) continue
      out.push({
        instance_id: paired.clusterKeys[i].split('\u0000')[0],
        train_trial_index: paired.trials[i][t],
        input: '',
        reference: '',
        baseline_output: '',
        candidate_output: '',
        baseline_value: cluster.baseline[t],
        candidate_value: cluster.candidate[t]
      })
    }
  }
  return out
}
