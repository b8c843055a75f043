import { describe, expect, it } from '@jest/globals'
import { createServer } from 'node:net'
import { ServerNotReadyError } from '../../src/errors.js'
import { probeServer } from '../../src/server/readiness.js'

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

describe('probeServer on a server that is down', () => {
  it('reports progress every interval, not every attempt, and says how to change the timeout', async () => {
    const port = await closedPort()
    const lines: string[] = []
    const started = Date.now()
    const error = await probeServer({
      side: 'candidate',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'm',
      apiKey: null,
      timeoutMs: 2_600,
      initialDelayMs: 50,
      maxDelayMs: 100,
      progressEveryMs: 1_000,
      log: line => lines.push(line)
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServerNotReadyError)
    // It waits the whole timeout (the last attempt at the deadline), not until the next back-off overshoots.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_600)
    const message = (error as ServerNotReadyError).message
    const attempts = Number(/(\d+) attempts/.exec(message)?.[1])
    // Far more attempts than progress lines (one try every 50 to 100 ms, one line a second); the
    // count of attempts itself depends on how busy the machine is, so it is compared, not fixed.
    expect(attempts).toBeGreaterThan(lines.length)
    // About one line per elapsed second, however many attempts were made.
    expect(lines.length).toBeGreaterThanOrEqual(1)
    expect(lines.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 1000))
    expect(lines[0]).toMatch(
      new RegExp(
        `^candidate server at http://127\\.0\\.0\\.1:${port}/v1/models not ready after 1 s \\(.*ECONNREFUSED.*\\); waiting up to 3 s$`
      )
    )
    expect(message).toMatch(/the readiness timeout is 3 s \(run --ready-timeout SEC\)$/)
  })
})
