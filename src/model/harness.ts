/**
 * Harness output behind one interface (docs/development.md "Harness output"): HELM's run
 * directories and lm-evaluation-harness's output folders are read by their own readers, and
 * each harness hands the comparison (src/gate/compare.ts) the same things: which folders it
 * reads, what it pairs by which key, its own checks, and per paired unit the per-instance values
 * (instance identity: instance, train trial, perturbation), the per-request records (prompt and
 * answer-key digests, answered or not, answer excerpts), the answer lengths with their unit and
 * the texts of changed answers. The comparison never asks which harness it holds: the rows, the
 * verdicts, flips and instances needed are built once for all of them.
 */
import type { GatedRun, GateConfig } from '../config/types.js'
import type { RequestStateSummary } from '../helm/types.js'
import type { IssueLog } from './issue-log.js'
import type { AnswerLength, Comparison, EfficiencyEntry, Report } from './report.js'

/** One measured (or unmeasurable) value of one metric on one side. */
export interface MetricValue {
  instanceId: string
  trainTrialIndex: number
  /** Perturbation identity (name and seed), null for the clean instance. */
  perturbation: string | null
  /** sum / count, or null when the stat is not a measurement (count 0, non-finite). */
  value: number | null
  /** Stats merged into this value; more than 1 only when the file repeats the stat (1 when absent). */
  occurrences?: number
  /** sum / count as written, even when not finite (null for count 0): for range checks. */
  raw?: number | null
}

/**
 * One side of one paired unit (a HELM run, an lm-eval task) as the comparison reads it: the
 * per-instance values of every metric by split, and one record per request.
 */
export interface UnitValues {
  /** The file the values come from (per_instance_stats.json, samples_<task>.jsonl), named in messages. */
  perInstanceStatsFile: string
  /** The file the request records come from; null when the side has none. */
  scenarioStateFile: string | null
  /**
   * One record per request, in HELM's request-state shape (an lm-eval document is one request):
   * its key, whether it was answered, the prompt and answer-key digests, excerpts. null when the
   * side has no request records.
   */
  requestStates: RequestStateSummary[] | null
  metricNames(): string[]
  splits(metric: string): (string | null)[]
  /** Clean and perturbed values of a metric in one split, in file order. */
  values(metric: string, split: string | null): MetricValue[]
}

/** Paired answer lengths of one unit, in the order the ratio's bootstrap resamples them. */
export interface PairedLengths {
  source: AnswerLength['source']
  unit: string
  baseline: number[]
  candidate: number[]
  /** Named when the row cannot be computed. */
  file: string
}

/** One unit of the two sides after the harness's own checks passed. */
export interface OpenedUnit {
  baseline: UnitValues
  candidate: UnitValues
  /** Checks that apply only when the rows raised nothing more specific (HELM's copied scores); false stops the unit. */
  checkAfterRows(log: IssueLog): boolean
  /** Fills the texts (input, reference, each side's output) of the rows' changed answers. */
  fillExamples(rows: Comparison[]): Promise<void>
  /** The paired answer lengths in `split`; null (with the reason logged where it matters) when there are none. */
  answerLengths(split: string | null, log: IssueLog): PairedLengths | null
  /** Information-only request-time ratios; null when the harness records none. */
  efficiency(log: IssueLog): Promise<EfficiencyEntry | null>
}

/** One paired unit under one gate entry. */
export interface PairedUnit {
  /** The unit's name in messages and rows (the run's display name, the task's name). */
  name: string
  gated: GatedRun
  /** The harness's own checks (drift, cache, failures, answer keys, the same evidence); null when one stopped it. */
  open(log: IssueLog): Promise<OpenedUnit | null>
}

/** One side's output as its reader read it. */
export interface HarnessSide {
  /** What the report says about the side. */
  info(path: string): Report['baseline']
}

/** Applied to every unit found on both sides when the gate file lists no runs (plain CLI use). */
export type RunDefaults = Omit<GatedRun, 'entry' | 'match'>

export interface Harness<S extends HarnessSide = HarnessSide> {
  /** As the messages name it: HELM, lm-eval. */
  readonly name: string
  /** What a folder of its output holds, as "neither ... nor ..." names it. */
  readonly expects: string
  /** True for the one harness that reads any folder the others do not recognise (HELM). */
  readonly fallback: boolean
  /** Whether the folder (a directory) holds this harness's output. */
  recognises(path: string): Promise<boolean>
  /** Reads one side; throws InputError 'input.no_runs' when the folder holds none of its output. */
  read(path: string): Promise<S>
  /**
   * The checks of the two whole sides, then the units paired by the harness's key under the gate
   * file's entries; every unpaired, unmatched or ambiguous unit is reported to `log`.
   */
  pair(baseline: S, candidate: S, config: GateConfig, defaults: RunDefaults | null, log: IssueLog): Promise<PairedUnit[]>
}
