/**
 * The fake engine's record is the truth the load bench and the serial e2e tests measure against:
 * what it records must be what happened on the wire.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import type { AddressInfo, Socket } from 'node:net'
// @ts-expect-error: a plain ESM module of the test support, without types
import { createEngineServer } from '../../test-support/fake-engine/server.mjs'

interface Seq {
  sink: { token(i: number, time: number): void }
}

let close: (() => Promise<void>) | null = null
afterEach(async () => {
  await close?.()
  close = null
})

describe('the fake engine', () => {
  test("each token's chunk is handed to the kernel when it is recorded, not with the rest of its step", async () => {
    const { server, engine } = createEngineServer({
      model: 'engine-model',
      engine: { prefillBaseMs: 0, prefillPerTokenMs: 0, decodeBaseMs: 1 }
    })
    const sockets: Socket[] = []
    server.on('connection', (socket: Socket) => sockets.push(socket))
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    close = () =>
      new Promise<void>(resolve => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    // Right after each token's write, is its socket still corked (its bytes held in the process)?
    const corked: number[] = []
    const submit = engine.submit.bind(engine)
    engine.submit = (seq: Seq) => {
      const token = seq.sink.token
      seq.sink.token = (i, time) => {
        token(i, time)
        corked.push(sockets.reduce((n, s) => n + s.writableCorked, 0))
      }
      submit(seq)
    }
    const { port } = server.address() as AddressInfo
    const requests = [1, 2].map(() =>
      fetch(`http://127.0.0.1:${port}/v1/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'engine-model', prompt: 'a b c', max_tokens: 3, stream: true })
      }).then(r => r.text())
    )
    const bodies = await Promise.all(requests)
    for (const body of bodies) expect(body.trim().endsWith('data: [DONE]')).toBe(true)
    expect(corked).toHaveLength(6)
    expect(corked).toEqual([0, 0, 0, 0, 0, 0])
  })
})
