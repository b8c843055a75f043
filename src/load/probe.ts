/**
 * One short streaming request per side before any load: is the server there, does it stream,
 * does it send `usage`, and does it accept `ignore_eos`/`min_tokens` (vLLM's way to generate
 * exactly `max_tokens`)? A server that rejects them (HTTP 4xx) is asked again without them, and
 * the report says that its output lengths are the model's own.
 */
import { connect, streamRequest, type StreamResult, type Target } from './stream-client.js'
import { requestBody } from './workload.js'

/** What the load half learned from one short streaming request (named apart from the readiness probe's ProbeResult). */
export interface StreamProbe {
  reachable: boolean
  streaming: boolean
  ignoreEos: boolean
  usage: boolean
  /** Why the side cannot be load-tested, or null. */
  problem: string | null
}

const PROBE_TOKENS = 4

export async function probeSide(target: Target, timeoutMs: number): Promise<StreamProbe> {
  const conn = connect(target, 1, timeoutMs)
  try {
    const item = { kind: 'text' as const, text: 'Say something.', maxTokens: PROBE_TOKENS }
    let result: StreamResult = await streamRequest(conn, requestBody(item, target.api, target.model, true), timeoutMs)
    let ignoreEos = true
    if (result.httpStatus >= 400 && result.httpStatus < 500) {
      ignoreEos = false
      result = await streamRequest(conn, requestBody(item, target.api, target.model, false), timeoutMs)
    }
    if (result.httpStatus === 0) {
      return {
        reachable: false,
        streaming: false,
        ignoreEos: false,
        usage: false,
        problem: `${target.baseUrl} is not reachable: ${result.error}`
      }
    }
    if (result.notStreaming) {
      return {
        reachable: true,
        streaming: false,
        ignoreEos,
        usage: false,
        problem: `${target.baseUrl} does not stream: asked for stream: true it ${result.error?.replace(/^the server /, '')}; the load half measures time to first token and needs server-sent events`
      }
    }
    if (result.status !== 'ok') {
      return {
        reachable: true,
        streaming: true,
        ignoreEos,
        usage: false,
        problem: `the probe request to ${target.baseUrl} failed: ${result.error}`
      }
    }
    if (result.firstContent === null) {
      return {
        reachable: true,
        streaming: true,
        ignoreEos,
        usage: result.usageTokens !== null,
        problem: `the probe request to ${target.baseUrl} streamed no content`
      }
    }
    return { reachable: true, streaming: true, ignoreEos, usage: result.usageTokens !== null, problem: null }
  } finally {
    await conn.pool.close().catch(() => {})
  }
}
