/**
 * The streaming client against a scripted dispatcher (no sockets, no timing): what each delivery
 * means, when it is stamped, and that the parsing waits until the deliveries of a burst are
 * stamped.
 */
import { afterEach, describe, expect, jest, test } from '@jest/globals'
import type { Dispatcher } from 'undici'
import { pendingDeliveries, streamRequest, type Connection, type StreamResult } from '../../src/load/stream-client.js'

type Handler = Dispatcher.DispatchHandler

/** One request's handler and a controller whose abort reports an error, as undici's does. */
class Scripted {
  aborted = false
  reason: Error | null = null
  constructor(readonly handler: Handler) {}
  get controller(): Dispatcher.DispatchController {
    return this as unknown as Dispatcher.DispatchController
  }
  abort(reason: Error): void {
    this.aborted = true
    this.reason = reason
    this.handler.onResponseError?.(this.controller, reason)
  }
  start(status = 200, headers: Record<string, string> = { 'content-type': 'text/event-stream' }): this {
    this.handler.onRequestStart?.(this.controller, {})
    this.handler.onResponseStart?.(this.controller, status, headers, '')
    return this
  }
  data(text: string): this {
    if (!this.aborted) this.handler.onResponseData?.(this.controller, Buffer.from(text))
    return this
  }
  end(): this {
    if (!this.aborted) this.handler.onResponseEnd?.(this.controller, {})
    return this
  }
  fail(error: Error): this {
    this.handler.onResponseError?.(this.controller, error)
    return this
  }
}

function connection(): { conn: Connection; requests: Scripted[] } {
  const requests: Scripted[] = []
  const pool = {
    dispatch(_options: unknown, handler: Handler) {
      requests.push(new Scripted(handler))
      return true
    }
  }
  return { conn: { pool, origin: 'http://engine', path: '/v1/completions', headers: {} } as unknown as Connection, requests }
}

let clock = 0
function useClock(): void {
  jest.spyOn(performance, 'now').mockImplementation(() => clock)
}

const turn = (): Promise<void> => new Promise(resolve => setImmediate(resolve))
const text = (content: string, id = 'cmpl-1'): string =>
  `data: ${JSON.stringify({ id, object: 'text_completion', choices: [{ index: 0, text: content, finish_reason: null }] })}\n\n`
const chat = (delta: Record<string, unknown>, id = 'chatcmpl-1'): string =>
  `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`
const usage = (completion: number, prompt: number): string =>
  `data: ${JSON.stringify({ id: 'cmpl-1', choices: [], usage: { completion_tokens: completion, prompt_tokens: prompt } })}\n\n`
const DONE = 'data: [DONE]\n\n'

afterEach(() => {
  jest.restoreAllMocks()
  jest.useRealTimers()
})

describe('the streaming client', () => {
  test('a burst of deliveries is stamped as it arrives and parsed after it, each chunk timed by its own delivery', async () => {
    useClock()
    const { conn, requests } = connection()
    clock = 1
    const a = streamRequest(conn, '{}', 60_000)
    const b = streamRequest(conn, '{}', 60_000)
    const [ra, rb] = requests
    ra.start()
    rb.start()
    // One engine step: a chunk for each stream, read one socket after the other.
    clock = 10
    ra.data(text('Hello'))
    clock = 11
    rb.data(text('Hi', 'cmpl-2'))
    // The delivery callbacks only stamped and queued: nothing is parsed yet.
    expect(pendingDeliveries()).toBe(2)
    clock = 50
    await turn()
    expect(pendingDeliveries()).toBe(0)
    clock = 20
    ra.data(text(' world') + usage(2, 7) + DONE)
    rb.data(DONE)
    clock = 30
    ra.end()
    rb.end()
    clock = 99
    const [x, y] = await Promise.all([a, b])
    expect(x).toMatchObject({
      status: 'ok',
      firstContent: 10,
      contentTimes: [10, 20],
      end: 30,
      usageTokens: 2,
      promptTokens: 7,
      id: 'cmpl-1'
    })
    expect(y).toMatchObject({ status: 'ok', firstContent: 11, contentTimes: [11], end: 30, usageTokens: null, id: 'cmpl-2' })
  })

  test('the role-only chunk is not content; an event split over two deliveries is timed by the second', async () => {
    useClock()
    const { conn, requests } = connection()
    const p = streamRequest(conn, '{}', 60_000)
    const r = requests[0].start()
    clock = 5
    r.data(chat({ role: 'assistant', content: '' }))
    const second = chat({ content: 'Hi' })
    clock = 6
    r.data(second.slice(0, 20))
    clock = 7
    r.data(second.slice(20) + chat({ reasoning_content: 'hm' }))
    clock = 8
    r.data(DONE).end()
    const result = await p
    expect(result).toMatchObject({ status: 'ok', firstContent: 7, contentTimes: [7, 7], end: 8, id: 'chatcmpl-1' })
  })

  test.each([
    ['an error event', 'data: {"error":{"message":"engine overloaded"}}\n\n', 'the stream carried an error: engine overloaded'],
    ['an event that is not JSON', 'data: {oops\n\n', 'an event is not JSON: {oops']
  ])('%s fails the request and aborts it', async (_name, event, message) => {
    const { conn, requests } = connection()
    const p = streamRequest(conn, '{}', 60_000)
    const r = requests[0].start().data(text('a') + event + text('b'))
    const result = await p
    expect(result).toMatchObject({ status: 'error', error: message, contentTimes: [expect.any(Number)], end: null })
    expect(r.aborted).toBe(true)
  })

  test('a stream that ends without [DONE] is a failure', async () => {
    const { conn, requests } = connection()
    const p = streamRequest(conn, '{}', 60_000)
    requests[0].start().data(text('a')).end()
    expect(await p).toMatchObject({ status: 'error', error: 'the stream ended without [DONE]', end: null })
  })

  test('a non-2xx answer is a failure carrying its body', async () => {
    const { conn, requests } = connection()
    const p = streamRequest(conn, '{}', 60_000)
    requests[0].start(503, { 'content-type': 'application/json' }).data('{"error":\n  "busy"}').end()
    expect(await p).toMatchObject({ status: 'error', httpStatus: 503, error: 'HTTP 503: {"error": "busy"}', notStreaming: false })
  })

  test('an answer that is not an event stream is a failure of the server, not of load', async () => {
    const { conn, requests } = connection()
    const p = streamRequest(conn, '{}', 60_000)
    const r = requests[0].start(200, { 'content-type': 'application/json' })
    const result: StreamResult = await p
    expect(result).toMatchObject({ status: 'error', notStreaming: true })
    expect(result.error).toMatch(/answered application\/json instead of a text\/event-stream/)
    expect(r.aborted).toBe(true)
  })

  test('a connection error after some data: the data that came before it is parsed first', async () => {
    useClock()
    const { conn, requests } = connection()
    const p = streamRequest(conn, '{}', 60_000)
    clock = 3
    requests[0].start().data(text('a')).fail(new Error('socket hang up'))
    expect(await p).toMatchObject({ status: 'error', error: 'the request failed: socket hang up', contentTimes: [3], firstContent: 3 })
  })

  test('no complete answer within the timeout is a timeout', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'performance'] })
    const { conn, requests } = connection()
    const p = streamRequest(conn, '{}', 5_000)
    const r = requests[0].start().data(text('a'))
    await turn()
    jest.advanceTimersByTime(5_000)
    expect(await p).toMatchObject({ status: 'timeout', error: 'no complete answer within 5 s', contentTimes: [expect.any(Number)] })
    expect(r.aborted).toBe(true)
  })

  test('a complete answer that reached JS before the deadline counts, even if its parsing had not run yet', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'performance'] })
    const { conn, requests } = connection()
    const p = streamRequest(conn, '{}', 5_000)
    requests[0]
      .start()
      .data(text('a') + DONE)
      .end()
    expect(pendingDeliveries()).toBe(2)
    // The timeout fires before the queued deliveries' turn: it parses them first.
    jest.advanceTimersByTime(5_000)
    expect(await p).toMatchObject({ status: 'ok', error: null })
  })
})
