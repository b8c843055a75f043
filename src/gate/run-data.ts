/**
 * One run directory, read for the gate: per-instance values of every stat, and compact
 * request-state checks (cache flag, success, prompt hash). scenario_state.json can be several
 * GB, so it is streamed and only small fixed-size facts are kept per request; the text of
 * changed answers is fetched in a second pass for just the few examples the report shows.
 */
import { join } from 'node:path'
import { perturbationKey, readPerInstanceStats } from '../helm/read/instance-stats.js'
import { readRequestStates } from '../helm/read/request-states.js'
import type { PerInstanceStatsTable, RequestStateSummary, RunDirectory } from '../helm/types.js'
import type { MetricValue } from './pairing.js'

export interface RunData {
  run: RunDirectory
  perInstanceStatsFile: string
  /** null when the run has no scenario_state.json. */
  scenarioStateFile: string | null
  /** Request states (texts only while hasTexts); null when there is no scenario_state.json. */
  requestStates: RequestStateSummary[] | null
  /** Whether requestStates still carry their text excerpts (see TEXT_KEEP_LIMIT). */
  hasTexts: boolean
  metricNames(): string[]
  splits(metric: string): (string | null)[]
  /** Clean and perturbed values of a metric in one split, in file order. */
  values(metric: string, split: string | null): MetricValue[]
  /** Clean inference_runtime values, all splits. */
  runtimes(): MetricValue[]
}

const RUNTIME_METRIC = 'inference_runtime'

/**
 * Request states up to this count keep their text excerpts in memory (well under 1 KB each), so
 * the changed answers shown in the report need no second read; beyond it the excerpts are
 * dropped and read again for just those answers, keeping memory bounded for multi-GB files.
 */
export const TEXT_KEEP_LIMIT = 20_000

export async function loadRunData(run: RunDirectory, textKeepLimit = TEXT_KEEP_LIMIT): Promise<RunData> {
  const table = await readPerInstanceStats(run)
  let requestStates: RequestStateSummary[] | null = null
  let hasTexts = false
  if (run.files.scenarioState) {
    const list: RequestStateSummary[] = []
    hasTexts = true
    await readRequestStates(run, summary => {
      const compact = { ...summary, promptHash: summary.promptHash.slice(0, 24) }
      if (hasTexts && list.length >= textKeepLimit) {
        hasTexts = false
        for (const kept of list) stripTexts(kept)
      }
      if (!hasTexts) stripTexts(compact)
      list.push(compact)
    })
    requestStates = list
  }
  return makeRunData(run, table, requestStates, hasTexts)
}

function stripTexts(summary: RequestStateSummary): void {
  summary.inputExcerpt = ''
  summary.referenceExcerpt = ''
  summary.outputExcerpt = ''
}

function makeRunData(
  run: RunDirectory,
  table: PerInstanceStatsTable,
  requestStates: RequestStateSummary[] | null,
  hasTexts: boolean
): RunData {
  const series = [...table.series.values()].filter(s => s.computedOn === null || s.computedOn === 'perturbed')
  const collect = (keep: (metric: string, split: string | null, perturbation: string | null) => boolean): MetricValue[] => {
    const out: MetricValue[] = []
    for (const s of series) {
      if (!keep(s.metric, s.split, s.perturbation)) continue
      for (const v of s.values.values()) {
        const value = v.count > 0 ? v.sum / v.count : NaN
        out.push({
          instanceId: v.instanceId,
          trainTrialIndex: v.trainTrialIndex,
          perturbation: s.perturbation,
          value: Number.isFinite(value) ? value : null,
          occurrences: v.occurrences
        })
      }
    }
    return out
  }
  return {
    run,
    perInstanceStatsFile: table.file,
    scenarioStateFile: run.files.scenarioState ? join(run.path, 'scenario_state.json') : null,
    requestStates,
    hasTexts,
    metricNames: () => [...new Set(series.map(s => s.metric))].sort(),
    splits: metric => [...new Set(series.filter(s => s.metric === metric).map(s => s.split))].sort(),
    values: (metric, split) => collect((m, sp) => m === metric && sp === split),
    runtimes: () => collect((m, _sp, p) => m === RUNTIME_METRIC && p === null)
  }
}

export interface ExampleKey {
  instanceId: string
  trainTrialIndex: number
  /** perturbationKey() of the request state's perturbation; null for clean. */
  perturbation: string | null
}

export function exampleKey(k: ExampleKey): string {
  return JSON.stringify([k.instanceId, k.trainTrialIndex, k.perturbation])
}

/**
 * The text excerpts of just the wanted request states: from memory when the run kept them,
 * otherwise by a second pass over scenario_state.json. With "separate" multiple-choice adapters
 * an instance has one request state per reference; the first one is kept.
 */
export async function loadExampleTexts(data: RunData, wanted: Set<string>): Promise<Map<string, RequestStateSummary>> {
  const found = new Map<string, RequestStateSummary>()
  const take = (summary: RequestStateSummary): void => {
    const key = exampleKey({
      instanceId: summary.instanceId,
      trainTrialIndex: summary.trainTrialIndex,
      perturbation: perturbationKey(summary.perturbation)
    })
    if (wanted.has(key) && !found.has(key)) found.set(key, summary)
  }
  if (wanted.size === 0 || data.requestStates === null) return found
  if (data.hasTexts) data.requestStates.forEach(take)
  else await readRequestStates(data.run, take)
  return found
}
