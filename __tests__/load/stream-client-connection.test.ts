/**
 * The streaming client against a real socket server that behaves as llama.cpp's llama-server
 * does with keep-alive: it announces `Keep-Alive: timeout=5, max=100` but drops the connection
 * after a streamed answer. Here the drop is made deterministic: the second request written to a
 * connection is met by a close, with no status line, as when it races the server's FIN.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { closedBeforeAnswer, connect, streamRequest } from '../../src/load/stream-client.js'

const SSE = 'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n'
const chunk = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`
const ANSWER =
  chunk('data: {"id":"c1","choices":[{"text":" hi","index":0}]}\n\n') +
  chunk('data: {"id":"c1","choices":[],"usage":{"completion_tokens":1,"prompt_tokens":3}}\n\n') +
  chunk('data: [DONE]\n\n') +
  '0\r\n\r\n'

describe('a server that closes a kept-alive connection before answering', () => {
  let server: Server
  let baseUrl: string
  let connections = 0
  let dropped = 0
  const sockets = new Set<Socket>()
  beforeAll(async () => {
    server = createServer(socket => {
      connections += 1
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      let answered = 0
      let buffer = ''
      socket.on('data', data => {
        buffer += data.toString('latin1')
        // One whole request (headers and its content-length body) at a time.
        for (;;) {
          const head = buffer.indexOf('\r\n\r\n')
          if (head < 0) return
          const length = Number(/content-length: *(\d+)/i.exec(buffer.slice(0, head))?.[1] ?? 0)
          if (buffer.length < head + 4 + length) return
          buffer = buffer.slice(head + 4 + length)
          if (answered === 1) {
            dropped += 1
            socket.destroy()
            return
          }
          answered += 1
          socket.write(SSE + ANSWER)
        }
      })
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise(resolve => server.close(resolve))
  })

  test('each request lost to the dead connection is sent once more on a new one and counts as answered', async () => {
    const conn = connect({ api: 'completions', baseUrl, model: 'm', apiKey: null }, 1, 5_000)
    try {
      const results = []
      for (let i = 0; i < 6; i++) results.push(await streamRequest(conn, JSON.stringify({ prompt: 'x', stream: true }), 5_000))
      expect(results.map(r => [r.status, r.error])).toEqual(Array.from({ length: 6 }, () => ['ok', null]))
      expect(results.every(r => r.usageTokens === 1)).toBe(true)
      // Requests 2, 3, ... each met a dropped connection first (the first one was fresh).
      expect(dropped).toBeGreaterThanOrEqual(3)
      expect(results.filter(r => r.retriedClosedConnection).length).toBe(dropped)
      expect(connections).toBe(dropped + 1)
    } finally {
      await conn.pool.destroy()
    }
  })

  test('only a close before any answer is retried, and only that socket error', () => {
    const socketError = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
    expect(closedBeforeAnswer(socketError)).toBe(true)
    expect(closedBeforeAnswer(Object.assign(new Error('other side closed'), { code: 'UND_ERR_ABORTED' }))).toBe(false)
    expect(closedBeforeAnswer(Object.assign(new Error('read ECONNRESET'), { code: 'UND_ERR_SOCKET' }))).toBe(false)
    expect(closedBeforeAnswer(new Error('other side closed'))).toBe(false)
  })
})
