/**
 * The report: one JSON document (schema_version 1) that every renderer (markdown, console,
 * check run, job summary) reads. Field names are snake_case because this is a published,
 * documented format (docs/report.md "report.json and the renderings"). Keep it stable: add
 * fields, never rename them.
 */

import type { FidelityReport } from './fidelity-report.js'
import type { ReportContext, RequestedSampling, SideIdentity } from './side-identity.js'
import type { LoadReport } from './load-report.js'
import type { StatisticsSettings } from '../config/types.js'
import { HELM_GATE_VERSION } from '../version.js'

// The words every record shares live in verdict.ts, so the load report and the manifest need not
// import this file (which imports theirs).
export { SIDES, type ReportIssue, type Side, type Verdict } from './verdict.js'
import type { ReportIssue, Verdict } from './verdict.js'
import type { HolisticGrid } from './holistic-grid.js'
import type { ReportPart } from './measurement-part.js'

export interface ChangedExample {
  instance_id: string
  train_trial_index: number
  /** Untrusted model and dataset text: renderers must escape it. */
  input: string
  reference: string
  baseline_output: string
  candidate_output: string
  baseline_value: number
  candidate_value: number
  /** Traffic rows: the structural check that failed on this instance and why (untrusted text inside). */
  failed_check?: string
  /** Traffic rows: the instance's sampling stratum (`<tag or all>/<length bucket>`), for filters. */
  stratum?: string
}

export interface Comparison {
  /** Stable key: `run | metric | split | perturbation`. */
  id: string
  /** The baseline run's run_spec.json name. */
  run: string
  /** The gate-file entry this comparison belongs to, when one matched. */
  entry: string | null
  metric: string
  split: string | null
  /** null for clean instances; the perturbation name, or `worst` for the per-instance worst case. */
  perturbation: string | null
  gated: boolean
  direction: 'higher' | 'lower'
  binary: boolean
  /** Paired resampling units (instances). */
  n: number
  /** Paired (instance, trial) values. */
  pairs: number
  unmatched: { baseline: number; candidate: number }
  /** Records without a measurement (count 0 or non-finite), per side. */
  dropped: { baseline: number; candidate: number }
  baseline_mean: number
  candidate_mean: number
  delta: number
  ci: { level: number; low: number; high: number; method: string }
  /**
   * The same interval with every unmatched instance imputed at the metric's worst value for the
   * candidate and its best for the baseline (docs/method.md "Missing data: the worst-case
   * bound"); a pass needs both to pass. `low`/`high` are null for a metric without a known range.
   */
  worst_case?: WorstCase
  wins: number
  losses: number
  unchanged: number
  p_value: number | null
  /**
   * The direction of the change (docs/method.md "Paired calibration and the direction of a
   * change"): won and lost answers with McNemar's p-value and the split by the baseline's margin,
   * or why there is none. Information only: it never changes a verdict. Absent on rows that are
   * not a harness's quality comparison (the traffic replay's checks).
   */
  change_direction?: ChangeDirection
  /** Tolerated drop in metric units (resolved from a relative drop when configured). */
  max_drop: number
  max_relative_drop: number | null
  verdict: 'pass' | 'fail' | 'inconclusive'
  n_needed: number | null
  reason: string
  examples: ChangedExample[]
  /**
   * A sequential gate's row (gate file `sequential:`, docs/method.md "Sequential verdicts"): the
   * verdict above is this decision of the confidence sequence, never the fixed-n interval at the
   * stop. Absent on every other gate.
   */
  sequential?: SequentialRow
}

/** Where a sequential check stopped and what it spent (docs/gate-file.md "Sequential verdicts"). */
export interface SequentialRow {
  /** Instances compared at the stop. */
  stopped_at: number
  budget: number
  decision: 'pass' | 'fail' | 'inconclusive'
  /** Decided by the sequence (pass or fail); false: ran to the budget undecided. */
  certain: boolean
  looks: Array<{ n: number; low: number; high: number; decision: 'pass' | 'fail' | 'continue' | 'inconclusive' }>
  /** Instance requests both sides spent over the stages run (each stage asks its first instances again). */
  requests_spent: number
  /** What the fixed design, one run at the budget, spends on both sides. */
  requests_fixed: number
}

/** Flipped answers: won (wrong on the baseline, right on the candidate) and lost (the reverse). */
export interface FlipCount {
  won: number
  lost: number
}

/** The flips split by how sure the baseline was of its answer (its top-1 probability). */
export interface MarginSplit {
  /** What the margin is read from: HELM's `max_prob` of the baseline's answer. */
  by: 'max_prob'
  /** The baseline was sure when its `max_prob` is at least this. */
  sure_at: number
  sure: FlipCount
  unsure: FlipCount
}

/** The direction of a row whose values are 0/1 per instance (right or wrong). */
export interface DirectionShown {
  kind: 'none' | 'churn' | 'gain' | 'drop'
  /** Paired (instance, trial) answers. */
  pairs: number
  won: number
  lost: number
  /** Two-sided exact McNemar p-value of won against lost. */
  p_value: number
  /** null when the margin is not known; `margin_reason` says why (a split is never made up). */
  margin: MarginSplit | null
  margin_reason: string | null
  sentence: string
}

/** A row whose values are not 0/1 per instance has no direction, and says why. */
export interface DirectionAbsent {
  kind: 'absent'
  reason: string
}

export type ChangeDirection = DirectionShown | DirectionAbsent

/**
 * The candidate/baseline ratio of tokens per answer of one measurement (docs/method.md "Answer
 * length"), always reported; gated when the gate file gives a band.
 */
export interface AnswerLength {
  /** Which measurement's answers: a HELM run, an lm-eval task, the traffic replay. */
  source: 'helm' | 'lm-eval' | 'traffic'
  /** The run (HELM run name, lm-eval task, `traffic`). */
  run: string
  /** What one answer's length counts: `output tokens` where the harness records them, else the stated fallback. */
  unit: string
  n: number
  baseline_mean: number
  candidate_mean: number
  /** mean(candidate) / mean(baseline) with its paired bootstrap interval. */
  ratio: { estimate: number; low: number; high: number; level: number; method: string }
  gated: boolean
  /** The band (null bounds are open); when not gated, the band the verdict is shown against. */
  min: number | null
  max: number | null
  verdict: 'pass' | 'fail' | 'inconclusive'
  n_needed: number | null
  reason: string
}

/**
 * The paired calibration check of one run (docs/method.md "Paired calibration and the direction
 * of a change"): each side's ECE or Brier score on the same instances and the candidate's rise
 * with its cluster bootstrap interval. Present only when the gate file asks for it; always gated.
 */
export interface CalibrationRow {
  run: string
  metric: 'ece' | 'brier'
  split: string | null
  /** Instances (the resampling clusters). */
  n: number
  /** Paired (instance, trial, perturbation) records. */
  pairs: number
  baseline: number
  candidate: number
  /** candidate - baseline; positive is less calibrated. */
  delta: number
  ci: { level: number; low: number; high: number; method: 'cluster-bootstrap' }
  max_increase: number
  gated: true
  verdict: 'pass' | 'fail' | 'inconclusive'
  n_needed: number | null
  reason: string
}

export interface WorstCase {
  /** Instances (x trials) imputed on each side. */
  imputed: { baseline: number; candidate: number }
  low: number | null
  high: number | null
  method: string | null
  verdict: 'pass' | 'fail' | 'inconclusive'
}

export interface EfficiencyEntry {
  run: string
  metric: string
  n: number
  baseline_median: number
  candidate_median: number
  median_ratio: { estimate: number; low: number; high: number }
  p90_ratio: { estimate: number; low: number; high: number }
}

export interface SideInfo {
  /** The path given for this side. */
  path: string
  runs: string[]
  deployment: string | null
  helm_version: string | null
  /** What the side is (served model, host, API, engine, origin), when a run manifest says. */
  identity?: SideIdentity
  /** The sampling settings the side's own requests sent, per run entry, when the harness records them (HELM's adapter spec). */
  requested_sampling?: RequestedSampling
}

/** The statistics settings a report was computed with, as report.json names them. */
export interface ReportSettings {
  confidence: number
  resamples: number
  seed: number
  min_overlap: number
  interval: string
}

export function reportSettings(statistics: StatisticsSettings): ReportSettings {
  return {
    confidence: statistics.confidence,
    resamples: statistics.resamples,
    seed: statistics.seed,
    min_overlap: statistics.minOverlap,
    interval: statistics.interval
  }
}

export interface Report {
  schema_version: 1
  tool: { name: 'helm-gate'; version: string }
  verdict: Verdict
  /** One sentence: the headline. */
  headline: string
  errors: ReportIssue[]
  warnings: ReportIssue[]
  settings: ReportSettings
  baseline: SideInfo
  candidate: SideInfo
  comparisons: Comparison[]
  efficiency: EfficiencyEntry[]
  /** Free-form notes the renderers show (for example the efficiency caveat). */
  notes: string[]
  /** Gate fingerprint and schedule, when the report comes from `run` or the action. */
  context?: ReportContext
  /** The performance half (docs/load.md); absent when the gate file has no `load:`. */
  load?: LoadReport
  /**
   * The quality half on its own, as it stood before the performance half or any part was joined
   * (docs/load.md, "The verdict"): its verdict and its errors (`errors` above holds every half's
   * and part's). Set by the joins (src/load/combine.ts, model/join-part.ts) so the decision line
   * need not re-derive it; absent when nothing joined the quality half, and in the report of the
   * load half alone (no quality half ran).
   */
  quality?: QualityHalf
  /** Token-level fidelity (docs/fidelity.md); absent when the gate file has no `fidelity:`. */
  fidelity?: FidelityReport
  /** Answer lengths, candidate/baseline, per measurement with answers; absent when none has any. */
  answer_lengths?: AnswerLength[]
  /** Paired calibration checks, one per run whose gate entry asks for one; absent when none does. */
  calibrations?: CalibrationRow[]
  /** What the gate measured of each run entry by metric family, and why the rest is blank (src/holistic/grid.ts). */
  holistic?: HolisticGrid
  /**
   * Each measurement's own part beside the quality half (model/measurement-part.ts), in the order
   * they joined: what the console, the comment, report.html and the decision line show of it,
   * with its own verdict and errors. Absent when no measurement joined one.
   */
  parts?: ReportPart[]
}

/** The quality half's own verdict and errors in a report that joins both halves. */
export interface QualityHalf {
  verdict: Verdict
  errors: ReportIssue[]
}

/** What a report's maker knows; everything else starts empty. */
export type ReportFields = Pick<Report, 'verdict' | 'headline'> & Partial<Omit<Report, 'schema_version' | 'tool' | 'settings'>>

/**
 * The one constructor of a report (the comparison, an error report, the load half alone): the
 * fields in report.json's order, so the same inputs give the same bytes whoever made it.
 */
export function newReport(statistics: StatisticsSettings, fields: ReportFields): Report {
  const emptySide = (): SideInfo => ({ path: '', runs: [], deployment: null, helm_version: null })
  const { verdict, headline, ...rest } = fields
  // Defaults in report.json's key order; a field the maker gives replaces its default in place
  // (an object literal keeps a key where it was first written), so the order never changes.
  return {
    schema_version: 1,
    tool: { name: 'helm-gate', version: HELM_GATE_VERSION },
    verdict,
    headline,
    errors: [],
    warnings: [],
    settings: reportSettings(statistics),
    baseline: emptySide(),
    candidate: emptySide(),
    comparisons: [],
    efficiency: [],
    notes: [],
    ...rest
  }
}
