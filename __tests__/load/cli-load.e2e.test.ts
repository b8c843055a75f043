/** `helm-gate load` through the bundled CLI: bad input and a server that does not stream. */
import { afterEach, describe, expect, test } from '@jest/globals'
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
})
