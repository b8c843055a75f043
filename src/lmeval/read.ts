/**
 * Reading the output of `lm_eval ... --log_samples --output_path OUT` (lm-evaluation-harness
 * 0.4.x). lm-eval writes, under OUT/<model_name_sanitized>/, one `results_<date>.json` and, per
 * task, `samples_<task>_<date>.jsonl` with the same `<date>` (docs/lm-eval.md "What lm-eval
 * writes"). Samples files can be large, so they are streamed line by line and each sample is kept
 * as hashes and short excerpts. Every malformed or missing piece is an InputError naming the file,
 * the field (or line) and the value.
 */
import { createHash } from 'node:crypto'
import { createReadStream, type Dirent } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { InputError } from '../errors.js'
import { excerpt } from '../helm/read/request-states.js'
import type { LmEvalOutput, LmEvalSample, LmEvalTask } from './types.js'

const EXCERPT_LENGTH = 200
const RESULTS_FILE = /^results_(.+)\.json$/
const SAMPLES_FILE = /^samples_(.+)\.jsonl$/

/** The folder's results file, when the folder (or one folder below it) holds lm-eval output. */
interface Located {
  dir: string
  resultsFile: string
  dateId: string
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

async function listDir(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true })
  } catch (error) {
    throw new InputError('input.unreadable', `Cannot read the folder ${dir}: ${(error as Error).message}`, { file: dir })
  }
}

async function filesIn(dir: string): Promise<string[]> {
  return (await listDir(dir)).filter(e => e.isFile()).map(e => e.name)
}

/** The folders to look in: the path itself and its direct subfolders (OUT/<model>/). */
async function candidateFolders(path: string): Promise<string[]> {
  if (!(await isDirectory(path))) return []
  const children = (await listDir(path))
    .filter(e => e.isDirectory() && !e.name.startsWith('.'))
    .map(e => join(path, e.name))
    .sort()
  return [path, ...children]
}

/**
 * Whether `path` holds lm-eval output: a results or samples file in it or one folder below. HELM
 * output never has such files, so this decides which reader a side gets.
 */
export async function looksLikeLmEvalOutput(path: string): Promise<boolean> {
  for (const dir of await candidateFolders(resolve(path))) {
    const names = await filesIn(dir)
    if (names.some(n => RESULTS_FILE.test(n) || SAMPLES_FILE.test(n))) return true
  }
  return false
}

async function locate(path: string): Promise<Located> {
  const found: Located[] = []
  let samplesOnly: string | null = null
  for (const dir of await candidateFolders(path)) {
    const names = (await filesIn(dir)).sort()
    for (const name of names) {
      const m = RESULTS_FILE.exec(name)
      if (m) found.push({ dir, resultsFile: join(dir, name), dateId: m[1] })
    }
    if (samplesOnly === null && names.some(n => SAMPLES_FILE.test(n))) samplesOnly = dir
  }
  if (found.length === 0) {
    throw new InputError(
      'input.lmeval_no_results',
      `${samplesOnly ?? path} holds lm-eval samples but no results_<date>.json: lm-eval writes the results file when a run finishes, so this run did not finish or was copied in part`,
      { file: samplesOnly ?? path }
    )
  }
  if (found.length > 1) {
    throw new InputError(
      'input.lmeval_ambiguous',
      `${path} holds ${found.length} lm-eval runs (results files ${found.map(f => f.resultsFile).join(', ')}); give the folder of one run per side`,
      { file: path, value: found.map(f => f.resultsFile) }
    )
  }
  return found[0]
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Stable JSON (object keys sorted), so equal content hashes equally whatever the key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map(k => `${JSON.stringify(k)}:${stableJson(value[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

async function readResults(file: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new InputError('input.unreadable', `Cannot read ${file}: ${(error as Error).message}`, { file })
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new InputError('input.malformed_json', `${file} is not valid JSON (${(error as Error).message})`, { file })
  }
  if (!isRecord(parsed)) throw new InputError('input.wrong_type', `${file} must hold a JSON object`, { file })
  for (const field of ['configs', 'versions', 'n-shot', 'config']) {
    if (!isRecord(parsed[field])) {
      throw new InputError('input.wrong_type', `${file}: ${field} must be an object, as lm-eval 0.4 writes it`, {
        file,
        field,
        value: parsed[field] ?? null
      })
    }
  }
  return parsed
}

export async function readLmEvalOutput(inputPath: string): Promise<LmEvalOutput> {
  const path = resolve(inputPath)
  const { dir, resultsFile, dateId } = await locate(path)
  const results = await readResults(resultsFile)
  const configs = results['configs'] as Record<string, unknown>
  const runConfig = results['config'] as Record<string, unknown>
  const taskNames = Object.keys(configs).sort()
  if (taskNames.length === 0) {
    throw new InputError('input.lmeval_no_tasks', `${resultsFile} lists no task in configs`, { file: resultsFile, field: 'configs' })
  }

  const samplesFiles = await samplesFilesOf(dir, dateId, configs, resultsFile)
  const tasks: LmEvalTask[] = []
  for (const name of taskNames) tasks.push(await readTask(name, { dir, dateId, resultsFile, results, samplesFiles }))

  const modelArgs = isRecord(runConfig['model_args']) ? runConfig['model_args'] : {}
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
  return {
    dir,
    resultsFile,
    dateId,
    lmEvalVersion: str(results['lm_eval_version']),
    modelType: str(runConfig['model']),
    model: str(modelArgs['model']) ?? str(results['model_name']),
    runConfig,
    promptSettings: {
      fewshot_as_multiturn: results['fewshot_as_multiturn'] ?? null,
      system_instruction_sha: results['system_instruction_sha'] ?? null,
      chat_template_sha: results['chat_template_sha'] ?? null
    },
    tasks
  }
}

/** The samples file of each task in `dir`, by task name; a file of a task the results do not list is an error. */
async function samplesFilesOf(
  dir: string,
  dateId: string,
  configs: Record<string, unknown>,
  resultsFile: string
): Promise<Map<string, string>> {
  const suffix = `_${dateId}.jsonl`
  const samplesFiles = new Map<string, string>()
  for (const name of await filesIn(dir)) {
    if (name.startsWith('samples_') && name.endsWith(suffix)) samplesFiles.set(name.slice('samples_'.length, -suffix.length), name)
  }
  for (const task of samplesFiles.keys()) {
    if (!(task in configs)) {
      const file = join(dir, samplesFiles.get(task)!)
      throw new InputError('input.lmeval_unknown_task', `${file} holds samples of task ${task}, which ${resultsFile} does not list`, {
        file,
        field: 'configs',
        value: task
      })
    }
  }
  return samplesFiles
}

interface TaskSource {
  dir: string
  dateId: string
  resultsFile: string
  results: Record<string, unknown>
  samplesFiles: Map<string, string>
}

/** One task: its config, version, shots and samples (with their digest). */
async function readTask(name: string, source: TaskSource): Promise<LmEvalTask> {
  const { dir, dateId, resultsFile, results, samplesFiles } = source
  const config = (results['configs'] as Record<string, unknown>)[name]
  if (!isRecord(config)) {
    throw new InputError('input.wrong_type', `${resultsFile}: configs.${name} must be an object`, {
      file: resultsFile,
      field: `configs.${name}`
    })
  }
  const fileName = samplesFiles.get(name)
  if (!fileName) {
    throw new InputError(
      'input.lmeval_no_samples',
      `${dir} has no samples_${name}_${dateId}.jsonl for task ${name}: run lm_eval with --log_samples, since the gate pairs per sample`,
      { file: resultsFile, field: `configs.${name}` }
    )
  }
  const nSamples = isRecord(results['n-samples']) ? results['n-samples'] : {}
  const counts = nSamples[name]
  const effective = isRecord(counts) && typeof counts['effective'] === 'number' ? counts['effective'] : null
  const samplesFile = join(dir, fileName)
  const { samples, digest } = await readSamples(samplesFile)
  return {
    name,
    samplesFile,
    version: (results['versions'] as Record<string, unknown>)[name] ?? null,
    nShot: (results['n-shot'] as Record<string, unknown>)[name] ?? null,
    config,
    effectiveSamples: effective,
    samples,
    samplesDigest: digest
  }
}

/** Streams one samples file; each line is one document under one filter. */
export async function readSamples(file: string): Promise<{ samples: LmEvalSample[]; digest: string }> {
  const samples: LmEvalSample[] = []
  const digest = createHash('sha256')
  const stream = createReadStream(file)
  stream.on('data', chunk => digest.update(chunk))
  const lines = createInterface({ input: stream, crlfDelay: Infinity })
  let line = 0
  try {
    for await (const text of lines) {
      line++
      if (text.trim() === '') continue
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch (error) {
        throw new InputError(
          'input.malformed_json',
          `${file} line ${line} is not valid JSON (${(error as Error).message}); the file is cut or damaged`,
          {
            file,
            field: `line ${line}`,
            value: text.slice(0, 80)
          }
        )
      }
      samples.push(readSample(file, line, parsed))
    }
  } catch (error) {
    if (error instanceof InputError) throw error
    throw new InputError('input.unreadable', `Cannot read ${file}: ${(error as Error).message}`, { file })
  } finally {
    stream.destroy()
  }
  return { samples, digest: digest.digest('hex') }
}

function readSample(file: string, line: number, value: unknown): LmEvalSample {
  const bad = (field: string, what: string, got: unknown): InputError =>
    new InputError('input.wrong_type', `${file} line ${line}: ${field} must be ${what}`, {
      file,
      field: `line ${line}: ${field}`,
      value: got ?? null
    })
  if (!isRecord(value)) throw bad('the sample', 'a JSON object', value)
  const docId = value['doc_id']
  if (typeof docId !== 'number' || !Number.isInteger(docId) || docId < 0) throw bad('doc_id', 'a non-negative integer', docId)
  const filter = value['filter']
  if (typeof filter !== 'string' || filter === '') throw bad('filter', 'a filter name', filter)
  const args = value['arguments']
  if (!isRecord(args) || Object.keys(args).length === 0) throw bad('arguments', 'an object of gen_args_<i> requests', args)
  const requests = Object.keys(args)
    .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')))
    .map(k => args[k])
  if (!requests.every(isRecord)) throw bad('arguments', 'an object of gen_args_<i> requests', args)
  const metricNames = value['metrics']
  if (!Array.isArray(metricNames) || !metricNames.every(m => typeof m === 'string'))
    throw bad('metrics', 'a list of metric names', metricNames)

  // generate_until requests carry (context, generation kwargs); loglikelihood ones (context,
  // continuation). Kwargs are a dict; a continuation is a string.
  const contexts: unknown[] = []
  const kwargs: unknown[] = []
  for (const request of requests as Record<string, unknown>[]) {
    if (isRecord(request['arg_1'])) {
      contexts.push(request['arg_0'] ?? null)
      kwargs.push(request['arg_1'])
    } else {
      contexts.push([request['arg_0'] ?? null, request['arg_1'] ?? null])
    }
  }
  const metrics = new Map<string, number | null>()
  for (const name of metricNames as string[]) {
    const v = value[name]
    metrics.set(name, typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'boolean' ? Number(v) : null)
  }
  const resps = value['resps']
  const filtered = value['filtered_resps']
  const choice = kwargs.length === 0 ? choiceAnswer(requests as Record<string, unknown>[], resps, value['target']) : null
  return {
    line,
    docId,
    filter,
    promptHash: sha256(stableJson(contexts)),
    genKwargsHash: kwargs.length > 0 ? sha256(stableJson(kwargs)) : null,
    answerKey: {
      target: stableJson(value['target'] ?? null),
      doc_hash: typeof value['doc_hash'] === 'string' ? value['doc_hash'] : null,
      target_hash: typeof value['target_hash'] === 'string' ? value['target_hash'] : null
    },
    genKwargs: kwargs.length > 0 ? kwargs[0] : null,
    failure: failureOf(resps, kwargs.length > 0),
    metrics,
    inputExcerpt: excerpt(questionOf(contexts[0]), EXCERPT_LENGTH),
    referenceExcerpt: excerpt(
      choice?.reference ?? (typeof value['target'] === 'string' ? value['target'] : stableJson(value['target'])),
      EXCERPT_LENGTH
    ),
    outputExcerpt: excerpt(choice?.output ?? outputOf(resps, filtered), EXCERPT_LENGTH),
    answerChars: kwargs.length > 0 ? generatedLength(resps) : null
  }
}

/** Code points of the first response when it is text (a generate_until answer); null otherwise. */
function generatedLength(resps: unknown): number | null {
  const first = Array.isArray(resps) && Array.isArray(resps[0]) ? resps[0][0] : undefined
  return typeof first === 'string' ? Array.from(first).length : null
}

/**
 * lm-eval's API models write an empty string where the server answered null content or an answer
 * it could not parse (LMEVAL_MODEL_NONE_ANSWER_PLACEHOLDER, "" by default), and a response list
 * can be empty when a request never ran. Either is not the model's answer.
 */
function failureOf(resps: unknown, generates: boolean): string | null {
  if (!Array.isArray(resps) || resps.length === 0) return 'no responses (resps is empty or missing)'
  for (const perRequest of resps) {
    if (!Array.isArray(perRequest) || perRequest.length === 0) return 'a request has no response'
    for (const r of perRequest) {
      if (r === null || r === undefined) return 'a response is null'
      if (generates && r === '') return 'an empty response (lm-eval writes "" when the server answered null content or could not be parsed)'
      // lm-eval logs a log-likelihood answer as [logprob, is_greedy], both as strings ("-0.1", "True").
      if (Array.isArray(r) && (r[0] === null || r[0] === undefined || !Number.isFinite(Number(r[0])))) {
        return 'a log-likelihood response is null or not a number'
      }
    }
  }
  return null
}

/** The question of a prompt: the last message of a chat prompt (lm-eval writes it as JSON), else the end of the text. */
function questionOf(context: unknown): string {
  if (Array.isArray(context)) return questionOf(context[0])
  if (typeof context !== 'string') return stableJson(context)
  if (context.startsWith('[')) {
    try {
      const messages: unknown = JSON.parse(context)
      if (Array.isArray(messages) && messages.length > 0) {
        const last = messages[messages.length - 1]
        if (isRecord(last) && typeof last['content'] === 'string') return last['content']
      }
    } catch {
      // Not a chat prompt after all: shown as text.
    }
  }
  return context.length > EXCERPT_LENGTH ? `…${context.slice(-(EXCERPT_LENGTH - 1))}` : context
}

/**
 * A multiple-choice sample shown as a person reads it: the choice with the highest log-likelihood
 * (what the model "answered") and the target choice, instead of logprob pairs and an index.
 */
function choiceAnswer(requests: Record<string, unknown>[], resps: unknown, target: unknown): { output: string; reference: string } | null {
  const continuations = requests.map(r => r['arg_1'])
  if (!continuations.every(c => typeof c === 'string') || !Array.isArray(resps) || resps.length !== requests.length) return null
  const scores = resps.map(r => (Array.isArray(r) && Array.isArray(r[0]) ? Number(r[0][0]) : NaN))
  if (!scores.every(Number.isFinite)) return null
  const best = scores.indexOf(Math.max(...scores))
  const index = typeof target === 'string' && /^\d+$/.test(target) ? Number(target) : null
  const text = (i: number): string => (continuations[i] as string).trim()
  return {
    output: text(best),
    reference: index !== null && index < continuations.length ? text(index) : typeof target === 'string' ? target : stableJson(target)
  }
}

function outputOf(resps: unknown, filtered: unknown): string {
  const first = Array.isArray(resps) && Array.isArray(resps[0]) ? resps[0][0] : undefined
  const raw = typeof first === 'string' ? first : first === undefined ? '' : stableJson(first)
  const kept = Array.isArray(filtered) ? filtered[0] : filtered
  const shown = typeof kept === 'string' ? kept : kept === undefined ? raw : stableJson(kept)
  return shown === raw ? raw : `${raw} → ${shown}`
}
