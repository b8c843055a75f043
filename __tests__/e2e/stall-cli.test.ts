/**
 * The quality half with a server that stops answering without closing its connections (SIGSTOP):
 * `helm-gate run` (dist/cli.js, the real helm-run) stops the side's helm-run once no request has
 * completed for request_timeout_seconds + 30 s while requests wait, and names the cause with a
 * pointer to the side's log. Before, only the client's own timeouts and retries (three attempts of
 * request_timeout_seconds each, then HELM's fatal error; hours with a long timeout or a prod_env
 * client) or helm.timeout_minutes ended it.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { helmAvailable, REPO_ROOT, type FakeServer } from '../../test-support/fake-openai/harness.js'
import { freshDir, useFakeServers, writeGateFile } from './gate-fixture.js'

const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('a server that stops answering during helm-run', () => {
  const server = useFakeServers(['simple_mcqa'])
  let stopped: FakeServer | null = null
  afterEach(() => {
    stopped?.process.kill('SIGCONT')
    stopped = null
  })

  it('is cut short after request_timeout_seconds + 30 s without a completed request: runner.stalled, pointing at the log', async () => {
    const baseline = await server({ accuracy: 1 })
    // Slow enough that helm-run is mid-way when the candidate is stopped.
    const candidate = await server({ accuracy: 1, latencyMs: 150 })
    const dir = await freshDir('stall')
    // A 25 s request timeout: the stall limit is 55 s; the client's own end (three attempts of
    // 25 s, then HELM's fatal error) would come after about 77 s.
    const gate = await writeGateFile(dir, {
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl, requestTimeoutSeconds: 25 },
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
      maxEvalInstances: 40,
      numThreads: 2
    })
    const outDir = join(dir, 'out')
    const child = spawn(process.execPath, [CLI, 'run', '--config', gate, '--out', outDir], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', chunk => (stderr += chunk))
    const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)))
    // Stop the candidate's server once it has answered a few of helm-run's requests.
    for (;;) {
      const state = await candidate.state()
      if (state.counters.chat >= 4) break
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    candidate.process.kill('SIGSTOP')
    stopped = candidate
    const stoppedAt = Date.now()
    const code = await exited
    const seconds = (Date.now() - stoppedAt) / 1000
    const trace = `exit ${code} after ${seconds} s\n${stderr}`
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
    expect({ code, trace: code === 2 ? '' : trace }).toEqual({ code: 2, trace: '' })
    const stall = report.errors.find(e => e.code === 'runner.stalled')
    expect({ stall: stall?.message.split(': ').slice(0, 2), trace: stall ? '' : trace }).toEqual({
      stall: ['candidate', 'the candidate server stopped answering'],
      trace: ''
    })
    // At least the limit without an answer; how much more is the machine's business.
    const quiet = /no request completed for (\d+) s while \d+ waited, so helm-run was stopped \(the limit is 55 s;/.exec(
      stall?.message ?? ''
    )
    expect({ quiet: quiet !== null && Number(quiet[1]) >= 55, trace: quiet ? '' : trace }).toEqual({ quiet: true, trace: '' })
    expect(stall?.message).toContain('logs/candidate.log')
    // Cut short by the stall limit (the message above names it and the seconds it waited), not by
    // the client's own end (about 77 s after the last answer): asserted by cause, not by a stopwatch.
    expect(await readFile(join(outDir, 'logs', 'candidate.log'), 'utf8')).toContain('the server stopped answering')
    // The baseline is not affected.
    expect(report.errors.filter(e => e.message.startsWith('baseline'))).toEqual([])
  }, 240_000)
})
