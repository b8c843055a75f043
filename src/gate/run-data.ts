/**
 * One run directory, read for the gate: per-instance values of every stat, and compact
 * request-state checks (cache flag, success, prompt hash). scenario_state.json can be several
 * GB, so it is streamed and only small fixed-size facts are kept per request; the text of
 * changed answers is fetched in a second pass for just the few examples the report shows.
 */
import { createHash } from 'node:crypto'
import { realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { GateError, InputError } from '../errors.js'
import { RUN_FILES } from '../helm/read/discover.js'
import { perturbationKey, readPerInstanceStats } from '../helm/read/instance-stats.js'
import { streamJsonArray } from '../helm/read/json-stream.js'
import { readRequestStates } from '../helm/read/request-states.js'
import type { PerInstanceSeries, PerInstanceStatsTable, RequestStateSummary, RunDirectory } from '../helm/types.js'
import type { ChangedExample, Comparison } from '../model/report.js'
import type { MetricValue, UnitValues } from '../model/harness.js'
import { redactText } from '../secrets/redact.js'

/** One HELM run as the gate reads it: the values and request states, plus what HELM's own guards read. */
export interface RunData extends UnitValues {
  run: RunDirectory
  /** Whether requestStates still carry their text excerpts (see TEXT_KEEP_LIMIT). */
  hasTexts: boolean
  /** SHA-256 of scenario_state.json's bytes; null when there is none. */
  scenarioStateDigest: string | null
  /** SHA-256 of per_instance_stats.json's bytes. */
  perInstanceStatsDigest: string
  /** Every file read, with its real path and its device:inode identity (see sameEvidence). */
  filesRead: FileRead[]
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

export interface FileRead {
  path: string
  real: string
  /** `dev:ino`: equal for the same file reached through a symlink, a hard link or another path. */
  identity: string
}

async function fileRead(path: string): Promise<FileRead> {
  try {
    const [real, info] = await Promise.all([realpath(path), stat(path)])
    return { path, real, identity: `${info.dev}:${info.ino}` }
  } catch (error) {
    throw new InputError('input.unreadable', `Cannot read ${path}: ${(error as Error).message}`, { file: path })
  }
}

/**
 * stats.json is not used for the comparison, but HELM writes it last: a missing, empty or
 * unparsable one means the run did not finish, so nothing else in the directory is trusted.
 */
export async function checkStatsFile(run: RunDirectory): Promise<string> {
  const file = join(run.path, RUN_FILES.stats)
  const incomplete = (why: string): InputError =>
    new InputError('input.incomplete_run', `${file} ${why}: the run did not finish, so its other files are not trusted`, {
      file,
      field: RUN_FILES.stats
    })
  if (!run.files.stats) throw incomplete('is missing')
  let entries = 0
  try {
    for await (const { index, value } of streamJsonArray(file)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new InputError('input.wrong_type', `[${index}] in ${file} must be an object`, { file, field: `[${index}]` })
      }
      entries++
    }
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    throw incomplete(`is not a complete stats list (${error.message})`)
  }
  if (entries === 0) throw incomplete('holds no statistics')
  return file
}

/** A run's per-instance stats, read before its request states (see loadRunData). */
export interface RunStats {
  statsFile: string
  table: PerInstanceStatsTable
  perInstanceStatsDigest: string
  /** Clean inference_runtime values, all splits (the same as RunData.runtimes). */
  runtimes(): MetricValue[]
}

export async function readRunStats(run: RunDirectory): Promise<RunStats> {
  const statsFile = await checkStatsFile(run)
  const statsDigest = createHash('sha256')
  const table = await readPerInstanceStats(run, { digest: statsDigest })
  const collect = valueCollector(table)
  return { statsFile, table, perInstanceStatsDigest: statsDigest.digest('hex'), runtimes: () => collect(isCleanRuntime) }
}

/**
 * `stats` is this run's readRunStats when the caller read them first: the request-time intervals
 * need only them, so they can start on a worker while this thread reads the request states.
 */
export async function loadRunData(run: RunDirectory, textKeepLimit = TEXT_KEEP_LIMIT, stats?: RunStats): Promise<RunData> {
  const { statsFile, table, perInstanceStatsDigest } = stats ?? (await readRunStats(run))
  const reads = [join(run.path, RUN_FILES.runSpec), statsFile, table.file]
  let requestStates: RequestStateSummary[] | null = null
  let hasTexts = false
  let scenarioStateDigest: string | null = null
  if (run.files.scenarioState) {
    const list: RequestStateSummary[] = []
    hasTexts = true
    const digest = createHash('sha256')
    reads.push(join(run.path, RUN_FILES.scenarioState))
    await readRequestStates(
      run,
      summary => {
        const compact = { ...summary, promptHash: summary.promptHash.slice(0, 24) }
        if (hasTexts && list.length >= textKeepLimit) {
          hasTexts = false
          for (const kept of list) stripTexts(kept)
        }
        if (!hasTexts) stripTexts(compact)
        list.push(compact)
      },
      { digest }
    )
    requestStates = list
    scenarioStateDigest = digest.digest('hex')
  }
  if (run.files.scenario) reads.push(join(run.path, RUN_FILES.scenario))
  const filesRead = await Promise.all(reads.map(fileRead))
  return { ...makeRunData(run, table, requestStates, hasTexts), scenarioStateDigest, perInstanceStatsDigest, filesRead }
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
): Omit<RunData, 'scenarioStateDigest' | 'perInstanceStatsDigest' | 'filesRead'> {
  const collect = valueCollector(table)
  const series = measuredSeries(table)
  return {
    run,
    perInstanceStatsFile: table.file,
    scenarioStateFile: run.files.scenarioState ? join(run.path, 'scenario_state.json') : null,
    requestStates,
    hasTexts,
    metricNames: () => [...new Set(series.map(s => s.metric))].sort(),
    splits: metric => [...new Set(series.filter(s => s.metric === metric).map(s => s.split))].sort(),
    values: (metric, split) => collect((m, sp) => m === metric && sp === split),
    runtimes: () => collect(isCleanRuntime)
  }
}

/** The series the gate reads: clean ones and those HELM computed on the perturbed instances. */
function measuredSeries(table: PerInstanceStatsTable): PerInstanceSeries[] {
  return [...table.series.values()].filter(s => s.computedOn === null || s.computedOn === 'perturbed')
}

type SeriesFilter = (metric: string, split: string | null, perturbation: string | null) => boolean

const isCleanRuntime: SeriesFilter = (metric, _split, perturbation) => metric === RUNTIME_METRIC && perturbation === null

/** The per-instance values (the mean over an instance's occurrences) of the series a filter keeps. */
function valueCollector(table: PerInstanceStatsTable): (keep: SeriesFilter) => MetricValue[] {
  const series = measuredSeries(table)
  return keep => {
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
          raw: v.count > 0 ? value : null,
          occurrences: v.occurrences
        })
      }
    }
    return out
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

/** What a changed answer shows of one side's record: excerpts, never the whole text. */
export interface ExampleText {
  inputExcerpt: string
  referenceExcerpt: string
  outputExcerpt: string
}

/**
 * Fills the changed answers' texts from each side's records by key (HELM's request states or
 * lm-eval's samples): input and reference from whichever side has them, each side's own output.
 */
export function fillExampleTexts(
  built: Comparison[],
  keyOf: (cmp: Comparison, e: ChangedExample) => string,
  baseline: ReadonlyMap<string, ExampleText>,
  candidate: ReadonlyMap<string, ExampleText>
): void {
  for (const cmp of built) {
    for (const e of cmp.examples) {
      const key = keyOf(cmp, e)
      const sb = baseline.get(key)
      const sc = candidate.get(key)
      // Shown in the report and the pull-request comment: a credential a prompt carries or a
      // model echoes is hidden like everywhere else helm-gate prints text.
      e.input = redactText(sb?.inputExcerpt ?? sc?.inputExcerpt ?? '')
      e.reference = redactText(sb?.referenceExcerpt ?? sc?.referenceExcerpt ?? '')
      e.baseline_output = redactText(sb?.outputExcerpt ?? '')
      e.candidate_output = redactText(sc?.outputExcerpt ?? '')
    }
  }
}
