/**
 * The comparison core: two harness outputs in (HELM run directories, lm-eval output folders:
 * any harness behind src/model/harness.ts), one report out. It never asks which harness it
 * holds: the harness reads each side, runs its own checks and pairs its units, and every paired
 * unit's rows, answer lengths and changed answers are built here the same way. It never throws
 * for problems in the data: every doubt (missing runs, drift, cached answers, low overlap,
 * absent metrics) becomes an error in the report, and an error verdict. Only a complete,
 * well-paired comparison can produce a pass.
 */
import type { GateConfig } from '../config/types.js'
import { resolve } from 'node:path'
import { stat } from 'node:fs/promises'
import { GateError, InputError } from '../errors.js'
import type { Harness, HarnessSide, PairedUnit, RunDefaults } from '../model/harness.js'
import { IssueLog } from '../model/issue-log.js'
import {
  newReport,
  type AnswerLength,
  type CalibrationRow,
  type ChangedExample,
  type Comparison,
  type EfficiencyEntry,
  type Report,
  type Verdict
} from '../model/report.js'
import { unitCalibration } from '../holistic/unit-calibration.js'
import { unitAnswerLength } from './answer-length.js'
import { buildComparisons, resolveSplit } from './comparisons.js'
import { HARNESSES } from './harnesses.js'

export interface CompareOptions {
  defaults?: RunDefaults | null
  /** Changed answers shown per comparison. */
  examples?: number
  /** Extra issues found before the comparison (for example by the runner). */
  priorErrors?: GateError[]
  /**
   * When given, receives every changed answer of every comparison (by comparison id), with its
   * texts, for report.html; the report itself still keeps only `examples` per comparison.
   */
  changedAnswers?: Map<string, ChangedExample[]>
  /** The harnesses whose output is recognised; the listed ones (harnesses.ts) when absent. */
  harnesses?: readonly Harness[]
}

export const EFFICIENCY_NOTE =
  'Request times are how long the HELM process waited for each answer, not time-to-first-token under load; the ratios are information only and never gate.'

export async function compareOutputs(
  baselinePath: string,
  candidatePath: string,
  config: GateConfig,
  options: CompareOptions = {}
): Promise<Report> {
  const log = new IssueLog()
  for (const error of options.priorErrors ?? []) log.fromError(error)
  const harnesses = options.harnesses ?? HARNESSES
  const comparisons: Comparison[] = []
  const efficiency: EfficiencyEntry[] = []
  const answerLengths: AnswerLength[] = []
  const calibrations: CalibrationRow[] = []
  const sides: { baseline: HarnessSide | null; candidate: HarnessSide | null } = { baseline: null, candidate: null }
  const context: UnitContext = {
    config,
    examples: options.examples ?? 3,
    changedAnswers: options.changedAnswers,
    log,
    comparisons,
    efficiency,
    answerLengths,
    calibrations
  }

  try {
    if (resolve(baselinePath) === resolve(candidatePath)) {
      log.warn('sides.same_path', `baseline and candidate are the same output (${resolve(baselinePath)}): this compares a run with itself`)
    }
    const harness = await sidesHarness(harnesses, baselinePath, candidatePath)
    const baseline = (sides.baseline = await readSide(harnesses, harness, baselinePath))
    const candidate = (sides.candidate = await readSide(harnesses, harness, candidatePath))
    for (const unit of await harness.pair(baseline, candidate, config, options.defaults ?? null, log)) {
      await compareUnit(unit, context)
    }
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    log.fromError(error)
  }

  const others: GatedRow[] = [...answerLengths, ...calibrations]
  const verdict = overallVerdict(comparisons, log, others)
  return newReport(config.statistics, {
    verdict,
    headline: headline(verdict, comparisons, log, others),
    errors: log.errors,
    warnings: log.warnings,
    baseline: sideInfo(baselinePath, sides.baseline),
    candidate: sideInfo(candidatePath, sides.candidate),
    comparisons,
    efficiency,
    notes: efficiency.length > 0 ? [EFFICIENCY_NOTE] : [],
    ...(answerLengths.length > 0 ? { answer_lengths: answerLengths } : {}),
    ...(calibrations.length > 0 ? { calibrations } : {})
  })
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** The harness that reads any folder the others do not recognise. */
function fallbackOf(harnesses: readonly Harness[]): Harness {
  const fallback = harnesses.find(h => h.fallback)
  if (!fallback) throw new Error('no harness reads unrecognised folders (set fallback on one)')
  return fallback
}

/**
 * Which reader both sides get: each harness recognises its output by its files (lm-eval's
 * results_<date>.json, samples_<task>_<date>.jsonl), everything else is read by the fallback
 * (HELM), whose reader reports a missing path. Two kinds cannot be compared: their prompts,
 * metrics and scoring differ.
 */
async function sidesHarness(harnesses: readonly Harness[], baselinePath: string, candidatePath: string): Promise<Harness> {
  const fallback = fallbackOf(harnesses)
  const kind = async (path: string): Promise<Harness | null> => {
    if (!(await isDirectory(path))) return null
    for (const h of harnesses) if (!h.fallback && (await h.recognises(path))) return h
    return fallback
  }
  const [b, c] = await Promise.all([kind(baselinePath), kind(candidatePath)])
  if (b !== null && c !== null && b !== c) {
    // A folder with neither kind of output is named as such, not as the other harness's.
    if (b === fallback || c === fallback) await readSide(harnesses, fallback, b === fallback ? baselinePath : candidatePath)
    throw new InputError(
      'sides.different_kinds',
      `the baseline is ${b.name} output and the candidate ${c.name} output; both sides must come from the same harness, whose prompts and metrics differ`,
      { file: c !== fallback ? candidatePath : baselinePath, value: { baseline: b.name.toLowerCase(), candidate: c.name.toLowerCase() } }
    )
  }
  return [b, c].find(h => h !== null && !h.fallback) ?? fallback
}

/** One side read by its harness, with a folder that holds no harness's output named as such. */
async function readSide(harnesses: readonly Harness[], harness: Harness, path: string): Promise<HarnessSide> {
  try {
    return await harness.read(path)
  } catch (error) {
    if (!(error instanceof InputError) || error.code !== 'input.no_runs' || !harness.fallback) throw error
    throw new InputError('input.no_runs', `${resolve(path)} is neither ${harnesses.map(h => h.expects).join(' nor ')}`, error.location)
  }
}

/** What every unit's comparison appends to. */
interface UnitContext {
  config: GateConfig
  examples: number
  changedAnswers: Map<string, ChangedExample[]> | undefined
  log: IssueLog
  comparisons: Comparison[]
  efficiency: EfficiencyEntry[]
  answerLengths: AnswerLength[]
  calibrations: CalibrationRow[]
}

/** One paired unit: the harness's checks, then the rows, changed answers, answer length and request times. */
async function compareUnit(unit: PairedUnit, context: UnitContext): Promise<void> {
  const { config, examples, changedAnswers, log } = context
  const { name, gated } = unit
  const opened = await unit.open(log)
  if (!opened) return
  const errorsBefore = log.errors.length
  // For report.html every changed answer is read (texts are bounded excerpts; a HELM run with
  // more request states than TEXT_KEEP_LIMIT is streamed again, never held whole), then the
  // report keeps the first `examples`.
  // The answer-length interval starts first, on a statistics worker, so that it overlaps the
  // gated bootstrap below; its issues go to the log after the comparisons', where they always were.
  const split = resolveSplit(name, gated, opened.baseline, opened.candidate, log)
  const lengthLog = new IssueLog()
  const lengths = opened.answerLengths(split ?? gated.split, lengthLog)
  const lengthTask = lengths ? unitAnswerLength(name, gated, lengths, config.statistics) : null
  // Settled here too, so that a return before it is awaited leaves no unhandled rejection.
  lengthTask?.catch(() => undefined)
  const built =
    split === undefined
      ? []
      : buildComparisons(
          name,
          gated,
          split,
          opened.baseline,
          opened.candidate,
          config.statistics,
          changedAnswers ? Number.MAX_SAFE_INTEGER : examples,
          log
        )
  if (log.errors.length === errorsBefore && !opened.checkAfterRows(log)) return
  await opened.fillExamples(built)
  if (changedAnswers) {
    for (const cmp of built) {
      changedAnswers.set(cmp.id, cmp.examples)
      cmp.examples = cmp.examples.slice(0, examples)
    }
  }
  context.comparisons.push(...built)
  // Only when the gate entry asks: it reads no new file (the opened values hold max_prob) but
  // resamples ECE, whose bins are cut again on every draw.
  if (gated.calibration && split !== undefined) {
    const row = unitCalibration(name, gated.calibration, opened.baseline, opened.candidate, split ?? gated.split, config.statistics)
    if (row instanceof GateError) log.fromError(row)
    else context.calibrations.push(row)
  }
  log.errors.push(...lengthLog.errors)
  log.warnings.push(...lengthLog.warnings)
  const length = lengthTask ? (await lengthTask).settle(log) : null
  if (length) context.answerLengths.push(length)
  const eff = await opened.efficiency(log)
  if (eff) context.efficiency.push(eff)
}

/** What a verdict is made of: every gated row, comparisons, answer lengths and calibration alike. */
export type GatedRow = Pick<Comparison, 'gated' | 'verdict'>

function overallVerdict(comparisons: Comparison[], log: IssueLog, others: GatedRow[]): Verdict {
  if (log.errors.length > 0) return 'error'
  const gated: GatedRow[] = [...comparisons, ...others].filter(c => c.gated)
  if (gated.length === 0) {
    log.error('gate.empty', 'nothing was gated: no comparison was made, so nothing can pass')
    return 'error'
  }
  if (gated.some(c => c.verdict === 'fail')) return 'fail'
  if (gated.some(c => c.verdict === 'inconclusive')) return 'inconclusive'
  return 'pass'
}

function headline(verdict: Verdict, comparisons: Comparison[], log: IssueLog, others: GatedRow[]): string {
  return qualityHeadline(verdict, comparisons, log.errors.length, others)
}

/**
 * The quality half's verdict from its comparisons, its other gated rows (answer lengths,
 * calibration) and its errors (also after the traffic rows join them).
 */
export function qualityVerdict(comparisons: Comparison[], errorCount: number, others: GatedRow[] = []): Verdict {
  if (errorCount > 0) return 'error'
  const gated: GatedRow[] = [...comparisons, ...others].filter(c => c.gated)
  if (gated.length === 0) return 'error'
  if (gated.some(c => c.verdict === 'fail')) return 'fail'
  if (gated.some(c => c.verdict === 'inconclusive')) return 'inconclusive'
  return 'pass'
}

/** The headline of a quality verdict. */
export function qualityHeadline(verdict: Verdict, comparisons: Comparison[], errorCount: number, others: GatedRow[] = []): string {
  const gated: GatedRow[] = [...comparisons, ...others].filter(c => c.gated)
  const count = (v: string): number => gated.filter(c => c.verdict === v).length
  switch (verdict) {
    case 'pass':
      return `The candidate is not meaningfully worse: all ${gated.length} gated comparisons pass.`
    case 'fail':
      return `The candidate regressed beyond the tolerated drop in ${count('fail')} of ${gated.length} gated comparisons.`
    case 'inconclusive':
      return `Not enough evidence: ${count('inconclusive')} of ${gated.length} gated comparisons are inconclusive; more instances are needed, not a looser threshold.`
    case 'error':
      return `The gate could not make a sound comparison (${errorCount} error${errorCount === 1 ? '' : 's'}); nothing passes until it can.`
  }
}

/** What the report says about a side; a side that could not be read holds no runs. */
function sideInfo(path: string, side: HarnessSide | null): Report['baseline'] {
  return side ? side.info(path) : { path, runs: [], deployment: null, helm_version: null }
}
