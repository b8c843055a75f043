/** `helm-gate load` through the bundled CLI: bad input, a server that does not stream, a cancelled load test. */
import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { run } from '../support/spawn.js'
import { CLI, gateText } from './load-helpers.js'

let engine: FakeEngine | null = null
let dir = ''
afterEach(async () => {
  await engine?.stop()
  engine = null
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('helm-gate load', () => {
  test('a gate file without load: is a one-line error', async () => {
    dir = await mkdtemp(join(tmpdir(), 'helm-gate-load-cli-'))
    const gate = join(dir, 'gate.yml')
    await writeFile(gate, 'version: 1\nruns:\n  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }\n')
    const finished = await run(process.execPath, [CLI, 'load', '--config', gate, '--out', join(dir, 'out')])
    expect(finished.code).toBe(2)
    expect(finished.stderr.trim().split('\n').pop()).toBe(
      `helm-gate: error: the gate file has no load: section (the performance half) (file: ${gate}, field: load) [config.missing]`
    )
  })

  test('run --only takes quality or load', async () => {
    const finished = await run(process.execPath, [CLI, 'run', '--config', 'x.yml', '--only', 'speed'])
    expect(finished.code).toBe(2)
    expect(finished.stderr).toContain('--only must be quality or load')
  })

  test('a candidate that does not stream: exit 2, a clear error in the report, no timings', async () => {
    engine = await startEngine({ noStream: true })
    const live = await startEngine()
    try {
      dir = await mkdtemp(join(tmpdir(), 'helm-gate-load-cli-'))
      const gate = join(dir, 'gate.yml')
      await writeFile(
        gate,
        gateText(live.baseUrl, engine.baseUrl, 'concurrency: [2]\nrequests_per_level: 6\nchecks:\n  - { metric: error_rate, max: 0 }')
      )
      const out = join(dir, 'out')
      const finished = await run(process.execPath, [CLI, 'load', '--config', gate, '--out', out])
      expect(finished.code).toBe(2)
      expect(finished.stdout).toMatch(/load\.not_streaming: candidate: .* does not stream/)
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))
      expect(report.verdict).toBe('error')
      expect(report.load.errors[0].code).toBe('load.not_streaming')
      expect(report.load.timings_file).toBeNull()
      await expect(readFile(join(out, 'load-timings.jsonl'), 'utf8')).rejects.toThrow()
    } finally {
      await live.stop()
    }
  })

  test('SIGTERM mid-test: exit 143 and a cancelled report, not a half-measured verdict', async () => {
    engine = await startEngine()
    dir = await mkdtemp(join(tmpdir(), 'helm-gate-load-cli-'))
    const gate = join(dir, 'gate.yml')
    // Many blocks: the test is cut after the first one.
    await writeFile(
      gate,
      gateText(
        engine.baseUrl,
        engine.baseUrl,
        'concurrency: [2]\nrequests_per_level: 800\nwarmup_requests: 0\nrepetitions: 100\nchecks:\n  - { metric: error_rate, max: 0 }'
      )
    )
    const out = join(dir, 'out')
    const child = spawn(process.execPath, [CLI, 'load', '--config', gate, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)))
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no block finished\n${stderr}`)), 60_000)
      child.once('close', code => reject(new Error(`helm-gate load exited (${code}) before a block finished\n${stderr}`)))
      child.stderr.on('data', chunk => {
        stderr += chunk
        if (/block 1\/\d+ \(baseline\)/.test(stderr)) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
    child.kill('SIGTERM')
    expect(await exited).toBe(143)
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))
    expect(report.verdict).toBe('error')
    expect(report.errors.map((e: { code: string }) => e.code)).toEqual(['run.cancelled'])
    expect(await readFile(join(out, 'report.md'), 'utf8')).toContain('Cancelled: helm-gate received SIGTERM')
  }, 90_000)
})
