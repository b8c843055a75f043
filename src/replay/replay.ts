/**
 * Sends the traffic set to one side's chat API, as the traffic was sent: every message (system
 * prompt, every turn), and the request's own response_format, tools, tool_choice, stop and
 * length settings, with `model` set to the side's and the temperature the gate file asks for
 * (0 unless it says otherwise). Each request and its response are kept as a request state in
 * HELM's shape (scenario_state.json: instance, request, result), so the evidence reads like the
 * HELM half's.
 *
 * Why the product's own client and not HELM: HELM 0.5.16's OpenAI chat client builds its
 * `messages` from one prompt (or a `messages` list without tool messages), never sends `tools`,
 * `tool_choice` or `response_format`, and keeps only the text of a completion (no tool calls), so
 * it cannot replay a tool-calling or JSON-mode request faithfully (docs/traffic.md).
 *
 * No retries, no cache: a request that fails (HTTP error, timeout, unreadable answer) is a failed
 * request, recorded with its error, and the traffic gate's verdict is error (fail closed).
 */
import { Agent, request } from 'undici'
import { routeUrl } from '../server/endpoint.js'
import { redactText } from '../secrets/redact.js'
import type { TrafficInstance, TrafficRequest } from '../config/traffic-set.js'
import type { Answer } from './answer-checks.js'

export interface ReplayTarget {
  /** Includes `/v1`. */
  baseUrl: string
  model: string
  apiKey: string | null
}

export interface ReplayOptions {
  /** null keeps each request's own temperature. */
  temperature: number | null
  concurrency: number
  timeoutMs: number
}

/** One request state, in HELM's shape (scenario_state.json `request_states[]`). */
export interface ReplayState {
  instance: { id: string; stratum: string; tag: string | null }
  train_trial_index: 0
  /** The body sent, exactly (no credentials: the key travels in a header that is not kept). */
  request: Record<string, unknown>
  result: {
    success: boolean
    completions: { text: string; finish_reason: { reason: string | null }; tool_calls: unknown[] | null }[]
    request_time: number
    cached: false
    http_status: number
    error: string | null
    /** The response body as the server sent it (parsed when it is JSON), for audit. */
    response: unknown
  }
}

/** The body sent for one instance: the logged request with the side's model and the gate's temperature. */
export function replayBody(instanceRequest: TrafficRequest, model: string, temperature: number | null): Record<string, unknown> {
  const body: Record<string, unknown> = { ...instanceRequest, model, stream: false }
  // Options of a stream that is no longer requested: servers reject them without `stream: true`.
  delete body.stream_options
  if (temperature !== null) body.temperature = temperature
  return body
}

export async function replaySide(instances: TrafficInstance[], target: ReplayTarget, options: ReplayOptions): Promise<ReplayState[]> {
  const url = routeUrl(target.baseUrl, 'chat/completions')
  const dispatcher = new Agent({ connections: options.concurrency, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs })
  const states: ReplayState[] = new Array<ReplayState>(instances.length)
  let next = 0
  // A fixed number of workers taking the next instance: at most `concurrency` requests in flight.
  const worker = async (): Promise<void> => {
    while (next < instances.length) {
      const index = next
      next += 1
      states[index] = await replayOne(instances[index], url, target, options, dispatcher)
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, instances.length) }, worker))
  } finally {
    await dispatcher.close()
  }
  return states
}

async function replayOne(
  instance: TrafficInstance,
  url: string,
  target: ReplayTarget,
  options: ReplayOptions,
  dispatcher: Agent
): Promise<ReplayState> {
  const body = replayBody(instance.request, target.model, options.temperature)
  const started = performance.now()
  const state = (
    httpStatus: number,
    completions: ReplayState['result']['completions'],
    error: string | null,
    response: unknown = null
  ): ReplayState => ({
    instance: { id: instance.id, stratum: instance.stratum, tag: instance.tag },
    train_trial_index: 0,
    request: body,
    result: {
      success: error === null,
      completions,
      request_time: (performance.now() - started) / 1000,
      cached: false,
      http_status: httpStatus,
      error,
      response
    }
  })
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`
  let status = 0
  try {
    const response = await request(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers,
      dispatcher,
      signal: AbortSignal.timeout(options.timeoutMs)
    })
    status = response.statusCode
    const text = await response.body.text()
    const kept = parsedOrText(text)
    if (status < 200 || status >= 300) return state(status, [], `HTTP ${status}: ${text.slice(0, 300)}`, kept)
    const answer = readAnswer(text)
    if (typeof answer === 'string') return state(status, [], answer, kept)
    return state(
      status,
      [{ text: answer.content ?? '', finish_reason: { reason: answer.finish_reason }, tool_calls: answer.tool_calls }],
      null,
      kept
    )
  } catch (error) {
    const err = error as Error
    const why = err.name === 'TimeoutError' || /timeout/i.test(err.message) ? `timed out after ${options.timeoutMs} ms` : err.message
    return state(status, [], redactText(why))
  }
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** The first choice of a chat completion, or why it cannot be read. */
export function readAnswer(text: string): Answer | string {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return 'the answer is not JSON'
  }
  const choice = (parsed as { choices?: unknown[] } | null)?.choices?.[0] as
    { message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown } | undefined
  if (!choice || typeof choice !== 'object' || !choice.message || typeof choice.message !== 'object') {
    return 'the answer has no choices[0].message'
  }
  const { content, tool_calls } = choice.message
  if (content !== null && content !== undefined && typeof content !== 'string') return 'choices[0].message.content is not a string'
  return {
    content: typeof content === 'string' ? content : null,
    tool_calls: Array.isArray(tool_calls) && tool_calls.length > 0 ? tool_calls : null,
    finish_reason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null
  }
}

/** A recorded state back to the answer it holds (null for a failed request). */
export function answerOf(state: ReplayState): Answer | null {
  const first = state.result.success ? state.result.completions[0] : undefined
  if (!first) return null
  return { content: first.text, tool_calls: first.tool_calls, finish_reason: first.finish_reason.reason }
}
