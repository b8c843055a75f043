/**
 * Guards on a gated metric's values, before any comparison: each failure is an error naming the
 * file, the metric and the first instance, never a verdict. The values must be measured, each
 * once, each with the request state the cache and failure guards read (guards.ts), each from a
 * request that produced an answer, within what the metric can take, and scored wherever the other
 * side scored the same request.
 */
import { chosen, counted } from '../words.js'
import { perturbationKey } from '../helm/read/instance-stats.js'
import type { RequestStateSummary } from '../helm/types.js'
import type { Side } from '../model/verdict.js'
import type { IssueLog } from '../model/issue-log.js'
import { describeValueKey, firstHuge, firstOutOfRange, MAX_MAGNITUDE, type MetricRange } from './metric-range.js'
import type { MetricValue, UnitValues } from '../model/harness.js'
import { exampleKey } from './run-data.js'

/** One side's values of the metric and the run they come from. */
interface SideValues {
  side: Side
  values: MetricValue[]
  data: UnitValues
}

/** Returns false (with the error logged) when the metric's values must not be compared. */
export function checkMetricValues(
  run: string,
  metric: string,
  range: MetricRange | null,
  valuesB: MetricValue[],
  valuesC: MetricValue[],
  b: UnitValues,
  c: UnitValues,
  log: IssueLog
): boolean {
  const sides: SideValues[] = [
    { side: 'baseline', values: valuesB, data: b },
    { side: 'candidate', values: valuesC, data: c }
  ]
  // In this order, each side in turn, stopping at the first failure: one cause, one error.
  return (
    sides.every(s => measuredOnce(run, metric, s, log) && requestStatesCover(run, s.side, s.values, s.data, log)) &&
    sides.every(s => valuesInRange(run, metric, range, s, log)) &&
    scoresCoverRequests(run, metric, sides, log)
  )
}

/** Measured at all, and each value once. */
function measuredOnce(run: string, metric: string, { side, values, data }: SideValues, log: IssueLog): boolean {
  if (values.length > 0 && values.every(v => v.value === null)) {
    log.error(
      'guard.metric_unmeasured',
      `run ${run}: ${metric} was never measured on the ${side} side (every value has count 0 or is not finite)`,
      {
        file: data.perInstanceStatsFile,
        field: metric
      }
    )
    return false
  }
  // HELM only warns when two metrics emit the same stat name, and the reader merges the
  // copies into sum / count: an average of two possibly different scores is nobody's answer.
  const repeated = values.find(v => (v.occurrences ?? 1) > 1)
  if (repeated) {
    const count = values.filter(v => (v.occurrences ?? 1) > 1).length
    log.error(
      'guard.duplicate_stat',
      `run ${run}: ${metric} appears more than once for ${count} ${side} instance${count === 1 ? '' : 's'}, so their value is ambiguous`,
      {
        file: data.perInstanceStatsFile,
        field: metric,
        value: `instance ${repeated.instanceId}, trial ${repeated.trainTrialIndex}${repeated.perturbation ? `, perturbation ${repeated.perturbation}` : ''}: ${repeated.occurrences} copies`
      }
    )
    return false
  }
  return true
}

/** A request state's key in the values' terms (instance, trial, perturbation). */
function stateKey(s: RequestStateSummary): string {
  return exampleKey({ instanceId: s.instanceId, trainTrialIndex: s.trainTrialIndex, perturbation: perturbationKey(s.perturbation) })
}

/**
 * Every measured value must come with its request state: the cache and failure guards read
 * scenario_state.json, so a score without a request state is a score nobody checked (a
 * scenario_state.json cut down to save space, or a file from another run). HELM writes both
 * files from the same request states, so a complete run always passes this.
 */
function requestStatesCover(run: string, side: string, values: MetricValue[], data: UnitValues, log: IssueLog): boolean {
  if (data.requestStates === null) return true // already an error (guard.no_scenario_state)
  const present = new Set(data.requestStates.map(s => stateKey(s)))
  const missing = values.filter(v => v.value !== null && !present.has(exampleKey(v)))
  if (missing.length === 0) return requestsRan(run, side, values, data, log)
  const first = missing[0]
  log.error(
    'guard.no_request_state',
    `run ${run}: ${missing.length} ${side} ${missing.length === 1 ? 'score has' : 'scores have'} no request state in scenario_state.json, so cached or failed answers cannot be ruled out for them`,
    {
      file: data.scenarioStateFile ?? data.perInstanceStatsFile,
      field: 'request_states',
      value: `instance ${first.instanceId}, trial ${first.trainTrialIndex}${first.perturbation ? `, perturbation ${first.perturbation}` : ''}`
    }
  )
  return false
}

/**
 * A score of a request that never produced an answer (no result, no completions, a completion
 * without text) was computed from nothing: HELM scores an empty answer as wrong, or worse,
 * whatever a metric makes of it. Failed requests are caught by guard.failed_requests.
 */
function requestsRan(run: string, side: string, values: MetricValue[], data: UnitValues, log: IssueLog): boolean {
  if (data.requestStates === null) return true
  const scored = new Set(values.filter(v => v.value !== null).map(v => exampleKey(v)))
  const silent = data.requestStates.filter(s => !s.answered && scored.has(stateKey(s)))
  if (silent.length === 0) return true
  const first = silent[0]
  log.error(
    'guard.request_not_run',
    `run ${run}: ${counted(silent.length, `${side} request that has a score`, `${side} requests that have a score`)} never produced an answer (no result, no completions or a completion without text), so ${chosen(silent.length, "its score is not the model's answer", "their scores are not the model's answers")}`,
    {
      file: data.scenarioStateFile ?? data.perInstanceStatsFile,
      field: 'result.completions',
      value: `instance ${first.instanceId}, trial ${first.trainTrialIndex}`
    }
  )
  return false
}

/**
 * Values a metric cannot take are a damaged file: a 0/1 metric holding 4 would otherwise be
 * averaged as a continuous score, and a value of 1e308 overflows every sum into an infinite
 * interval. Either is an error naming the instance and the value, never a verdict.
 */
function valuesInRange(run: string, metric: string, range: MetricRange | null, { side, values, data }: SideValues, log: IssueLog): boolean {
  const bad = range ? firstOutOfRange(values, range) : null
  if (bad && range) {
    log.error(
      'guard.out_of_range',
      `run ${run}: ${metric} must lie in [${range.low}, ${range.high}] (${range.because}), but the ${side} side has ${String(bad.raw ?? bad.value)} for ${describeValueKey(bad)}`,
      { file: data.perInstanceStatsFile, field: metric, value: `${describeValueKey(bad)}: ${String(bad.raw ?? bad.value)}` }
    )
    return false
  }
  const huge = firstHuge(values)
  if (huge) {
    log.error(
      'guard.huge_value',
      `run ${run}: ${metric} on the ${side} side is ${String(huge.value)} for ${describeValueKey(huge)}; values beyond ${MAX_MAGNITUDE} cannot be averaged safely and are not HELM scores`,
      { file: data.perInstanceStatsFile, field: metric, value: `${describeValueKey(huge)}: ${String(huge.value)}` }
    )
    return false
  }
  return true
}

/**
 * A key with a request state but no score on one side, while the other side scored it, is a
 * scoring failure: the request ran and the metric failed (or its row was removed). Such
 * instances are rarely missing at random, so this is an error whatever min_overlap says.
 */
function scoresCoverRequests(run: string, metric: string, sides: SideValues[], log: IssueLog): boolean {
  const measured = sides.map(({ values }) => new Set(values.filter(v => v.value !== null).map(v => exampleKey(v))))
  for (const [i, { side, data }] of sides.entries()) {
    const own = measured[i]
    const other = measured[1 - i]
    if (data.requestStates === null) continue
    const requested = new Set(data.requestStates.map(s => stateKey(s)))
    const failures = [...other].filter(key => !own.has(key) && requested.has(key))
    if (failures.length === 0) continue
    const [instance, trial, perturbation] = JSON.parse(failures[0]) as [string, number, string | null]
    log.error(
      'guard.scoring_failure',
      `run ${run}: ${failures.length} ${side} ${failures.length === 1 ? 'instance was requested but has' : 'instances were requested but have'} no ${metric} score, while the other side scored them; an instance that ran but was not scored is a failure, not a missing instance`,
      {
        file: data.perInstanceStatsFile,
        field: metric,
        value: `instance ${instance}, trial ${trial}${perturbation ? `, perturbation ${perturbation}` : ''}`
      }
    )
    return false
  }
  return true
}
