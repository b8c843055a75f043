/**
 * A side that stops answering during the load half (dist/cli.js against two fake engines, real
 * processes): it is declared down at once, the load half stops with `load.side_down` naming the
 * side, the block and how long it took, and the other side is not loaded further. Before, a hung
 * engine (SIGSTOP: its connections stay open, nothing answers) cost the per-request timeout for
 * every request of every block left, and the baseline's remaining blocks still ran.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { CLI, gateText } from './load-helpers.js'

const engines: FakeEngine[] = []
let dir = ''
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    engine.process.kill('SIGCONT')
    await engine.stop()
  }
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** 20 blocks of 40 requests at concurrency 1, a 3 s request timeout: ~4000 s if each request waited it. */
const LOAD = `workload: { prompts: synthetic, input_tokens: { mean: 8, stddev: 0 }, output_tokens: { mean: 8, stddev: 0 } }
concurrency: [1]
requests_per_level: 400
repetitions: 10
warmup_requests: 0
timeout_seconds: 3
checks:
  - { metric: error_rate, max: 0 }`

interface Outcome {
  code: number | null
  stderr: string
  report: { verdict: string; load: { errors: { code: string; message: string }[]; timings_file: string | null } }
  timings: { side: string; block: number; status: string }[]
}

/** Runs `helm-gate load`; once the baseline's first block is done, `fail` happens to the candidate. */
async function loadWithFailure(fail: (candidate: FakeEngine) => void): Promise<Outcome> {
  const baseline = await startEngine()
  const candidate = await startEngine()
  engines.push(baseline, candidate)
  dir = await mkdtemp(join(tmpdir(), 'helm-gate-side-down-'))
  const gate = join(dir, 'gate.yml')
  await writeFile(gate, gateText(baseline.baseUrl, candidate.baseUrl, LOAD))
  const out = join(dir, 'out')
  const child = spawn(process.execPath, [CLI, 'load', '--config', gate, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  let failed = false
  const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)))
  child.stderr.on('data', chunk => {
    stderr += chunk
    if (!failed && /block 1\/\d+ at concurrency 1 \(baseline\)|block 1\/\d+ \(baseline\)/.test(stderr)) {
      failed = true
      fail(candidate)
    }
  })
  const code = await exited
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Outcome['report']
  const timings = report.load.timings_file
    ? (await readFile(join(out, report.load.timings_file), 'utf8'))
        .trim()
        .split('\n')
        .map(line => JSON.parse(line) as Outcome['timings'][number])
    : []
  return { code, stderr, report, timings }
}

describe('a side that stops answering in the load half', () => {
  test('a hung candidate (SIGSTOP) is declared down after one request timeout; the baseline is not loaded further', async () => {
    const result = await loadWithFailure(candidate => candidate.process.kill('SIGSTOP'))
    expect({ code: result.code, verdict: result.report.verdict }).toEqual({ code: 2, verdict: 'error' })
    expect(result.report.load.errors.map(e => e.code)).toEqual(['load.side_down'])
    const message = result.report.load.errors[0].message
    // Which side, at which block, after how long.
    // The signal may come before or just after the candidate's block opened its connection.
    expect(message).toMatch(
      /^candidate is down in block 2\/20 at concurrency 1( \(opening its connections\))?: 1 request\(s\) in a row got no answer \(it timed out after 3 s\)/
    )
    // Declared down once the request's timeout (3 s) was over, never before: a busy machine only
    // makes it later. One timeout, not one per request: the one request above, and no later block.
    const after = /declared down after (\d+\.\d) s of it, \d+\.\d s into the load half/.exec(message)
    expect(after).not.toBeNull()
    expect(Number(after![1])).toBeGreaterThanOrEqual(3)
    expect(message).toContain('the baseline was not loaded further')
    // The baseline's block 1, perhaps a little of the candidate's block 2, and nothing after them.
    expect(result.timings.filter(t => !(t.side === 'baseline' && t.block === 0) && !(t.side === 'candidate' && t.block === 1))).toEqual([])
    expect(result.stderr).not.toMatch(/block [3-9]\/20/)
  }, 60_000)

  test('a candidate that dies (connections refused) is declared down at once', async () => {
    const result = await loadWithFailure(candidate => candidate.process.kill('SIGKILL'))
    expect(result.code).toBe(2)
    expect(result.report.load.errors.map(e => e.code)).toEqual(['load.side_down'])
    expect(result.report.load.errors[0].message).toMatch(
      /^candidate is down in block 2\/20 at concurrency 1( \(opening its connections\))?: /
    )
    // Refused connections, not timeouts: no request of the candidate waited for its timeout.
    expect(result.timings.filter(t => t.side === 'candidate' && t.status === 'timeout')).toEqual([])
    expect(result.timings.filter(t => t.side === 'baseline' && t.block > 0)).toEqual([])
  }, 60_000)
})
