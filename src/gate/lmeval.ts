/**
 * Comparing two lm-evaluation-harness output folders (docs/lm-eval.md). Tasks are paired by name,
 * samples by (task, filter, doc_id); the per-sample metric values become the same per-instance
 * values a HELM run gives (instance = doc_id, split = lm-eval's filter): lm-eval behind the harness
 * interface (src/model/harness.ts), so the same paired statistics, verdicts, flips and changed
 * answers follow in compare.ts, which never asks which harness it holds. The guards
 * (lmeval-guards.ts) are HELM's in lm-eval's terms, and each failure is an error, never a pass:
 * task version, n-shot, generation kwargs, filters, the rest of the task config and each sample's
 * prompt must match between the sides; a missing or duplicated sample, a failed request and
 * lm-eval's request cache stop the comparison.
 */
import { createHash } from 'node:crypto'
import type { GateConfig, GatedRun } from '../config/types.js'
import { looksLikeLmEvalOutput, readLmEvalOutput } from '../lmeval/read.js'
import type { LmEvalOutput, LmEvalSample, LmEvalTask } from '../lmeval/types.js'
import type { Harness, HarnessSide, MetricValue, OpenedUnit, PairedLengths, PairedUnit, RunDefaults, UnitValues } from '../model/harness.js'
import type { IssueLog } from '../model/issue-log.js'
import type { Comparison, Report } from '../model/report.js'
import { CHARACTERS_UNIT } from './answer-length.js'
import {
  checkFailures,
  checkPerSampleMetric,
  checkRunSettings,
  checkSamplesComplete,
  checkSamplesPaired,
  checkTaskSettings,
  sampleKey,
  type TaskWork
} from './lmeval-guards.js'
import { globMatches } from './match.js'
import { fillExampleTexts } from './run-data.js'

/** One side's lm-eval output folder, as its reader read it. */
export class LmEvalSide implements HarnessSide {
  constructor(readonly output: LmEvalOutput) {}

  info(path: string): Report['baseline'] {
    return { path, runs: this.output.tasks.map(t => t.name), deployment: this.output.model, helm_version: null }
  }
}

export const lmEvalHarness: Harness<LmEvalSide> = {
  name: 'lm-eval',
  expects: 'lm-eval output (no results_<date>.json or samples_<task>_<date>.jsonl in it or one folder below)',
  fallback: false,
  recognises: looksLikeLmEvalOutput,
  read: async path => new LmEvalSide(await readLmEvalOutput(path)),
  pair: async (baseline, candidate, config, defaults, log) => {
    const b = baseline.output
    const c = candidate.output
    if (!(await checkRunSettings(b, c, log))) return []
    return selectTasks(b, c, config, defaults, log).map(item => new LmEvalTaskPair(item))
  }
}

/** Whether lm-eval task `task` is what gate entry `gated` names: its `match` glob, else its entry exactly. */
export function taskMatchesEntry(task: string, gated: GatedRun): boolean {
  return gated.match !== null ? globMatches(gated.match, task) : gated.entry === task
}

/** Which task pairs are compared under which gate entry; every one-sided task is reported. */
function selectTasks(b: LmEvalOutput, c: LmEvalOutput, config: GateConfig, defaults: RunDefaults | null, log: IssueLog): TaskWork[] {
  const byName = (o: LmEvalOutput): Map<string, LmEvalTask> => new Map(o.tasks.map(t => [t.name, t]))
  const tasksB = byName(b)
  const tasksC = byName(c)
  const gatedEntries = config.runs
  const concerns = (task: string): boolean => gatedEntries.length === 0 || gatedEntries.some(g => taskMatchesEntry(task, g))
  for (const [side, own, other, output] of [
    ['baseline', tasksB, tasksC, b],
    ['candidate', tasksC, tasksB, c]
  ] as const) {
    for (const task of own.keys()) {
      if (other.has(task)) continue
      const message = `task ${task} exists only on the ${side} side: the gate cannot judge what the other side did not run (the two sides ran different tasks)`
      if (concerns(task)) log.error('lmeval.task_one_sided', message, { file: output.resultsFile, field: `configs.${task}` })
      else log.warn('lmeval.task_one_sided', `${message} (not in the gate file; ignored)`, { file: output.resultsFile })
    }
  }
  const shared = [...tasksB.keys()].filter(t => tasksC.has(t)).sort()
  const outputs = { baseline: b, candidate: c }
  if (gatedEntries.length === 0) {
    if (!defaults) return []
    return shared.map(task => ({
      baseline: tasksB.get(task)!,
      candidate: tasksC.get(task)!,
      gated: { entry: task, match: null, ...defaults },
      outputs
    }))
  }
  const work: TaskWork[] = []
  gatedEntries.forEach((gated, i) => {
    const matches = shared.filter(t => taskMatchesEntry(t, gated))
    if (matches.length === 0) {
      const onEither = [...tasksB.keys(), ...tasksC.keys()].some(t => taskMatchesEntry(t, gated))
      // A task on one side only is already an error above.
      if (!onEither) {
        log.error('runs.missing', `no lm-eval task found for gate entry ${gated.entry} on either side`, {
          file: config.source,
          field: `runs[${i}].entry`,
          value: `available: ${[...new Set([...tasksB.keys(), ...tasksC.keys()])].sort().join('; ')}`
        })
      }
      return
    }
    for (const task of matches) work.push({ baseline: tasksB.get(task)!, candidate: tasksC.get(task)!, gated, outputs })
  })
  for (const task of shared) {
    if (!gatedEntries.some(g => taskMatchesEntry(task, g))) {
      log.warn('runs.ungated', `task ${task} is on both sides but not in the gate file; not compared`, { file: c.resultsFile })
    }
  }
  return work
}

/** One task of both sides under one gate entry. */
class LmEvalTaskPair implements PairedUnit {
  readonly name: string
  readonly gated: GatedRun

  constructor(private readonly item: TaskWork) {
    this.name = item.baseline.name
    this.gated = item.gated
  }

  async open(log: IssueLog): Promise<OpenedUnit | null> {
    const item = this.item
    const { baseline: b, candidate: c, gated } = item
    if (!checkTaskSettings(item, log)) return null
    let ok = checkSamplesComplete('baseline', b, log)
    ok = checkSamplesComplete('candidate', c, log) && ok
    if (!ok) return null
    ok = checkFailures('baseline', b, log)
    ok = checkFailures('candidate', c, log) && ok
    if (!ok || !checkSamplesPaired(item, log)) return null
    ok = checkPerSampleMetric('baseline', b, gated.metric, log)
    ok = checkPerSampleMetric('candidate', c, gated.metric, log) && ok
    if (!ok) return null
    if (b.samplesDigest === c.samplesDigest) {
      log.warn(
        'sides.same_content',
        `task ${b.name}: the samples file is byte for byte the same on both sides (sha256 ${b.samplesDigest.slice(0, 16)}); the deployments answered every document alike, or one run was copied to both sides`,
        { file: c.samplesFile }
      )
    }
    return {
      baseline: asUnitValues(b),
      candidate: asUnitValues(c),
      // lm-eval's request guards all ran above, before the rows.
      checkAfterRows: () => true,
      fillExamples: async rows => fillTexts(b, c, rows),
      answerLengths: (_split, lengthLog) => lmEvalLengths(item, lengthLog),
      // lm-eval records no request times.
      efficiency: async () => null
    }
  }
}

/**
 * The answer lengths of one task: code points of each document's generated answer (lm-eval
 * records no token counts), paired by doc_id; a task of loglikelihood requests has no answers to
 * measure (an error only when its band gates).
 */
function lmEvalLengths(item: TaskWork, log: IssueLog): PairedLengths | null {
  const { baseline: b, candidate: c, gated } = item
  const lengths = (task: LmEvalTask): Map<number, number | null> => {
    const out = new Map<number, number | null>()
    for (const s of task.samples) if (!out.has(s.docId)) out.set(s.docId, s.answerChars)
    return out
  }
  const lb = lengths(b)
  const lc = lengths(c)
  const baseline: number[] = []
  const candidate: number[] = []
  for (const [doc, vb] of [...lb].sort((x, y) => x[0] - y[0])) {
    const vc = lc.get(doc)
    if (vb === null || vc === null || vc === undefined) continue
    baseline.push(vb)
    candidate.push(vc)
  }
  if (baseline.length === 0) {
    if (gated.answerLength) {
      log.error(
        'length.no_answers',
        `task ${b.name}: no document has a generated answer on both sides (loglikelihood requests), so answer_length_ratio cannot be measured`,
        {
          file: c.samplesFile,
          field: 'answer_length_ratio'
        }
      )
    }
    return null
  }
  return { source: 'lm-eval', unit: CHARACTERS_UNIT, baseline, candidate, file: c.samplesFile }
}

/**
 * One task as the values the comparison reads: doc_id is the instance (one trial, no
 * perturbation), the filter is the split, and each document is one answered request. The request
 * guards (cache, failures, prompt and answer-key drift) were already applied in lm-eval's terms.
 */
function asUnitValues(task: LmEvalTask): UnitValues {
  const perDoc = new Map<number, LmEvalSample>()
  for (const s of task.samples) if (!perDoc.has(s.docId)) perDoc.set(s.docId, s)
  const requestStates: UnitValues['requestStates'] = [...perDoc.values()].map(s => ({
    instanceId: String(s.docId),
    trainTrialIndex: 0,
    perturbation: null,
    referenceIndex: null,
    cached: false,
    success: true,
    error: null,
    promptHash: s.promptHash.slice(0, 24),
    // The answer key's digest, in the place HELM's references give theirs (the target as logged,
    // 16 hex digits); it was compared in lm-eval's own terms, with its hashes, before this
    // (checkAnswerKeys).
    referenceKeys: [createHash('sha256').update(s.answerKey.target).digest('hex').slice(0, 16)],
    decoding: {},
    answered: s.failure === null,
    inputExcerpt: s.inputExcerpt,
    referenceExcerpt: s.referenceExcerpt,
    outputExcerpt: s.outputExcerpt,
    outputChars: s.answerChars,
    requestTime: null
  }))
  const names = [...new Set(task.samples.flatMap(s => [...s.metrics.keys()]))].sort()
  const values = (metric: string, split: string | null): MetricValue[] =>
    task.samples
      .filter(s => s.filter === split && s.metrics.has(metric))
      .map(s => {
        const v = s.metrics.get(metric) ?? null
        return { instanceId: String(s.docId), trainTrialIndex: 0, perturbation: null, value: v, raw: v, occurrences: 1 }
      })
  return {
    perInstanceStatsFile: task.samplesFile,
    scenarioStateFile: task.samplesFile,
    requestStates,
    metricNames: () => names,
    splits: metric => [...new Set(task.samples.filter(s => s.metrics.has(metric)).map(s => s.filter))].sort(),
    values
  }
}

/** The changed answers' texts: the question, the target and each side's response under the comparison's filter. */
function fillTexts(b: LmEvalTask, c: LmEvalTask, built: Comparison[]): void {
  const index = (t: LmEvalTask): Map<string, LmEvalSample> => new Map(t.samples.map(s => [sampleKey(s), s]))
  const byB = index(b)
  const byC = index(c)
  fillExampleTexts(built, (cmp, e) => sampleKey({ filter: cmp.split ?? '', docId: Number(e.instance_id) }), byB, byC)
}
