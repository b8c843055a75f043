/**
 * One streaming request on an undici Pool, timed on the generator's monotonic clock
 * (docs/load.md, "Where the clock starts and stops"):
 * - the clock starts on the connection, right before the request's headers are written (undici's
 *   dispatch hook `onRequestStart`); the pool is sized to the concurrency and its connections are
 *   opened before the measured blocks, so no request pays for a TCP connect;
 * - a content chunk is timed when the socket data carrying it is delivered (all events in one
 *   delivery share that time); the delivery callback only stamps it and queues the bytes, and
 *   the parsing runs once every socket that was ready has been read (`deliver`);
 * - TTFT stops at the first chunk that carries generated content (not the role-only chunk);
 * - latency stops when the stream ends after `[DONE]`; a stream that ends without it, an error
 *   event, a non-2xx status or the timeout make the request a failure.
 * SSE is parsed by eventsource-parser.
 */
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser'
import { Pool, type Dispatcher } from 'undici'
import type { Api } from '../config/types.js'
import type { RequestStatus } from './types.js'

export interface Target {
  api: Api
  /** Includes `/v1`. */
  baseUrl: string
  model: string
  apiKey: string | null
}

export interface StreamResult {
  status: RequestStatus
  /** HTTP status, 0 when no response arrived. */
  httpStatus: number
  start: number
  firstContent: number | null
  /** Times of every content chunk (ms, performance.now()). */
  contentTimes: number[]
  end: number | null
  usageTokens: number | null
  promptTokens: number | null
  id: string | null
  error: string | null
  /** The response was not an event stream (content type), a problem of the server, not of load. */
  notStreaming: boolean
  /** Sent again once because its pooled connection had been closed by the server (closedBeforeAnswer). */
  retriedClosedConnection?: boolean
}

/**
 * A request written to a pooled keep-alive connection that the server had already closed fails
 * with "other side closed" (undici's socket error) before any status line arrives. llama.cpp's
 * llama-server closes the connection after every streamed answer although it announces
 * `Keep-Alive: timeout=5, max=100` and no `Connection: close`; a request sent on that socket
 * before its FIN arrives is lost that way (1 in 10 of back-to-back requests on one connection,
 * none with 20 ms between them). That is the client's reuse of a dead connection, not an answer
 * of the server: such a request is sent once more on a new connection. A server that fails the
 * second time too is an error as before.
 */
export function closedBeforeAnswer(error: Error): boolean {
  const code = (error as { code?: unknown }).code
  return code === 'UND_ERR_SOCKET' && /other side closed/i.test(error.message)
}

export interface Connection {
  pool: Pool
  origin: string
  path: string
  headers: Record<string, string>
}

export function connect(target: Target, connections: number | null, timeoutMs: number): Connection {
  const url = new URL(target.baseUrl)
  const prefix = url.pathname.replace(/\/+$/, '')
  const pool = new Pool(url.origin, {
    connections,
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 600_000,
    keepAliveMaxTimeout: 600_000
  })
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' }
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`
  return { pool, origin: url.origin, path: `${prefix}${target.api === 'chat' ? '/chat/completions' : '/completions'}`, headers }
}

interface Chunk {
  id?: string
  error?: { message?: string } | string
  usage?: { completion_tokens?: number; prompt_tokens?: number } | null
  choices?: Array<{
    text?: string
    delta?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null; tool_calls?: unknown[] }
  }>
}

function carriesContent(chunk: Chunk): boolean {
  const choice = chunk.choices?.[0]
  if (!choice) return false
  if (typeof choice.text === 'string') return choice.text.length > 0
  const delta = choice.delta
  if (!delta) return false
  return !!(delta.content || delta.reasoning_content || delta.reasoning || (delta.tool_calls && delta.tool_calls.length > 0))
}

/**
 * What a stream does with a delivery once its turn comes (see `deliver`): `time` is when the
 * delivery reached JS.
 */
interface Receiver {
  data(time: number, data: Buffer): void
  end(time: number): void
  error(time: number, error: Error): void
}

const END = 0
const ERROR = 1
type Delivery = Buffer | typeof END | { kind: typeof ERROR; error: Error }

/**
 * Deliveries waiting to be parsed, in the order they reached JS: receiver, time, what. The socket
 * callbacks of one poll phase only stamp and queue; the SSE parsing and JSON.parse run after them
 * (setImmediate, the check phase), so when the chunks of many streams arrive at once (an engine
 * step emits one per sequence) each is stamped as soon as its bytes reach JS, not after the
 * parsing of the streams read before it. The stamps stay those of delivery, as before.
 */
const pending: Array<Receiver | number | Delivery> = []
let drainScheduled = false

function deliver(receiver: Receiver, time: number, what: Delivery): void {
  pending.push(receiver, time, what)
  if (!drainScheduled) {
    drainScheduled = true
    setImmediate(drainDeliveries)
  }
}

/** Parses every queued delivery, in order (also run by a request's timeout before it fires). */
function drainDeliveries(): void {
  drainScheduled = false
  // Work done here may queue more (an abort's error): the loop reads the length afresh.
  for (let i = 0; i < pending.length; i += 3) {
    const receiver = pending[i] as Receiver
    const time = pending[i + 1] as number
    const what = pending[i + 2] as Delivery
    try {
      if (what === END) receiver.end(time)
      else if (Buffer.isBuffer(what)) receiver.data(time, what)
      else receiver.error(time, what.error)
    } catch (error) {
      // As when undici catches a throwing callback: that request fails, the others go on.
      receiver.error(time, error instanceof Error ? error : new Error(String(error)))
    }
  }
  pending.length = 0
}

/** Deliveries queued and not yet parsed (for tests: the socket callbacks only stamp and queue). */
export function pendingDeliveries(): number {
  return pending.length / 3
}

export function streamRequest(conn: Connection, body: string | Buffer, timeoutMs: number): Promise<StreamResult> {
  return new Promise<StreamResult>(resolvePromise => new StreamingRequest(conn, body, timeoutMs, resolvePromise).dispatch())
}

function newResult(): StreamResult {
  return {
    status: 'error',
    httpStatus: 0,
    start: performance.now(),
    firstContent: null,
    contentTimes: [],
    end: null,
    usageTokens: null,
    promptTokens: null,
    id: null,
    error: null,
    notStreaming: false
  }
}

/**
 * One request's state from dispatch to its result: the socket callbacks (`handler`) only stamp
 * and queue; the queued deliveries come back as a `Receiver`, whose parsing fills `result`.
 */
class StreamingRequest implements Receiver {
  private readonly result = newResult()
  private settled = false
  /** `[DONE]` arrived. */
  private done = false
  /** The delivery time of the data being parsed. */
  private now = 0
  private controller: Dispatcher.DispatchController | null = null
  /** Collects the body of a non-2xx answer (null otherwise). */
  private errorBody: string | null = null
  private retried = false
  private readonly timer: ReturnType<typeof setTimeout>
  private readonly parser: EventSourceParser
  private readonly decoder = new TextDecoder()

  constructor(
    private readonly conn: Connection,
    private readonly body: string | Buffer,
    timeoutMs: number,
    private readonly resolvePromise: (result: StreamResult) => void
  ) {
    this.timer = setTimeout(() => {
      // Deliveries that reached JS before the deadline count: parse them first.
      drainDeliveries()
      this.finish('timeout', `no complete answer within ${timeoutMs / 1000} s`)
    }, timeoutMs)
    this.parser = createParser({ onEvent: (event: EventSourceMessage) => this.onEvent(event.data) })
  }

  private finish(status: RequestStatus, error: string | null): void {
    if (this.settled) return
    this.settled = true
    clearTimeout(this.timer)
    const result = this.result
    result.status = status
    result.error = error
    result.end = status === 'ok' ? this.now : null
    const controller = this.controller
    if (status !== 'ok' && controller && !controller.aborted) controller.abort(new Error(error ?? 'aborted'))
    this.resolvePromise(result)
  }

  private onEvent(data: string): void {
    if (this.done || this.settled) return
    if (data === '[DONE]') {
      this.done = true
      return
    }
    let chunk: Chunk
    try {
      chunk = JSON.parse(data) as Chunk
    } catch {
      this.finish('error', `an event is not JSON: ${data.slice(0, 80)}`)
      return
    }
    if (chunk.error) {
      const message = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'error')
      this.finish('error', `the stream carried an error: ${message.slice(0, 200)}`)
      return
    }
    this.take(chunk)
  }

  /** A well-formed chunk: its id, content time and token counts. */
  private take(chunk: Chunk): void {
    const result = this.result
    if (result.id === null && typeof chunk.id === 'string') result.id = chunk.id
    if (carriesContent(chunk)) {
      if (result.firstContent === null) result.firstContent = this.now
      result.contentTimes.push(this.now)
    }
    if (chunk.usage && typeof chunk.usage.completion_tokens === 'number') {
      result.usageTokens = chunk.usage.completion_tokens
      if (typeof chunk.usage.prompt_tokens === 'number') result.promptTokens = chunk.usage.prompt_tokens
    }
  }

  data(time: number, data: Buffer): void {
    if (this.settled) return
    this.now = time
    this.parser.feed(this.decoder.decode(data, { stream: true }))
  }

  end(time: number): void {
    if (this.settled) return
    this.now = time
    this.parser.feed(this.decoder.decode())
    if (this.done) this.finish('ok', null)
    else this.finish('error', 'the stream ended without [DONE]')
  }

  error(time: number, error: Error): void {
    this.now = time
    if (!this.settled) this.finish('error', `the request failed: ${error.message}`)
  }

  dispatch(): void {
    const { pool, origin, path, headers } = this.conn
    pool.dispatch({ origin, path, method: 'POST', headers, body: this.body }, this.handler())
  }

  /**
   * undici's dispatch API: onRequestStart runs on the connection right before the request's
   * headers are written, so the clock starts there and not while the request waited in the pool.
   */
  private handler(): Dispatcher.DispatchHandler {
    const result = this.result
    return {
      onRequestStart: (c: Dispatcher.DispatchController) => {
        this.controller = c
        result.start = performance.now()
      },
      onResponseStart: (_c: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>) => {
        this.now = performance.now()
        result.httpStatus = statusCode
        if (statusCode < 200 || statusCode >= 300) {
          this.errorBody = ''
          return
        }
        const type = String(headers['content-type'] ?? '')
        if (!type.startsWith('text/event-stream')) {
          result.notStreaming = true
          this.finish('error', `the server answered ${type || 'without a content type'} instead of a text/event-stream: it does not stream`)
        }
      },
      // The stream's own work per delivery: the time and a place in the queue (see `deliver`).
      // `data` is a view of the socket's read buffer, which Node allocates afresh for every read.
      onResponseData: (_c: Dispatcher.DispatchController, data: Buffer) => {
        if (this.errorBody !== null) {
          if (this.errorBody.length < 1000) this.errorBody += data.toString('utf8')
          return
        }
        deliver(this, performance.now(), data)
      },
      onResponseEnd: () => {
        if (this.errorBody !== null) {
          this.now = performance.now()
          this.finish('error', `HTTP ${result.httpStatus}: ${this.errorBody.replace(/\s+/g, ' ').slice(0, 200)}`)
          return
        }
        deliver(this, performance.now(), END)
      },
      onResponseError: (_c: Dispatcher.DispatchController, error: Error) => {
        if (!this.settled && !this.retried && result.httpStatus === 0 && closedBeforeAnswer(error)) {
          // The pooled connection was closed by the server before any answer: the request
          // never reached a live connection. Once, on another connection (see
          // closedBeforeAnswer); its clock restarts there.
          this.retried = true
          result.retriedClosedConnection = true
          this.dispatch()
          return
        }
        // After the data that reached JS before it, as before the parsing was deferred.
        if (!this.settled) deliver(this, performance.now(), { kind: ERROR, error })
      }
    }
  }
}
