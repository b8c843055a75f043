/**
 * Reading one line of a request log into a record (docs/traffic.md, "Building a set"). The
 * shapes accepted, told apart by their keys:
 *
 * - a chat-completions request body: `{"messages": [...], ...}`;
 * - a Batch API input line: `{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}`;
 * - a Batch API output line: `{"custom_id", "response": {"status_code", "body"}, "error"}`, joined
 *   to the input line with the same custom_id;
 * - a logged pair: `{"request": {...}, "response": {...} | null, "timestamp", "tag", "reference", "id"}`.
 *
 * A line that is none of these, or whose fields have the wrong type, is an error naming the file,
 * the line and the field: a set silently missing part of the log would misstate the traffic.
 */
import { InputError } from '../errors.js'
import type { TrafficInstance, TrafficMessage } from '../config/traffic-set.js'

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool'])
const CHAT_URLS = new Set(['/v1/chat/completions', '/chat/completions'])
/** Set per side by the gate, never taken from the log. */
const SET_PER_SIDE = ['model', 'stream', 'stream_options']

export type LoggedResponse = NonNullable<TrafficInstance['logged_response']>

/** A request found in the log, before scrubbing and sampling. */
export interface LogRequest {
  kind: 'request'
  file: string
  line: number
  /** `custom_id` (Batch) or `id` (logged pair), when present. */
  id: string | null
  tag: string | null
  request: Record<string, unknown> & { messages: TrafficMessage[] }
  reference: string | null
  response: LoggedResponse | null
  /** Unix milliseconds, when the line had a timestamp. */
  timestamp: number | null
}

/** A Batch API output line, to be joined to its input line by custom_id. */
export interface LogResponse {
  kind: 'response'
  file: string
  line: number
  customId: string
  /** null when the batch request failed (non-200 or an error object). */
  response: LoggedResponse | null
}

/** A Batch API line for another endpoint (embeddings, completions, responses). */
export interface LogSkip {
  kind: 'not-chat'
  file: string
  line: number
  url: string
}

export type LogRecord = LogRequest | LogResponse | LogSkip

export interface LineOptions {
  /** The key of the tag: on the line's top level, or in the request's `metadata`. */
  tagField: string
}

type Obj = Record<string, unknown>

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

class Line {
  constructor(
    readonly file: string,
    readonly line: number
  ) {}

  fail(field: string | null, message: string, value?: unknown): never {
    throw new InputError('traffic.bad_line', `line ${this.line}: ${message}`, {
      file: this.file,
      field: field === null ? `line ${this.line}` : `line ${this.line}: ${field}`,
      ...(value === undefined ? {} : { value })
    })
  }
}

export function parseLogLine(text: string, file: string, line: number, options: LineOptions): LogRecord {
  const at: Line = new Line(file, line)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    at.fail(null, `not JSON (${(error as Error).message})`)
  }
  if (!isObject(value)) at.fail(null, 'must be a JSON object (a request body, a Batch API line or a {request, response} pair)')
  if ('custom_id' in value && 'body' in value) return batchInput(value, at, options)
  // Before the Batch output: a logged pair may carry a custom_id beside its request.
  if ('request' in value) return loggedPair(value, at, options)
  if ('custom_id' in value && 'response' in value) return batchOutput(value, at)
  if ('messages' in value) return chatBody(value, at, options)
  return at.fail(
    null,
    'is not a chat request: expected "messages" (a chat-completions body), "custom_id" with "body" (Batch API input), "custom_id" with "response" (Batch API output) or "request" (a logged pair)',
    Object.keys(value).slice(0, 8)
  )
}

function chatBody(value: Obj, at: Line, options: LineOptions): LogRequest {
  // Keys that are not part of the OpenAI body but that teams log beside it on the same line.
  const { reference, timestamp, [options.tagField]: tag, ...body } = value
  return {
    kind: 'request',
    file: at.file,
    line: at.line,
    id: null,
    tag: tagOf(tag, options.tagField, at) ?? metadataTag(body, '', options, at),
    request: request(body, '', at),
    reference: referenceOf(reference, 'reference', at),
    response: null,
    timestamp: timestampOf(timestamp, 'timestamp', at)
  }
}

function batchInput(value: Obj, at: Line, options: LineOptions): LogRecord {
  const id = idOf(value.custom_id, 'custom_id', at) as string
  if (typeof value.url !== 'string') at.fail('url', 'a Batch API line needs url (e.g. "/v1/chat/completions")', value.url)
  if (!CHAT_URLS.has(value.url)) return { kind: 'not-chat', file: at.file, line: at.line, url: value.url }
  if (value.method !== undefined && value.method !== 'POST') at.fail('method', 'a Batch API line must be a POST', value.method)
  if (!isObject(value.body)) at.fail('body', 'must be the chat-completions request body (an object)')
  return {
    kind: 'request',
    file: at.file,
    line: at.line,
    id,
    tag: tagOf(value[options.tagField], options.tagField, at) ?? metadataTag(value.body, 'body.', options, at),
    request: request(value.body, 'body.', at),
    reference: referenceOf(value.reference, 'reference', at),
    response: null,
    timestamp: timestampOf(value.timestamp, 'timestamp', at)
  }
}

function batchOutput(value: Obj, at: Line): LogResponse {
  const customId = idOf(value.custom_id, 'custom_id', at) as string
  const failed = value.error !== null && value.error !== undefined
  let response: LoggedResponse | null = null
  if (!failed) {
    if (!isObject(value.response)) at.fail('response', 'must be an object with status_code and body')
    const status = value.response.status_code
    if (status === 200) response = completion(value.response.body, 'response.body', at)
  }
  return { kind: 'response', file: at.file, line: at.line, customId, response }
}

function loggedPair(value: Obj, at: Line, options: LineOptions): LogRequest {
  if (!isObject(value.request)) at.fail('request', 'must be the chat-completions request body (an object)')
  return {
    kind: 'request',
    file: at.file,
    line: at.line,
    id: value.id !== undefined && value.id !== null ? idOf(value.id, 'id', at) : idOf(value.custom_id, 'custom_id', at),
    tag: tagOf(value[options.tagField], options.tagField, at) ?? metadataTag(value.request, 'request.', options, at),
    request: request(value.request, 'request.', at),
    reference: referenceOf(value.reference, 'reference', at),
    response: pairResponse(value.response, at),
    timestamp: timestampOf(value.timestamp, 'timestamp', at)
  }
}

/** The pair's answer: a chat completion, or one wrapped as in Batch output (`status_code`, `body`). */
function pairResponse(value: unknown, at: Line): LoggedResponse | null {
  if (value === null || value === undefined) return null
  if (isObject(value) && 'status_code' in value && 'body' in value) {
    return value.status_code === 200 ? completion(value.body, 'response.body', at) : null
  }
  return completion(value, 'response', at)
}

function request(body: Obj, prefix: string, at: Line): LogRequest['request'] {
  const messages = body.messages
  if (!Array.isArray(messages) || messages.length === 0) at.fail(`${prefix}messages`, 'must be a non-empty list of chat messages', messages)
  messages.forEach((m, i) => message(m, `${prefix}messages[${i}]`, at))
  for (const key of ['max_tokens', 'max_completion_tokens']) {
    const n = body[key]
    if (n !== undefined && n !== null && !(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
      at.fail(`${prefix}${key}`, `${key} must be a positive integer`, n)
    }
  }
  const out: Obj = {}
  for (const [key, item] of Object.entries(body)) if (!SET_PER_SIDE.includes(key)) out[key] = item
  return out as LogRequest['request']
}

function message(value: unknown, field: string, at: Line): void {
  if (!isObject(value)) at.fail(field, 'must be a message object with role and content', value)
  if (typeof value.role !== 'string' || !ROLES.has(value.role)) {
    at.fail(`${field}.role`, `role must be one of ${[...ROLES].join(', ')}`, value.role)
  }
  const content = value.content
  const hasCalls = Array.isArray(value.tool_calls) && value.tool_calls.length > 0
  if (typeof content === 'string') return
  if (Array.isArray(content)) {
    content.forEach((part, i) => {
      if (!isObject(part) || typeof part.type !== 'string') at.fail(`${field}.content[${i}]`, 'a content part needs a type', part)
    })
    return
  }
  if ((content === null || content === undefined) && value.role === 'assistant' && hasCalls) return
  at.fail(`${field}.content`, 'content must be a string or a list of parts (null only for an assistant turn with tool_calls)', content)
}

function completion(value: unknown, field: string, at: Line): LoggedResponse {
  if (!isObject(value) || !Array.isArray(value.choices) || value.choices.length === 0 || !isObject(value.choices[0])) {
    at.fail(`${field}.choices`, 'a logged response must be a chat completion with at least one choice')
  }
  const choice = value.choices[0] as Obj
  if (!isObject(choice.message)) at.fail(`${field}.choices[0].message`, 'must be the answer message (an object)')
  const content = choice.message.content
  if (content !== null && content !== undefined && typeof content !== 'string') {
    at.fail(`${field}.choices[0].message.content`, 'must be a string or null', content)
  }
  const out: LoggedResponse = { content: typeof content === 'string' ? content : null }
  if (Array.isArray(choice.message.tool_calls) && choice.message.tool_calls.length > 0) out.tool_calls = choice.message.tool_calls
  if (typeof choice.finish_reason === 'string') out.finish_reason = choice.finish_reason
  return out
}

function idOf(value: unknown, field: string, at: Line): string | null {
  if (value === undefined || value === null) return null
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string' || value === '') at.fail(field, `${field} must be a non-empty string`, value)
  return value
}

function tagOf(value: unknown, field: string, at: Line): string | null {
  if (value === undefined || value === null) return null
  // A slash would make the stratum `<tag>/<bucket>` ambiguous; control characters would reach the
  // terminal in the printed summary; the tag names a stratum, not a document.
  if (typeof value !== 'string' || value.trim() === '' || value.includes('/') || /\p{Cc}/u.test(value) || value.length > 100) {
    at.fail(field, 'the tag must be a non-empty string of at most 100 characters, without "/" or control characters', value)
  }
  return value.trim()
}

function metadataTag(body: Obj, prefix: string, options: LineOptions, at: Line): string | null {
  const metadata = body.metadata
  if (!isObject(metadata)) return null
  return tagOf(metadata[options.tagField], `${prefix}metadata.${options.tagField}`, at)
}

function referenceOf(value: unknown, field: string, at: Line): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') at.fail(field, 'the reference answer must be a string', value)
  return value
}

/**
 * ISO 8601 text, or a number of Unix seconds (fractions allowed, as OpenAI's `created`); a number
 * above 10^11 is taken as milliseconds (10^11 seconds is the year 5138).
 */
function timestampOf(value: unknown, field: string, at: Line): number | null {
  if (value === undefined || value === null) return null
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value > 1e11 ? value : value * 1000
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const ms = Date.parse(value)
    if (Number.isFinite(ms)) return ms
  }
  return at.fail(field, 'the timestamp must be ISO 8601 text or Unix seconds', value)
}
