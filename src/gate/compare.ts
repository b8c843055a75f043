/**
 * The comparison core: two sets of HELM run directories (or two lm-eval output folders, see
 * lmeval.ts) in, one report out. It never throws
 * for problems in the data: every doubt (missing runs, drift, cached answers, low overlap,
 * absent metrics) becomes an error in the report, and an error verdict. Only a complete,
 * well-paired comparison can produce a pass.
 */
import type { GateConfig, GatedRun } from '../config/types.js'
import { resolve } from 'node:path'
import { stat } from 'node:fs/promises'
import { GateError, InputError } from '../errors.js'
import { discoverRuns } from '../helm/read/discover.js'
import { looksLikeLmEvalOutput } from '../lmeval/read.js'
import type { RunDirectory } from '../helm/types.js'
import {
  newReport,
  type AnswerLength,
  type ChangedExample,
  type Comparison,
  type EfficiencyEntry,
  type Report,
  type Verdict
} from '../model/report.js'
import { helmAnswerLength } from './answer-length.js'
import { buildComparisons } from './comparisons.js'
import { adapterDrift, displayName, scoringDrift } from './run-identity.js'
import { IssueLog } from './issues.js'
import { pairRuns, runMatchesEntry, type RunPair } from './match.js'
import { efficiencyFor } from './efficiency.js'
import { prewarmRatioWorker } from '../stats/off-thread.js'
import { checkOwnScores, checkRequestStates, checkSameEvidence } from './guards.js'
import { checkSameLayout, warnUnsupportedGuards } from './helm-layout.js'
import { exampleKey, fillExampleTexts, loadExampleTexts, loadRunData, type RunData } from './run-data.js'
import { compareLmEval, lmEvalSideInfo, type LmEvalSides } from './lmeval.js'

/** Applied to every run found on both sides when the gate file lists no runs (plain CLI use). */
export type RunDefaults = Omit<GatedRun, 'entry' | 'match'>

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
  const comparisons: Comparison[] = []
  const efficiency: EfficiencyEntry[] = []
  const answerLengths: AnswerLength[] = []
  const sides = { baseline: [] as RunDirectory[], candidate: [] as RunDirectory[] }
  let lmEval: LmEvalSides | null = null

  try {
    if (resolve(baselinePath) === resolve(candidatePath)) {
      log.warn('sides.same_path', `baseline and candidate are the same output (${resolve(baselinePath)}): this compares a run with itself`)
    }
    if ((await sidesKind(baselinePath, candidatePath)) === 'lm-eval') {
      lmEval = { baseline: null, candidate: null }
      await compareLmEval(
        baselinePath,
        candidatePath,
        config,
        { defaults: options.defaults ?? null, examples: options.examples ?? 3, changedAnswers: options.changedAnswers },
        log,
        comparisons,
        lmEval,
        answerLengths
      )
    } else {
      sides.baseline = await discoverHelmRuns(baselinePath)
      sides.candidate = await discoverHelmRuns(candidatePath)
      const work = selectWork(sides.baseline, sides.candidate, config, options.defaults ?? null, log)
      if (work.length > 0) prewarmRatioWorker()
      for (const item of work) {
        await compareRun(item, config, options.examples ?? 3, log, comparisons, efficiency, options.changedAnswers, answerLengths)
      }
    }
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    log.fromError(error)
  }

  const verdict = overallVerdict(comparisons, log, answerLengths)
  return newReport(config.statistics, {
    verdict,
    headline: headline(verdict, comparisons, log, answerLengths),
    errors: log.errors,
    warnings: log.warnings,
    baseline: lmEval ? lmEvalSideInfo(baselinePath, lmEval.baseline) : sideInfo(baselinePath, sides.baseline),
    candidate: lmEval ? lmEvalSideInfo(candidatePath, lmEval.candidate) : sideInfo(candidatePath, sides.candidate),
    comparisons,
    efficiency,
    notes: efficiency.length > 0 ? [EFFICIENCY_NOTE] : [],
    ...(answerLengths.length > 0 ? { answer_lengths: answerLengths } : {})
  })
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/**
 * Which reader both sides get: lm-eval output is recognised by its files (results_<date>.json,
 * samples_<task>_<date>.jsonl), everything else is read as HELM output, whose reader reports a
 * missing path. Two kinds cannot be compared: their prompts, metrics and scoring differ.
 */
async function sidesKind(baselinePath: string, candidatePath: string): Promise<'helm' | 'lm-eval'> {
  const kind = async (path: string): Promise<'helm' | 'lm-eval' | null> =>
    !(await isDirectory(path)) ? null : (await looksLikeLmEvalOutput(path)) ? 'lm-eval' : 'helm'
  const [b, c] = await Promise.all([kind(baselinePath), kind(candidatePath)])
  if (b !== null && c !== null && b !== c) {
    // A folder with neither kind of output is named as such, not as the other harness's.
    await discoverHelmRuns(b === 'helm' ? baselinePath : candidatePath)
    throw new InputError(
      'sides.different_kinds',
      `the baseline is ${b === 'helm' ? 'HELM' : 'lm-eval'} output and the candidate ${c === 'helm' ? 'HELM' : 'lm-eval'} output; both sides must come from the same harness, whose prompts and metrics differ`,
      { file: c === 'lm-eval' ? candidatePath : baselinePath, value: { baseline: b, candidate: c } }
    )
  }
  return b === 'lm-eval' || c === 'lm-eval' ? 'lm-eval' : 'helm'
}

/** discoverRuns, with a folder that holds neither HELM nor lm-eval output named as such. */
async function discoverHelmRuns(path: string): Promise<RunDirectory[]> {
  try {
    return await discoverRuns(path)
  } catch (error) {
    if (!(error instanceof InputError) || error.code !== 'input.no_runs') throw error
    throw new InputError(
      'input.no_runs',
      `${resolve(path)} is neither HELM output (no <output>/runs/<suite>/<run>/run_spec.json) nor lm-eval output (no results_<date>.json or samples_<task>_<date>.jsonl in it or one folder below)`,
      error.location
    )
  }
}

interface WorkItem {
  pair: RunPair
  gated: GatedRun
}

/** Decides which run pairs are compared under which gate entry, reporting everything unpaired. */
function selectWork(
  baseline: RunDirectory[],
  candidate: RunDirectory[],
  config: GateConfig,
  defaults: RunDefaults | null,
  log: IssueLog
): WorkItem[] {
  const pairing = pairRuns(baseline, candidate)
  for (const dup of pairing.duplicates) {
    log.error(
      'runs.ambiguous',
      `the ${dup.side} side has ${dup.runs.length} runs of the same scenario and augmentation; give one suite per side`,
      { file: dup.runs[0].path, value: dup.runs.map(r => r.runSpec.name) }
    )
  }
  const gatedEntries = config.runs
  const concerns = (run: RunDirectory): boolean => gatedEntries.length === 0 || gatedEntries.some(g => runMatchesEntry(run, g))
  for (const [side, runs] of [
    ['baseline', pairing.onlyBaseline],
    ['candidate', pairing.onlyCandidate]
  ] as const) {
    for (const run of runs) {
      const other = side === 'baseline' ? 'candidate' : 'baseline'
      const message = `run ${displayName(run.runSpec)} exists only on the ${side} side: the gate cannot judge what the ${other} did not run`
      if (concerns(run)) log.error('runs.one_sided', message, { file: run.path })
      else log.warn('runs.one_sided', `${message} (not in the gate file; ignored)`, { file: run.path })
    }
  }

  if (gatedEntries.length === 0) {
    if (!defaults) return []
    return pairing.pairs.map(pair => ({
      pair,
      gated: { entry: displayName(pair.baseline.runSpec), match: null, ...defaults }
    }))
  }

  const work: WorkItem[] = []
  gatedEntries.forEach((gated, i) => {
    const matches = pairing.pairs.filter(p => runMatchesEntry(p.baseline, gated))
    if (matches.length === 1) {
      work.push({ pair: matches[0], gated })
      return
    }
    const found = [...baseline, ...candidate].filter(r => runMatchesEntry(r, gated))
    if (matches.length === 0 && found.length === 0) {
      const available = [...new Set([...baseline, ...candidate].map(r => displayName(r.runSpec)))].sort()
      log.error('runs.missing', `no run found for gate entry ${gated.entry} on either side`, {
        file: config.source,
        field: `runs[${i}].entry`,
        value: available.length ? `available: ${available.join('; ')}` : 'no runs at all'
      })
    } else if (matches.length > 1) {
      log.error('runs.ambiguous', `gate entry ${gated.entry} matches ${matches.length} runs; set runs[${i}].match`, {
        file: config.source,
        field: `runs[${i}].entry`,
        value: matches.map(m => displayName(m.baseline.runSpec))
      })
    }
  })
  for (const run of [...pairing.pairs.map(p => p.baseline)]) {
    if (!gatedEntries.some(g => runMatchesEntry(run, g))) {
      log.warn('runs.ungated', `run ${displayName(run.runSpec)} is on both sides but not in the gate file; not compared`, {
        file: run.path
      })
    }
  }
  return work
}

async function compareRun(
  item: WorkItem,
  config: GateConfig,
  examples: number,
  log: IssueLog,
  comparisons: Comparison[],
  efficiency: EfficiencyEntry[],
  changedAnswers: Map<string, ChangedExample[]> | undefined,
  answerLengths: AnswerLength[]
): Promise<void> {
  const { pair, gated } = item
  const name = displayName(pair.baseline.runSpec)
  // Checked first: across HELM generations every other field may differ for that reason alone.
  if (!checkSameLayout(name, pair, log)) return
  const drift = adapterDrift(pair.baseline.runSpec, pair.candidate.runSpec)
  for (const d of drift) {
    log.error(
      'guard.adapter_drift',
      `run ${name}: the two sides used different ${d.field}, so the comparison would measure configuration, not the model`,
      {
        file: pair.candidate.path,
        field: d.field,
        value: { baseline: d.baseline, candidate: d.candidate }
      }
    )
  }
  const scoring = scoringDrift(pair.baseline.runSpec, pair.candidate.runSpec)
  for (const d of scoring) {
    log.error(
      'guard.scoring_drift',
      `run ${name}: the two sides were scored with different ${d.field}, so the comparison would measure the scoring, not the model`,
      {
        file: pair.candidate.path,
        field: `${d.field}[${d.index ?? 0}]`,
        value: { baseline: d.baseline, candidate: d.candidate }
      }
    )
  }
  if (drift.length > 0 || scoring.length > 0) return

  const [b, c] = await Promise.all([loadRunData(pair.baseline), loadRunData(pair.candidate)])
  warnUnsupportedGuards(name, b, c, log)
  if (!checkSameEvidence(name, b, c, log)) return
  if (!checkRequestStates(name, b, c, log)) return
  // Started before the gated comparisons so that its bootstrap overlaps theirs (see efficiencyFor).
  const efficiencyTask = efficiencyFor(name, b, c, config.statistics)
  // Settled here too, so that a return before it is awaited leaves no unhandled rejection.
  efficiencyTask.catch(() => undefined)
  const errorsBefore = log.errors.length
  // For report.html every changed answer is read (texts are bounded excerpts; a run with more
  // request states than TEXT_KEEP_LIMIT is streamed again, never held whole), then the report
  // keeps the first `examples`.
  const built = buildComparisons(name, gated, b, c, config.statistics, changedAnswers ? Number.MAX_SAFE_INTEGER : examples, log)
  // Copied scores are reported only when nothing more specific was found.
  if (log.errors.length === errorsBefore && !checkOwnScores(name, b, c, log)) return
  await fillHelmExampleTexts(b, c, built)
  if (changedAnswers) {
    for (const cmp of built) {
      changedAnswers.set(cmp.id, cmp.examples)
      cmp.examples = cmp.examples.slice(0, examples)
    }
  }
  comparisons.push(...built)
  const length = helmAnswerLength(name, gated, built[0]?.split ?? gated.split, b, c, config.statistics, log)
  if (length) answerLengths.push(length)
  // Request times are information only: a problem with them is a warning, never a gate error.
  try {
    const eff = await efficiencyTask
    if (eff) efficiency.push(eff)
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    log.warn('efficiency.skipped', `run ${name}: request-time ratios not computed: ${error.message}`)
  }
}

async function fillHelmExampleTexts(baseline: RunData, candidate: RunData, built: Comparison[]): Promise<void> {
  const keyOf = (cmp: Comparison, e: ChangedExample): string =>
    exampleKey({ instanceId: e.instance_id, trainTrialIndex: e.train_trial_index, perturbation: cmp.perturbation })
  const wanted = new Set(built.flatMap(cmp => cmp.examples.map(e => keyOf(cmp, e))))
  if (wanted.size === 0) return
  const [b, c] = await Promise.all([loadExampleTexts(baseline, wanted), loadExampleTexts(candidate, wanted)])
  fillExampleTexts(built, keyOf, b, c)
}

/** What a verdict is made of: every gated row, comparisons and answer lengths alike. */
type GatedRow = Pick<Comparison, 'gated' | 'verdict'>

function overallVerdict(comparisons: Comparison[], log: IssueLog, lengths: AnswerLength[]): Verdict {
  if (log.errors.length > 0) return 'error'
  const gated: GatedRow[] = [...comparisons, ...lengths].filter(c => c.gated)
  if (gated.length === 0) {
    log.error('gate.empty', 'nothing was gated: no comparison was made, so nothing can pass')
    return 'error'
  }
  if (gated.some(c => c.verdict === 'fail')) return 'fail'
  if (gated.some(c => c.verdict === 'inconclusive')) return 'inconclusive'
  return 'pass'
}

function headline(verdict: Verdict, comparisons: Comparison[], log: IssueLog, lengths: AnswerLength[]): string {
  return qualityHeadline(verdict, comparisons, log.errors.length, lengths)
}

/** The quality half's verdict from its comparisons and errors (also after the traffic rows join them). */
export function qualityVerdict(comparisons: Comparison[], errorCount: number, lengths: AnswerLength[] = []): Verdict {
  if (errorCount > 0) return 'error'
  const gated: GatedRow[] = [...comparisons, ...lengths].filter(c => c.gated)
  if (gated.length === 0) return 'error'
  if (gated.some(c => c.verdict === 'fail')) return 'fail'
  if (gated.some(c => c.verdict === 'inconclusive')) return 'inconclusive'
  return 'pass'
}

/** The headline of a quality verdict. */
export function qualityHeadline(verdict: Verdict, comparisons: Comparison[], errorCount: number, lengths: AnswerLength[] = []): string {
  const gated: GatedRow[] = [...comparisons, ...lengths].filter(c => c.gated)
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

function sideInfo(path: string, runs: RunDirectory[]): Report['baseline'] {
  const deployments = [
    ...new Set(runs.map(r => String(r.runSpec.adapter_spec?.['model_deployment'] || r.runSpec.adapter_spec?.['model'] || '')))
  ].filter(Boolean)
  return {
    path,
    runs: runs.map(r => r.runSpec.name).sort(),
    deployment: deployments.length === 1 ? deployments[0] : deployments.length ? deployments.join(', ') : null,
    helm_version: null
  }
}
