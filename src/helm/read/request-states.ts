/**
 * scenario_state.json → one bounded RequestStateSummary per request state, streamed: the file
 * can be several GB, so only one request state is materialised at a time, without its token
 * lists (docs/helm.md "scenario_state.json").
 *
 * Shapes read: HELM 0.5.16 and the 0.2.x ones (docs/helm.md "Version drift"): `Instance.input` and
 * `Reference.output` as plain strings (before 0.2.0) or `{text}` objects, `Request.model` only,
 * `Sequence` tokens with `top_logprobs`, `request_time: 0`, no `error_flags`.
 */
import { hash } from 'node:crypto'
import { join } from 'node:path'
import { InputError } from '../../errors.js'
import { DECODING_FIELDS, type PerturbationJson, type RequestDecoding, type RequestStateSummary, type RunDirectory } from '../types.js'
import { ElementChecker } from './element-checker.js'
import { describeJsonType, formatJsonPath, streamJson, type JsonPathSegment } from './json-stream.js'

const FILE_NAME = 'scenario_state.json'
export const DEFAULT_EXCERPT_LENGTH = 200

/** Big subtrees no summary needs; they are scanned but never materialised. */
const SKIPPED_SUBTREES: readonly (readonly string[])[] = [
  ['result', 'completions', '*', 'tokens'],
  ['result', 'embedding'],
  ['instance', 'contrast_inputs'],
  ['instance', 'contrast_references'],
  ['annotations']
]

export interface ScenarioStateInfo {
  file: string
  /** The top-level adapter_spec, for drift checks; null when absent. */
  adapterSpec: Record<string, unknown> | null
  requestStates: number
}

export interface ReadRequestStatesOptions {
  /** Maximum characters per excerpt (default 200). */
  excerptLength?: number
  chunkSize?: number
  /** Fed the file's bytes (see streamJson). */
  digest?: { update(data: Uint8Array): unknown }
}

/**
 * At most `max` code points (the last one '…' when cut), cut at a code point boundary so no
 * half surrogate pair ends an excerpt.
 */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text
  // 2 * max + 2 code units always hold more than max code points, so a short head means the
  // whole text fits.
  const head = Array.from(text.slice(0, 2 * max + 2))
  return head.length <= max ? text : `${head.slice(0, Math.max(0, max - 1)).join('')}…`
}

class StateChecker extends ElementChecker {
  constructor(
    file: string,
    private readonly index: number
  ) {
    super(file)
  }

  protected pathOf(field: string): string {
    const segments = field
      .split('.')
      .filter(Boolean)
      .map(segment => (/^\d+$/.test(segment) ? Number(segment) : segment))
    return formatJsonPath(['request_states', this.index, ...segments])
  }

  optionalObject(value: unknown, field: string): Record<string, unknown> | null {
    return value === undefined || value === null ? null : this.object(value, field)
  }

  array(value: unknown, field: string): unknown[] {
    if (!Array.isArray(value)) this.fail(field, 'an array', value)
    return value
  }

  optionalString(value: unknown, field: string): string | null {
    return value === undefined || value === null ? null : this.string(value, field)
  }

  optionalBoolean(value: unknown, field: string): boolean | null {
    if (value === undefined || value === null) return null
    if (typeof value !== 'boolean') this.fail(field, 'a boolean', value)
    return value
  }

  optionalNumber(value: unknown, field: string): number | null {
    if (value === undefined || value === null) return null
    if (typeof value !== 'number') this.fail(field, 'a number', value)
    return value
  }

  /** Input / Output: a plain string before HELM 0.2.0, `{text, ...}` since. */
  text(value: unknown, field: string): string {
    if (typeof value === 'string') return value
    const object = this.object(value, field)
    if (object.text === undefined && Array.isArray(object.messages)) return messagesText(object.messages)
    return object.text === undefined ? '' : this.string(object.text, `${field}.text`)
  }
}

function messagesText(messages: unknown[]): string {
  return messages
    .map(m =>
      typeof m === 'object' && m !== null && typeof (m as { content?: unknown }).content === 'string'
        ? (m as { content: string }).content
        : ''
    )
    .join('\n')
}

/**
 * One-shot: every request state's prompt is hashed, and for texts of this size `hash` is about
 * twice as fast as a Hash object per text (docs/benchmarks.md "Against the previous release").
 */
function sha256(text: string): string {
  return hash('sha256', text, 'hex')
}

/** Builds the summary of one request state (the element at request_states[index]). */
export function summarizeRequestState(
  value: unknown,
  index: number,
  file: string,
  excerptLength = DEFAULT_EXCERPT_LENGTH
): RequestStateSummary {
  const check: StateChecker = new StateChecker(file, index)
  const state = check.object(value, '')
  const instance = check.object(state.instance, 'instance')
  const instanceId = check.string(instance.id, 'instance.id')
  const input = check.text(instance.input, 'instance.input')
  const perturbation = check.optionalObject(instance.perturbation, 'instance.perturbation')
  if (perturbation) check.string(perturbation.name, 'instance.perturbation.name')

  const references = instance.references === undefined ? [] : check.array(instance.references, 'instance.references')
  const correct: string[] = []
  const referenceKeys: string[] = []
  references.forEach((raw, r) => {
    const reference = check.object(raw, `instance.references.${r}`)
    const tags = reference.tags === undefined ? [] : check.array(reference.tags, `instance.references.${r}.tags`)
    const text = check.text(reference.output, `instance.references.${r}.output`)
    if (tags.includes('correct')) correct.push(text)
    referenceKeys.push(sha256(JSON.stringify([text, [...tags].map(String).sort()])).slice(0, 16))
  })

  const request = check.object(state.request, 'request')
  const prompt = check.optionalString(request.prompt, 'request.prompt') ?? ''
  let promptHash: string
  if (prompt === '' && Array.isArray(request.messages)) promptHash = sha256(JSON.stringify(request.messages))
  else if (prompt === '' && request.multimodal_prompt !== undefined) promptHash = sha256(JSON.stringify(request.multimodal_prompt))
  else promptHash = sha256(prompt)

  const result = check.optionalObject(state.result, 'result')
  let output = ''
  let outputChars: number | null = null
  // Whether the request produced an answer at all: a result, at least one completion, and text
  // in every completion (an empty text is an answer; a missing one is not).
  let answered = result !== null && Array.isArray(result.completions) && result.completions.length > 0
  if (result && result.completions !== undefined) {
    const completions = check.array(result.completions, 'result.completions')
    completions.forEach((raw, k) => {
      const completion = check.object(raw, `result.completions.${k}`)
      const text = check.optionalString(completion.text, `result.completions.${k}.text`)
      if (text === null) answered = false
      if (k === 0) output = text ?? ''
      if (k === 0 && text !== null) outputChars = Array.from(text).length
    })
  }
  const mapping = check.optionalObject(state.output_mapping, 'output_mapping')
  if (mapping) {
    // HELM strips the completion before looking it up (" A" -> "A" -> "Even").
    const mapped = mapping[output.trim()]
    if (typeof mapped === 'string') output = mapped
  }

  const decoding: RequestDecoding = {}
  for (const field of DECODING_FIELDS) if (request[field] !== undefined) decoding[field] = request[field]

  const referenceIndex = state.reference_index === undefined ? null : check.natural(state.reference_index, 'reference_index')
  return {
    instanceId,
    trainTrialIndex: check.natural(state.train_trial_index, 'train_trial_index'),
    perturbation: perturbation as PerturbationJson | null,
    referenceIndex,
    cached: result ? check.optionalBoolean(result.cached, 'result.cached') : null,
    success: result ? check.optionalBoolean(result.success, 'result.success') : null,
    error: result ? check.optionalString(result.error, 'result.error') : null,
    promptHash,
    referenceKeys,
    decoding,
    answered,
    inputExcerpt: excerpt(input, excerptLength),
    referenceExcerpt: excerpt(correct.join(' | '), excerptLength),
    outputExcerpt: excerpt(output, excerptLength),
    outputChars,
    requestTime: result ? check.optionalNumber(result.request_time, 'result.request_time') : null
  }
}

function planScenarioState(path: readonly JsonPathSegment[]): 'descend' | 'emit' {
  return path.length === 0 || (path.length === 1 && path[0] === 'request_states') ? 'descend' : 'emit'
}

function wrongTop(file: string, field: string, expected: string, found: string): InputError {
  return new InputError('input.wrong_type', `${field || 'The top level'} of ${file} must be ${expected}, found ${found}`, {
    file,
    field: field || undefined
  })
}

/**
 * Streams scenario_state.json, calling `onRequestState` for each request state in file order
 * (awaited, so a slow consumer applies back-pressure). Returns the adapter spec and the count.
 */
export async function readRequestStates(
  run: RunDirectory | string,
  onRequestState: (summary: RequestStateSummary, index: number) => void | Promise<void>,
  options: ReadRequestStatesOptions = {}
): Promise<ScenarioStateInfo> {
  let file: string
  if (typeof run === 'string') {
    file = run
  } else {
    file = join(run.path, FILE_NAME)
    if (!run.files.scenarioState) throw new InputError('input.missing_file', `${run.path} has no ${FILE_NAME}`, { file })
  }
  const excerptLength = options.excerptLength ?? DEFAULT_EXCERPT_LENGTH
  let adapterSpec: Record<string, unknown> | null = null
  let sawRequestStates = false
  let count = 0
  for await (const event of streamJson(file, {
    plan: planScenarioState,
    skip: SKIPPED_SUBTREES,
    chunkSize: options.chunkSize,
    digest: options.digest
  })) {
    const [top, index] = event.path
    if (event.kind === 'open') {
      if (event.path.length === 0 && event.type !== 'object') throw wrongTop(file, '', 'an object', 'an array')
      if (top === 'request_states') {
        if (event.type !== 'array') throw wrongTop(file, 'request_states', 'an array', 'an object')
        sawRequestStates = true
      }
      continue
    }
    if (event.path.length === 0) throw wrongTop(file, '', 'an object', describeJsonType(event.value))
    if (top === 'request_states' && typeof index === 'number') {
      await onRequestState(summarizeRequestState(event.value, index, file, excerptLength), index)
      count++
    } else if (top === 'request_states') {
      throw wrongTop(file, 'request_states', 'an array', describeJsonType(event.value))
    } else if (top === 'adapter_spec') {
      const value = event.value
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw wrongTop(file, 'adapter_spec', 'an object', describeJsonType(value))
      }
      adapterSpec = value as Record<string, unknown>
    }
  }
  if (!sawRequestStates) {
    throw new InputError('input.missing_field', `${file} has no request_states array`, { file, field: 'request_states' })
  }
  return { file, adapterSpec, requestStates: count }
}

/** All summaries in memory: for runs of ordinary size (a summary is well under 1 KB). */
export async function collectRequestStates(
  run: RunDirectory | string,
  options: ReadRequestStatesOptions = {}
): Promise<ScenarioStateInfo & { summaries: RequestStateSummary[] }> {
  const summaries: RequestStateSummary[] = []
  const info = await readRequestStates(run, summary => void summaries.push(summary), options)
  return { ...info, summaries }
}
