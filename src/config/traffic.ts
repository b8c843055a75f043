/**
 * The gate file's `traffic:` section (docs/gate-file.md, docs/traffic.md "Replay and judging"):
 * the frozen traffic set replayed on both sides, the baseline's rerun for the noise floor, and
 * the checks with their tolerated margins. The set is read here, once, so the rest of the code
 * gets its instances and the digest the fingerprint covers, never a path to read again.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import { ConfigError } from '../errors.js'
import type { TrafficInstance } from './traffic-set.js'
import type { Fields } from './validate.js'
import { ANSWER_LENGTH_METRIC, parseAnswerLengthBand, type AnswerLengthBand } from './answer-length-band.js'

export type SimilarityMeasure = 'token_f1' | 'rouge_l'

/** Every check the traffic gate computes; each is gated with a margin or only reported. */
export const TRAFFIC_CHECKS = [
  'disagreement',
  'similarity',
  'invalid_json',
  'invalid_tool_calls',
  'truncation',
  'refusals',
  'exact_match',
  'quasi_exact_match',
  'f1_score',
  'rouge_l'
] as const
export type TrafficCheck = (typeof TRAFFIC_CHECKS)[number]

/** The tolerated margin of a gated check, or null for a check that is shown but never gates. */
export type CheckMargins = Record<TrafficCheck, number | null>

/**
 * Defaults: every rate tolerates 5 points. A structural check applies to a share of the set only
 * (the JSON-mode or tool requests), and with no failure on either side the upper bound of Tango's
 * interval is about 3.7 / n: 5 points need about 75 such requests, 2 points about 190, so a
 * tighter margin asks for a larger set (the report's n_needed says how large). The similarity lost beyond the noise floor is shown with a
 * 5-point reference margin but not gated: its bootstrap interval misses the coverage targets on
 * zero-inflated data (__tests__/stats/coverage.test.ts); set a margin to gate it anyway. Reference
 * metrics are shown only: most traffic has no reference, and a set that has some says so by
 * giving them a margin.
 */
export const DEFAULT_CHECK_MARGINS: CheckMargins = {
  disagreement: 0.05,
  similarity: null,
  invalid_json: 0.05,
  invalid_tool_calls: 0.05,
  truncation: 0.05,
  refusals: 0.05,
  exact_match: null,
  quasi_exact_match: null,
  f1_score: null,
  rouge_l: null
}

/** The margin a report-only row's verdict is shown against (it never gates). */
export const REPORTED_MARGINS: Record<TrafficCheck, number> = {
  disagreement: 0.05,
  similarity: 0.05,
  invalid_json: 0.05,
  invalid_tool_calls: 0.05,
  truncation: 0.05,
  refusals: 0.05,
  exact_match: 0.02,
  quasi_exact_match: 0.02,
  f1_score: 0.02,
  rouge_l: 0.02
}

/**
 * Case-insensitive regular expressions; an answer matching any is counted as a refusal. Kept
 * short and literal so a reviewer can see what is counted; a team replaces them with its own.
 */
export const DEFAULT_REFUSAL_PATTERNS = [
  "\\bI(?:'m| am) (?:sorry|afraid)\\b",
  "\\bI (?:can(?:no|')t|cannot|won't|will not|am unable to|'m unable to) (?:help|assist|comply|provide|do that)",
  '\\bas an AI\\b',
  "\\bI(?:'m| am) not able to (?:help|assist)"
]

export interface TrafficSettings {
  /** The set's path as written in the gate file (relative to the gate file's folder). */
  set: string
  /** The set's bytes, hashed (sha256): the fingerprint covers it. */
  setSha256: string
  instances: TrafficInstance[]
  /** Reruns of the baseline for the noise floor: 1 (B2) or 0 (no noise floor: N is taken as 0). */
  baselineReruns: 0 | 1
  /** The temperature sent (forced to 0 by default); null keeps each request's own. */
  temperature: number | null
  similarity: SimilarityMeasure
  /** Compare answers case-insensitively (after whitespace normalisation, which always applies). */
  ignoreCase: boolean
  checks: CheckMargins
  /** `checks.answer_length_ratio`: the band of the candidate/baseline answer-length ratio; null: reported only. */
  answerLength?: AnswerLengthBand | null
  refusalPatterns: string[]
  concurrency: number
  requestTimeoutSeconds: number
}

/** Reads the set's bytes; the default reads the file, the action reads it at the base commit. */
export type SetReader = (file: string) => Buffer

export function parseTraffic(f: Fields, gateFile: string, readSet?: SetReader): TrafficSettings {
  f.allow([
    'set',
    'baseline_reruns',
    'temperature',
    'similarity',
    'ignore_case',
    'checks',
    'refusal_patterns',
    'concurrency',
    'request_timeout_seconds'
  ])
  const set = f.string('set')
  const baselineReruns = f.integer('baseline_reruns', 1, 0, 1) as 0 | 1
  // Greedy decoding by default, so the noise floor is the serving stack's and not sampling's;
  // `logged` keeps each request's own temperature (then the rerun measures sampling noise too).
  const temperature =
    f.raw('temperature') === 'logged' ? null : f.number('temperature', 0, n => n >= 0 && n <= 2, 'a temperature in [0, 2], or "logged"')
  const similarity = f.choice('similarity', ['token_f1', 'rouge_l'] as const, 'token_f1')
  const ignoreCase = f.boolean('ignore_case', false)
  const checksFields = f.object('checks')
  const checks = { ...DEFAULT_CHECK_MARGINS }
  let answerLength: AnswerLengthBand | null = null
  if (checksFields) {
    checksFields.allow([...TRAFFIC_CHECKS, ANSWER_LENGTH_METRIC])
    answerLength = parseAnswerLengthBand(checksFields)
    for (const name of TRAFFIC_CHECKS) {
      if (!checksFields.has(name)) continue
      if (checksFields.raw(name) === 'report') {
        checks[name] = null
        continue
      }
      checks[name] = checksFields.number(name, undefined, n => n >= 0 && n <= 1, 'a margin in [0, 1] (a rate or a score), or "report"')
    }
    checksFields.done()
  }
  const patternList = f.list('refusal_patterns')
  const refusalPatterns = patternList === null ? [...DEFAULT_REFUSAL_PATTERNS] : patternList.map((p, i) => pattern(f, i, p))
  const concurrency = f.integer('concurrency', 4, 1, 256)
  const requestTimeoutSeconds = f.number('request_timeout_seconds', 120, n => n > 0 && n <= 3600, 'seconds between 0 and 3600')
  f.done()
  const file = path.resolve(path.dirname(path.resolve(gateFile)), set)
  const { instances, sha256 } = readTrafficSet(file, readSet)
  return {
    set,
    setSha256: sha256,
    instances,
    baselineReruns,
    temperature,
    similarity,
    ignoreCase,
    checks,
    answerLength,
    refusalPatterns,
    concurrency,
    requestTimeoutSeconds
  }
}

function pattern(f: Fields, i: number, value: unknown): string {
  const field = `refusal_patterns[${i}]`
  if (typeof value !== 'string' || value.length === 0)
    f.fail(field, `${f.at(field)} must be a non-empty string (a regular expression)`, value)
  try {
    new RegExp(value, 'i')
  } catch (error) {
    f.fail(field, `${f.at(field)} is not a valid regular expression: ${(error as Error).message}`, value)
  }
  return value
}

/** Far beyond a reviewable set (a few thousand requests); a larger file is a mistake. */
export const TRAFFIC_SET_MAX_BYTES = 64 * 1024 * 1024

/**
 * The frozen set (docs/traffic.md "The frozen traffic set"), every line checked: a bad line is an
 * error naming the file, the line and the field, never skipped (a skipped line is an instance the
 * gate silently stops measuring).
 */
export function readTrafficSet(
  file: string,
  readSet: SetReader = readFileSync,
  field = 'traffic.set'
): { instances: TrafficInstance[]; sha256: string } {
  let bytes: Buffer
  try {
    bytes = readSet(file)
  } catch (error) {
    throw new ConfigError('traffic.unreadable', `cannot read the traffic set: ${(error as Error).message}`, { file, field })
  }
  if (bytes.length > TRAFFIC_SET_MAX_BYTES) {
    throw new ConfigError('traffic.too_large', `the traffic set is larger than ${TRAFFIC_SET_MAX_BYTES} bytes`, {
      file,
      value: bytes.length
    })
  }
  const instances: TrafficInstance[] = []
  const ids = new Map<string, number>()
  bytes
    .toString('utf8')
    .split('\n')
    .forEach((text, index) => {
      const line = index + 1
      if (text.trim() === '') return
      const bad = (field: string, message: string, value?: unknown): never => {
        throw new ConfigError('traffic.bad_line', `traffic set line ${line}: ${message}`, { file, field: `line ${line}: ${field}`, value })
      }
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch (error) {
        bad('(line)', `not valid JSON (${(error as Error).message})`)
      }
      if (!isObject(value)) return bad('(line)', 'must be a JSON object')
      const { id, stratum, tag, request, reference, logged_response, arrival_ms } = value
      if (typeof id !== 'string' || id === '') bad('id', 'id must be a non-empty string', id)
      if (ids.has(id as string)) bad('id', `id repeats line ${ids.get(id as string)}`, id)
      ids.set(id as string, line)
      if (typeof stratum !== 'string') bad('stratum', 'stratum must be a string', stratum)
      if (tag !== null && typeof tag !== 'string') bad('tag', 'tag must be a string or null', tag)
      if (reference !== null && typeof reference !== 'string') bad('reference', 'reference must be a string or null', reference)
      if (arrival_ms !== null && !(typeof arrival_ms === 'number' && Number.isFinite(arrival_ms) && arrival_ms >= 0)) {
        bad('arrival_ms', 'arrival_ms must be milliseconds >= 0 or null', arrival_ms)
      }
      if (logged_response !== null && !isObject(logged_response)) bad('logged_response', 'logged_response must be an object or null')
      if (!isObject(request)) return bad('request', 'request must be an object (a chat-completions body)')
      if ('model' in request || 'stream' in request) bad('request', 'request must not set model or stream: the gate sets them per side')
      for (const key of ['max_tokens', 'max_completion_tokens']) {
        const n = request[key]
        if (n !== undefined && n !== null && !(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
          bad(`request.${key}`, `${key} must be a positive integer`, n)
        }
      }
      const messages = request.messages
      if (!Array.isArray(messages) || messages.length === 0) return bad('request.messages', 'request.messages must be a non-empty list')
      messages.forEach((message, i) => {
        const role = isObject(message) ? message.role : undefined
        if (typeof role !== 'string' || !['system', 'developer', 'user', 'assistant', 'tool'].includes(role)) {
          bad(`request.messages[${i}].role`, 'each message needs a role: system, developer, user, assistant or tool', role)
        }
      })
      const schemaProblem = uncompilableSchema(request)
      if (schemaProblem)
        bad(schemaProblem.field, `${schemaProblem.field} is not a JSON schema the checks can use: ${schemaProblem.message}`)
      instances.push(value as unknown as TrafficInstance)
    })
  if (instances.length === 0) throw new ConfigError('traffic.empty', 'the traffic set has no instances', { file })
  return { instances, sha256: createHash('sha256').update(bytes).digest('hex') }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * The schemas the structural checks validate answers against (response_format's json_schema, each
 * tool's parameters) must compile: a check that cannot run would count every answer as valid.
 */
function uncompilableSchema(request: Record<string, unknown>): { field: string; message: string } | null {
  const ajv = new Ajv({ strict: false })
  const schemas: [string, unknown][] = []
  const format = request.response_format as { type?: unknown; json_schema?: { schema?: unknown } } | undefined
  if (format?.type === 'json_schema' && format.json_schema?.schema !== undefined) {
    schemas.push(['request.response_format.json_schema.schema', format.json_schema.schema])
  }
  if (Array.isArray(request.tools)) {
    request.tools.forEach((tool, i) => {
      const parameters = (tool as { function?: { parameters?: unknown } } | null)?.function?.parameters
      if (parameters !== undefined) schemas.push([`request.tools[${i}].function.parameters`, parameters])
    })
  }
  for (const [field, schema] of schemas) {
    try {
      ajv.compile(schema as object)
    } catch (error) {
      return { field, message: (error as Error).message }
    }
  }
  return null
}

/**
 * The ids of instances whose `reference` differs between two versions of a traffic set (the base
 * commit's and a pull request's), in the base's order; lines that do not parse or lack an id are
 * skipped (the set the gate reads is checked in full by readTrafficSet).
 */
export function changedReferences(base: string, head: string): string[] {
  const references = (text: string): Map<string, unknown> => {
    const byId = new Map<string, unknown>()
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue
      try {
        const value = JSON.parse(line) as unknown
        if (isObject(value) && typeof value.id === 'string') byId.set(value.id, value.reference ?? null)
      } catch {
        // not an instance
      }
    }
    return byId
  }
  const head_ = references(head)
  return [...references(base)].filter(([id, reference]) => head_.has(id) && head_.get(id) !== reference).map(([id]) => id)
}
