/**
 * Builds the comparisons of one gated run: the clean instances (gated), each perturbation and
 * the per-instance worst case (gated only when the gate file asks for it).
 */
import type { GatedRun, StatisticsSettings } from '../config/types.js'
import { GateError } from '../errors.js'
import { perturbationKey } from '../helm/read/instance-stats.js'
import type { ChangedExample, Comparison } from '../model/report.js'
import { decideVerdict, estimatePaired, resolveMaxDrop } from '../stats/index.js'
import type { VerdictDecision } from '../stats/types.js'
import type { IssueLog } from './issues.js'
import { pairValues, worstCase, type MetricValue, type PairedData } from './pairing.js'
import { exampleKey, type RunData } from './run-data.js'

export function buildComparisons(
  run: string,
  gated: GatedRun,
  b: RunData,
  c: RunData,
  statistics: StatisticsSettings,
  examples: number,
  log: IssueLog
): Comparison[] {
  const split = resolveSplit(run, gated, b, c, log)
  if (split === undefined) return []
  const valuesB = b.values(gated.metric, split)
  const valuesC = c.values(gated.metric, split)
  for (const [side, values, data] of [
    ['baseline', valuesB, b],
    ['candidate', valuesC, c]
  ] as const) {
    if (values.length > 0 && values.every(v => v.value === null)) {
      log.error(
        'guard.metric_unmeasured',
        `run ${run}: ${gated.metric} was never measured on the ${side} side (every value has count 0 or is not finite)`,
        {
          file: data.perInstanceStatsFile,
          field: gated.metric
        }
      )
      return []
    }
    // HELM only warns when two metrics emit the same stat name, and the reader merges the
    // copies into sum / count: an average of two possibly different scores is nobody's answer.
    const repeated = values.find(v => (v.occurrences ?? 1) > 1)
    if (repeated) {
      const count = values.filter(v => (v.occurrences ?? 1) > 1).length
      log.error(
        'guard.duplicate_stat',
        `run ${run}: ${gated.metric} appears more than once for ${count} ${side} instance${count === 1 ? '' : 's'}, so their value is ambiguous`,
        {
          file: data.perInstanceStatsFile,
          field: gated.metric,
          value: `instance ${repeated.instanceId}, trial ${repeated.trainTrialIndex}${repeated.perturbation ? `, perturbation ${repeated.perturbation}` : ''}: ${repeated.occurrences} copies`
        }
      )
      return []
    }
    if (!requestStatesCover(run, side, values, data, log)) return []
  }

  const out: Comparison[] = []
  const isClean = (v: MetricValue): boolean => v.perturbation === null
  const clean = compareOne(run, gated, split, null, true, valuesB.filter(isClean), valuesC.filter(isClean), b, c, statistics, examples, log)
  if (clean) out.push(clean)

  const perturbations = [...new Set([...valuesB, ...valuesC].map(v => v.perturbation).filter((p): p is string => p !== null))].sort()
  const gatePerturbed = gated.perturbations === 'gate'
  for (const p of perturbations) {
    const only = (v: MetricValue): boolean => v.perturbation === p
    const cmp = compareOne(run, gated, split, p, gatePerturbed, valuesB.filter(only), valuesC.filter(only), b, c, statistics, examples, log)
    if (cmp) out.push(cmp)
  }
  if (perturbations.length > 0) {
    const worst = worstCase(valuesB, valuesC, gated.direction)
    const cmp = compareOne(run, gated, split, 'worst', gatePerturbed, worst.baseline, worst.candidate, b, c, statistics, examples, log)
    if (cmp) out.push(cmp)
  }
  return out
}

/**
 * Every measured value must come with its request state: the cache and failure guards read
 * scenario_state.json, so a score without a request state is a score nobody checked (a
 * scenario_state.json cut down to save space, or a file from another run). HELM writes both
 * files from the same request states, so a complete run always passes this.
 */
function requestStatesCover(run: string, side: string, values: MetricValue[], data: RunData, log: IssueLog): boolean {
  if (data.requestStates === null) return true // already an error (guard.no_scenario_state)
  const present = new Set(
    data.requestStates.map(s =>
      exampleKey({ instanceId: s.instanceId, trainTrialIndex: s.trainTrialIndex, perturbation: perturbationKey(s.perturbation) })
    )
  )
  const missing = values.filter(v => v.value !== null && !present.has(exampleKey(v)))
  if (missing.length === 0) return true
  const first = missing[0]
  log.error(
    'guard.no_request_state',
    `run ${run}: ${missing.length} ${side} scores have no request state in scenario_state.json, so cached or failed answers cannot be ruled out for them`,
    {
      file: data.scenarioStateFile ?? data.run.path,
      field: 'request_states',
      value: `instance ${first.instanceId}, trial ${first.trainTrialIndex}${first.perturbation ? `, perturbation ${first.perturbation}` : ''}`
    }
  )
  return false
}

/**
 * A percentile bootstrap on a handful of instances under-covers badly (with one instance it has
 * zero width), so it could pass on no evidence. Below this many resampling units a bootstrap
 * interval can fail or be inconclusive, never pass. The analytic 0/1 intervals stay honest at
 * small n and are not capped.
 */
export const MIN_BOOTSTRAP_UNITS = 20

function smallSampleGuard(decision: VerdictDecision, n: number, method: string): VerdictDecision {
  if (decision.verdict !== 'pass' || !method.startsWith('bootstrap') || n >= MIN_BOOTSTRAP_UNITS) return decision
  return {
    verdict: 'inconclusive',
    nNeeded: MIN_BOOTSTRAP_UNITS,
    reason: `Only ${n} instances: a bootstrap interval needs at least ${MIN_BOOTSTRAP_UNITS} to be trusted, so this cannot pass; use more instances.`
  }
}

/** undefined = an error was logged. */
function resolveSplit(run: string, gated: GatedRun, b: RunData, c: RunData, log: IssueLog): string | null | undefined {
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

function compareOne(
  run: string,
  gated: GatedRun,
  split: string | null,
  perturbation: string | null,
  isGated: boolean,
  valuesB: MetricValue[],
  valuesC: MetricValue[],
  b: RunData,
  c: RunData,
  statistics: StatisticsSettings,
  examples: number,
  log: IssueLog
): Comparison | null {
  const label = `run ${run}, ${gated.metric}${split ? ` (${split})` : ''}${perturbation ? `, perturbation ${perturbation}` : ''}`
  const paired = pairValues(valuesB, valuesC)
  if (paired.overlap < statistics.minOverlap) {
    log.error(
      'guard.overlap',
      `${label}: only ${(paired.overlap * 100).toFixed(1)}% of instances were scored on both sides (minimum ${(statistics.minOverlap * 100).toFixed(1)}%); ${paired.unmatched.baseline} baseline and ${paired.unmatched.candidate} candidate keys are unmatched` +
        (paired.oneSided > 0
          ? `, and ${paired.dropped.baseline} baseline and ${paired.dropped.candidate} candidate values are not measurements (count 0 or not finite)`
          : ''),
      { file: c.perInstanceStatsFile, field: 'min_overlap', value: paired.overlap }
    )
    return null
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
    return null
  }
  let estimate
  try {
    estimate = estimatePaired(paired.clusters, statistics)
  } catch (error) {
    if (error instanceof GateError) {
      log.error(error.code, `${label}: ${error.message}`, error.location)
      return null
    }
    throw error
  }
  const maxDrop = resolveMaxDrop(gated.maxDrop, gated.maxRelativeDrop, estimate.baselineMean)
  const decision = smallSampleGuard(
    decideVerdict(estimate, maxDrop, gated.direction, statistics.confidence),
    estimate.n,
    estimate.ci.method
  )
  return {
    id: [run, gated.metric, split ?? '', perturbation ?? 'clean'].join(' | '),
    run,
    entry: gated.entry,
    metric: gated.metric,
    split,
    perturbation,
    gated: isGated,
    direction: gated.direction,
    binary: estimate.binary,
    n: estimate.n,
    pairs: estimate.pairs,
    unmatched: paired.unmatched,
    dropped: paired.dropped,
    baseline_mean: estimate.baselineMean,
    candidate_mean: estimate.candidateMean,
    delta: estimate.delta,
    ci: { level: estimate.ci.level, low: estimate.ci.low, high: estimate.ci.high, method: estimate.ci.method },
    wins: estimate.wins,
    losses: estimate.losses,
    unchanged: estimate.unchanged,
    p_value: estimate.pValue,
    max_drop: maxDrop,
    max_relative_drop: gated.maxRelativeDrop,
    verdict: decision.verdict,
    n_needed: decision.nNeeded,
    reason: decision.reason,
    examples: perturbation === 'worst' ? [] : changedExamples(paired, examples, statistics.flipTolerance)
  }
}

/**
 * The first few changed answers, in key order (deterministic). Their text is filled in later
 * from scenario_state.json (see fillExampleTexts), so that only these few are ever read.
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
