/**
 * The guards of an lm-evaluation-harness comparison (docs/lm-eval.md), HELM's in lm-eval's terms,
 * used by the lm-eval harness (lmeval.ts): the settings of the whole lm_eval command and the same
 * evidence read twice, then per task pair its settings, complete and paired samples with the same
 * prompts, kwargs and answer keys, failed requests and metrics that are not per sample. Each
 * failure is an error, never a pass.
 */
import { realpath, stat } from 'node:fs/promises'
import type { GatedRun } from '../config/types.js'
import type { LmEvalAnswerKey, LmEvalOutput, LmEvalSample, LmEvalTask } from '../lmeval/types.js'
import type { IssueLog } from '../model/issue-log.js'
import { canonicalJson } from './run-identity.js'
import type { FileRead } from './run-data.js'

/** One task of both sides under one gate entry, with both sides' output folders. */
export interface TaskWork {
  baseline: LmEvalTask
  candidate: LmEvalTask
  gated: GatedRun
  outputs: { baseline: LmEvalOutput; candidate: LmEvalOutput }
}

/** Settings of the whole lm_eval command that decide every answer or score. */
export async function checkRunSettings(b: LmEvalOutput, c: LmEvalOutput, log: IssueLog): Promise<boolean> {
  let ok = await checkSameEvidence(b, c, log)
  if (b.lmEvalVersion !== c.lmEvalVersion) {
    log.error(
      'lmeval.version_drift',
      `the two sides ran different lm-eval versions, whose prompts, filters and metrics may differ, so the comparison would measure the harness, not the model`,
      { file: c.resultsFile, field: 'lm_eval_version', value: { baseline: b.lmEvalVersion, candidate: c.lmEvalVersion } }
    )
    ok = false
  }
  for (const [side, output] of [
    ['baseline', b],
    ['candidate', c]
  ] as const) {
    // lm-eval's --use_cache keys its SQLite cache by the request alone, not by the server, so a
    // cached answer may be another deployment's (the same hole as HELM's request cache).
    const cache = output.runConfig['use_cache']
    if (cache !== null && cache !== undefined && cache !== false && cache !== '') {
      log.error(
        'lmeval.cached',
        `the ${side} side ran with lm-eval's request cache (--use_cache), which is keyed by the request and not by the server, so its answers may belong to another deployment; run without --use_cache`,
        { file: output.resultsFile, field: 'config.use_cache', value: cache }
      )
      ok = false
    }
  }
  // --gen_kwargs on the command line overrides every task's generation kwargs; --limit and the
  // seeds decide which documents and few-shot examples are used.
  for (const field of ['gen_kwargs', 'limit', 'fewshot_seed', 'random_seed', 'numpy_seed']) {
    const vb = b.runConfig[field] ?? null
    const vc = c.runConfig[field] ?? null
    if (canonicalJson(vb) === canonicalJson(vc)) continue
    log.error(
      field === 'gen_kwargs' ? 'lmeval.generation_kwargs_drift' : 'lmeval.run_config_drift',
      `the two sides ran lm_eval with different ${field}, so the comparison would measure configuration, not the model`,
      { file: c.resultsFile, field: `config.${field}`, value: { baseline: vb, candidate: vc } }
    )
    ok = false
  }
  for (const field of Object.keys(b.promptSettings)) {
    const vb = b.promptSettings[field]
    const vc = c.promptSettings[field]
    if (canonicalJson(vb) === canonicalJson(vc)) continue
    log.error(
      'lmeval.prompt_drift',
      `the two sides rendered prompts with different ${field}, so the comparison would measure prompt configuration, not the model`,
      { file: c.resultsFile, field, value: { baseline: vb ?? null, candidate: vc ?? null } }
    )
    ok = false
  }
  return ok
}

async function identify(path: string): Promise<FileRead | null> {
  try {
    const [real, info] = await Promise.all([realpath(path), stat(path)])
    return { path, real, identity: `${info.dev}:${info.ino}` }
  } catch {
    return null
  }
}

/**
 * The two sides must be two runs: a file reached from both (the same folder given twice, a
 * symlink, a hard link) compares a run with itself and would pass any change. Identical samples
 * files are only a warning: lm-eval writes no times into them, so two deterministic deployments
 * that answer alike give the same bytes.
 */
async function checkSameEvidence(b: LmEvalOutput, c: LmEvalOutput, log: IssueLog): Promise<boolean> {
  const files = (o: LmEvalOutput): string[] => [o.resultsFile, ...o.tasks.map(t => t.samplesFile)]
  const [readB, readC] = await Promise.all([Promise.all(files(b).map(identify)), Promise.all(files(c).map(identify))])
  const known = new Map(readB.filter((f): f is FileRead => f !== null).flatMap(f => [[f.identity, f] as const, [f.real, f] as const]))
  const shared = readC.filter((f): f is FileRead => f !== null).find(f => known.has(f.identity) || known.has(f.real))
  if (shared) {
    const same = known.get(shared.identity) ?? known.get(shared.real)!
    log.error(
      'sides.same_file',
      `the baseline and the candidate read the same file, ${shared.real}, so the comparison would compare a run with itself`,
      { file: shared.path, value: { baseline: same.path, candidate: shared.path } }
    )
    return false
  }
  return true
}

/** Task settings compared one by one, each with its own code so the report names what drifted. */
const TASK_FIELDS: { field: string; code: string; what: string; get: (t: LmEvalTask) => unknown }[] = [
  { field: 'versions', code: 'lmeval.task_version_drift', what: 'task versions', get: t => t.version },
  { field: 'n-shot', code: 'lmeval.nshot_drift', what: 'numbers of few-shot examples (n-shot)', get: t => t.nShot },
  {
    field: 'generation_kwargs',
    code: 'lmeval.generation_kwargs_drift',
    what: 'generation kwargs',
    get: t => t.config['generation_kwargs'] ?? null
  },
  { field: 'filter_list', code: 'lmeval.filter_drift', what: 'filters', get: t => t.config['filter_list'] ?? null }
]

/**
 * The task's resolved config without what names the deployment: lm-eval copies the model args
 * (base_url, model, ...) into `metadata`; only metadata.version belongs to the task.
 */
function taskConfigRest(t: LmEvalTask): Record<string, unknown> {
  const rest: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(t.config)) {
    if (k === 'generation_kwargs' || k === 'filter_list') continue
    if (k === 'metadata') {
      const meta = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {}
      rest[k] = { version: meta['version'] ?? null }
      continue
    }
    rest[k] = v
  }
  return rest
}

export function checkTaskSettings(item: TaskWork, log: IssueLog): boolean {
  const { baseline: b, candidate: c } = item
  const resultsFile = item.outputs.candidate.resultsFile
  let ok = true
  for (const f of TASK_FIELDS) {
    const vb = f.get(b)
    const vc = f.get(c)
    if (canonicalJson(vb) === canonicalJson(vc)) continue
    log.error(
      f.code,
      `task ${b.name}: the two sides used different ${f.what}, so the comparison would measure configuration, not the model`,
      {
        file: resultsFile,
        field: f.field === 'versions' || f.field === 'n-shot' ? `${f.field}.${b.name}` : `configs.${b.name}.${f.field}`,
        value: { baseline: vb, candidate: vc }
      }
    )
    ok = false
  }
  const restB = taskConfigRest(b)
  const restC = taskConfigRest(c)
  const differing = [...new Set([...Object.keys(restB), ...Object.keys(restC)])]
    .sort()
    .filter(k => canonicalJson(restB[k] ?? null) !== canonicalJson(restC[k] ?? null))
  if (differing.length > 0) {
    const k = differing[0]
    log.error(
      'lmeval.task_config_drift',
      `task ${b.name}: the two sides ran different task configs (${differing.join(', ')}), so the comparison would measure configuration, not the model`,
      { file: resultsFile, field: `configs.${b.name}.${k}`, value: { baseline: restB[k] ?? null, candidate: restC[k] ?? null } }
    )
    ok = false
  }
  return ok
}

export const sampleKey = (s: Pick<LmEvalSample, 'filter' | 'docId'>): string => `${s.filter}\u0000${s.docId}`

/** Per side: no duplicate, every filter over the same documents, as many as the results file says. */
export function checkSamplesComplete(side: string, task: LmEvalTask, log: IssueLog): boolean {
  const seen = new Map<string, LmEvalSample>()
  const docsByFilter = new Map<string, Set<number>>()
  for (const s of task.samples) {
    const key = sampleKey(s)
    const earlier = seen.get(key)
    if (earlier) {
      log.error(
        'lmeval.duplicate_sample',
        `task ${task.name}: the ${side} side logs doc_id ${s.docId} under filter ${s.filter} twice (lines ${earlier.line} and ${s.line}), so its value is ambiguous; lm-eval appends to a samples file, so two runs may share one`,
        { file: task.samplesFile, field: `line ${s.line}`, value: { doc_id: s.docId, filter: s.filter } }
      )
      return false
    }
    seen.set(key, s)
    let docs = docsByFilter.get(s.filter)
    if (!docs) docsByFilter.set(s.filter, (docs = new Set()))
    docs.add(s.docId)
  }
  if (task.samples.length === 0) {
    log.error('lmeval.missing_samples', `task ${task.name}: the ${side} side's samples file is empty`, { file: task.samplesFile })
    return false
  }
  const expected = task.effectiveSamples
  for (const [filter, docs] of docsByFilter) {
    if (expected !== null && docs.size !== expected) {
      log.error(
        'lmeval.missing_samples',
        `task ${task.name}: the ${side} side logs ${count(docs.size, 'document')} under filter ${filter} while its results file says ${expected} were evaluated, so samples are missing (a cut or edited samples file)`,
        { file: task.samplesFile, field: `filter ${filter}`, value: { logged: docs.size, evaluated: expected } }
      )
      return false
    }
  }
  const filters = [...docsByFilter.keys()].sort()
  const first = docsByFilter.get(filters[0])!
  for (const filter of filters.slice(1)) {
    const docs = docsByFilter.get(filter)!
    const lacking = [...first].find(d => !docs.has(d)) ?? [...docs].find(d => !first.has(d))
    if (lacking !== undefined) {
      log.error(
        'lmeval.missing_samples',
        `task ${task.name}: on the ${side} side doc_id ${lacking} is logged under one filter but not under another, so samples are missing`,
        { file: task.samplesFile, field: `filter ${filter}`, value: { doc_id: lacking } }
      )
      return false
    }
  }
  return true
}

/** Both sides must hold the same (filter, doc_id) samples, with the same prompt and kwargs each. */
export function checkSamplesPaired(item: TaskWork, log: IssueLog): boolean {
  const { baseline: b, candidate: c } = item
  const byKeyB = new Map(b.samples.map(s => [sampleKey(s), s]))
  const byKeyC = new Map(c.samples.map(s => [sampleKey(s), s]))
  for (const [side, own, other, task] of [
    ['candidate', byKeyB, byKeyC, c],
    ['baseline', byKeyC, byKeyB, b]
  ] as const) {
    const missing = [...own.values()].filter(s => !other.has(sampleKey(s)))
    if (missing.length === 0) continue
    log.error(
      'lmeval.missing_samples',
      `task ${b.name}: ${count(missing.length, 'sample')} of the other side ${missing.length === 1 ? 'is' : 'are'} missing on the ${side} side (first: doc_id ${missing[0].docId}, filter ${missing[0].filter}); documents missing on one side are rarely missing at random, so the gate does not compare the rest`,
      { file: task.samplesFile, field: 'doc_id', value: { doc_id: missing[0].docId, filter: missing[0].filter } }
    )
    return false
  }
  if (!checkAnswerKeys(b.name, byKeyB, byKeyC, c.samplesFile, log)) return false
  let promptDrift: LmEvalSample | null = null
  let kwargsDrift: [LmEvalSample, LmEvalSample] | null = null
  let prompts = 0
  let kwargs = 0
  for (const [key, sc] of byKeyC) {
    const sb = byKeyB.get(key)!
    if (sb.promptHash !== sc.promptHash) {
      prompts++
      promptDrift ??= sc
    }
    if (sb.genKwargsHash !== sc.genKwargsHash) {
      kwargs++
      kwargsDrift ??= [sb, sc]
    }
  }
  if (promptDrift) {
    const s = promptDrift
    log.error(
      'lmeval.prompt_drift',
      `task ${b.name}: ${count(prompts, 'sample')} ${prompts === 1 ? 'was' : 'were'} sent with different prompts on the two sides (first: doc_id ${s.docId}), so the comparison would measure prompt configuration, not the model`,
      { file: c.samplesFile, field: `line ${s.line}: arguments`, value: { doc_id: s.docId, filter: s.filter } }
    )
    return false
  }
  if (kwargsDrift) {
    const [sb, sc] = kwargsDrift
    log.error(
      'lmeval.generation_kwargs_drift',
      `task ${b.name}: ${count(kwargs, 'sample')} ${kwargs === 1 ? 'was' : 'were'} sent with different generation kwargs on the two sides (first: doc_id ${sc.docId}), so the answers were decoded differently`,
      {
        file: c.samplesFile,
        field: `line ${sc.line}: arguments.gen_args_0.arg_1`,
        value: { baseline: sb.genKwargs, candidate: sc.genKwargs }
      }
    )
    return false
  }
  return true
}

/**
 * What each document is scored against must be the same on both sides: a target edited in the
 * task's data (or a data fix between an archived baseline and the candidate) changes the score of
 * an unchanged answer, and pairing it would count that as the model's win or loss. The hashes are
 * compared where both sides logged them (lm-eval writes them since 0.4.3).
 */
function checkAnswerKeys(
  task: string,
  baseline: Map<string, LmEvalSample>,
  candidate: Map<string, LmEvalSample>,
  candidateFile: string,
  log: IssueLog
): boolean {
  const drifted = new Set<number>()
  let first: { b: LmEvalSample; c: LmEvalSample; fields: (keyof LmEvalAnswerKey)[] } | null = null
  for (const [key, sc] of candidate) {
    const sb = baseline.get(key)!
    const fields = answerKeyDifferences(sb.answerKey, sc.answerKey)
    if (fields.length === 0) continue
    drifted.add(sc.docId)
    first ??= { b: sb, c: sc, fields }
  }
  if (!first) return true
  const { b, c, fields } = first
  const shown = (k: LmEvalAnswerKey, f: keyof LmEvalAnswerKey): string =>
    k[f] === null ? 'absent' : f === 'target' ? clip(k[f]) : k[f].slice(0, 16)
  const differences = fields.map(f => `${f} baseline ${shown(b.answerKey, f)}, candidate ${shown(c.answerKey, f)}`).join('; ')
  log.error(
    'lmeval.answer_key_drift',
    `task ${task}: ${drifted.size} ${drifted.size === 1 ? 'document has' : 'documents have'} a different answer key on the two sides (first: doc_id ${c.docId}, filter ${c.filter}, candidate line ${c.line}: ${differences}), so a score change there would be the data's, not the model's`,
    {
      file: candidateFile,
      field: `line ${c.line}: ${fields[0]}`,
      value: { doc_id: c.docId, filter: c.filter, baseline: b.answerKey[fields[0]], candidate: c.answerKey[fields[0]] }
    }
  )
  return false
}

/** The answer-key fields that differ; a hash only one side logged is not compared. */
function answerKeyDifferences(b: LmEvalAnswerKey, c: LmEvalAnswerKey): (keyof LmEvalAnswerKey)[] {
  const fields: (keyof LmEvalAnswerKey)[] = []
  if (b.target !== c.target) fields.push('target')
  for (const f of ['doc_hash', 'target_hash'] as const) if (b[f] !== null && c[f] !== null && b[f] !== c[f]) fields.push(f)
  return fields
}

/** "1 sample", "2 samples". */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

export function checkFailures(side: string, task: LmEvalTask, log: IssueLog): boolean {
  const failed = task.samples.filter(s => s.failure !== null)
  if (failed.length === 0) return true
  const docs = new Set(failed.map(s => s.docId))
  log.error(
    'lmeval.failed_requests',
    `task ${task.name}: ${count(docs.size, `${side} document`)} ${docs.size === 1 ? 'has' : 'have'} no real answer (${failed[0].failure}; first: doc_id ${failed[0].docId}), so their scores are not the model's answers`,
    { file: task.samplesFile, field: `line ${failed[0].line}: resps`, value: { doc_id: failed[0].docId } }
  )
  return false
}

/**
 * A metric that is not a number per sample (bleu, chrf, ter and the perplexities log the inputs
 * of a corpus-level score) cannot be paired per instance.
 */
export function checkPerSampleMetric(side: string, task: LmEvalTask, metric: string, log: IssueLog): boolean {
  const listed = task.samples.filter(s => s.metrics.has(metric))
  if (listed.length === 0) return true // guard.metric_missing names the available metrics
  const notNumber = listed.find(s => s.metrics.get(metric) === null)
  if (!notNumber) return true
  log.error(
    'lmeval.metric_not_per_sample',
    `task ${task.name}: ${metric} on the ${side} side is not a number for doc_id ${notNumber.docId}; lm-eval logs the inputs of corpus-level metrics (bleu, chrf, ter, perplexity) per sample, not a score, so they cannot be paired per instance`,
    { file: task.samplesFile, field: `line ${notNumber.line}: ${metric}` }
  )
  return false
}
