/**
 * The one pipeline, called directly: runGate runs the quality half (the fake helm-run against two
 * served deployments) and then the load half against the same two fake engines (real processes on
 * loopback), and returns one report with both halves, as `helm-gate run` and the action's modes
 * get it. Without `load` it runs the quality half alone and the engines see no load request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { runGate } from '../../src/pipeline/run-gate.js'
import { helmRunFixtures } from '../../test-support/action-harness/fixtures.js'
import { installFakeHelmRun } from '../../test-support/action-harness/harness.js'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'

let root = ''
let helmRun = ''
let fixtures = ''
const engines: FakeEngine[] = []

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'helm-gate-run-gate-'))
  helmRun = await installFakeHelmRun(path.join(root, 'bin'))
  fixtures = await helmRunFixtures()
}, 120_000)
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stop()
})

async function engine(): Promise<FakeEngine> {
  const started = await startEngine({ model: 'ci-model' })
  engines.push(started)
  return started
}

function gateText(baseline: string, candidate: string): string {
  const side = (name: string, baseUrl: string): string =>
    `  ${name}: { api: chat, base_url: ${baseUrl}, model: ci-model, tokenizer: simple/tokenizer1, max_sequence_length: 2048 }`
  return [
    'version: 1',
    'helm:',
    '  version: "0.5.16"',
    '  max_eval_instances: 79',
    `  command: ${JSON.stringify(helmRun)}`,
    'deployments:',
    side('baseline', baseline),
    side('candidate', candidate),
    'runs:',
    '  - { entry: simple_mcqa, metric: exact_match, split: test, max_drop: 0.05 }',
    'statistics: {resamples: 2000}',
    'load:',
    '  workload: { prompts: synthetic, input_tokens: { mean: 16 }, output_tokens: { mean: 8 } }',
    '  concurrency: [2]',
    '  requests_per_level: 8',
    '  warmup_requests: 1',
    '  repetitions: 3',
    '  checks:',
    '    - { metric: error_rate, max: 0 }',
    ''
  ].join('\n')
}

async function gate(withLoad: boolean): Promise<{ outDir: string; result: Awaited<ReturnType<typeof runGate>>; requests: number[] }> {
  const baseline = await engine()
  const candidate = await engine()
  const config = parseGateConfig(gateText(baseline.baseUrl, candidate.baseUrl), path.join(root, 'gate.yml'))
  const outDir = await mkdtemp(path.join(root, 'out-'))
  const lines: string[] = []
  const result = await runGate({
    config,
    outDir,
    mode: 'cli run',
    load: withLoad ? {} : null,
    env: { ...process.env, FAKE_HELM_FIXTURES: fixtures },
    cwd: root,
    progress: line => lines.push(line)
  })
  const requests = [(await baseline.records()).length, (await candidate.records()).length]
  return { outDir, result, requests }
}

describe('runGate runs both halves', () => {
  test('with a load section: the quality half, then the load half against the same servers, one joined report', async () => {
    const { outDir, result, requests } = await gate(true)
    const { report } = result
    // The quality half as it stood before the join, and the load half beside it.
    expect(report.quality?.verdict).toBe('pass')
    expect(report.load?.verdict).toBe('pass')
    expect(report.verdict).toBe('pass')
    expect(report.headline).toMatch(/^Both halves pass\. Quality: /)
    expect(report.comparisons.length).toBe(1)
    // Identity and manifest come from the quality half, as before the join.
    expect(result.manifest.complete).toBe(true)
    // Both engines were load-tested, and the timings are in the output folder.
    expect(requests[0]).toBeGreaterThan(0)
    expect(requests[1]).toBeGreaterThan(0)
    expect(report.load?.timings_file).toBe('load-timings.jsonl')
    expect((await readFile(path.join(outDir, 'load-timings.jsonl'), 'utf8')).trim().split('\n').length).toBeGreaterThan(0)
  }, 150_000)

  test('without: the quality half alone, and no load request reaches the servers', async () => {
    const { outDir, result, requests } = await gate(false)
    expect(result.report.load ?? null).toBeNull()
    expect(result.report.quality ?? null).toBeNull()
    expect(result.report.verdict).toBe('pass')
    expect(requests).toEqual([0, 0])
    await expect(readFile(path.join(outDir, 'load-timings.jsonl'), 'utf8')).rejects.toThrow()
  }, 150_000)
})
