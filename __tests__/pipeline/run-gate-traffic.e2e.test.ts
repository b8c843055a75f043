/**
 * The traffic gate inside the one pipeline: runGate runs the HELM half (the fake helm-run against
 * two served deployments), replays the traffic set on both fake servers (always up, so after the
 * HELM half), and the traffic rows join the HELM rows in one report whose verdict includes them.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { runGate } from '../../src/pipeline/run-gate.js'
import type { ChangedExample } from '../../src/model/report.js'
import { helmRunFixtures } from '../../test-support/action-harness/fixtures.js'
import { installFakeHelmRun } from '../../test-support/action-harness/harness.js'
import { REPO_ROOT, SERVER_SCRIPT, startFakeServer, type FakeServer } from '../../test-support/fake-openai/harness.js'
import { freePort } from '../../test-support/launch/fixture-repo.js'

let root = ''
let helmRun = ''
let fixtures = ''
let baseline: FakeServer
let candidate: FakeServer
const SET = path.join(REPO_ROOT, '__tests__', 'fixtures', 'traffic', 'support-120.jsonl')

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'helm-gate-run-gate-traffic-'))
  helmRun = await installFakeHelmRun(path.join(root, 'bin'))
  fixtures = await helmRunFixtures()
  baseline = await startFakeServer({ answerKeys: [], models: ['ci-model'], traffic: {} })
  candidate = await startFakeServer({ answerKeys: [], models: ['ci-model'], traffic: {} })
}, 120_000)
afterAll(async () => {
  await Promise.all([baseline?.stop(), candidate?.stop()])
  await rm(root, { recursive: true, force: true })
})

function gateText(extra: string[] = []): string {
  const side = (name: string, baseUrl: string): string =>
    `  ${name}: { api: chat, base_url: ${baseUrl}, model: ci-model, tokenizer: simple/tokenizer1, max_sequence_length: 2048 }`
  return [
    'version: 1',
    'helm:',
    '  version: "0.5.16"',
    '  max_eval_instances: 79',
    `  command: ${JSON.stringify(helmRun)}`,
    'deployments:',
    side('baseline', baseline.baseUrl),
    side('candidate', candidate.baseUrl),
    'runs:',
    '  - { entry: simple_mcqa, metric: exact_match, split: test, max_drop: 0.05 }',
    'statistics: {resamples: 2000}',
    'traffic:',
    `  set: ${JSON.stringify(SET)}`,
    // 120 requests: 24 offer tools, too few for the default 5-point margin; this test is about the pipeline.
    '  checks: { invalid_tool_calls: report, invalid_json: report }',
    ...extra,
    ''
  ].join('\n')
}

async function gate(
  extra: string[] = []
): Promise<{ outDir: string; result: Awaited<ReturnType<typeof runGate>>; changed: Map<string, ChangedExample[]> }> {
  const config = parseGateConfig(gateText(extra), path.join(root, 'gate.yml'))
  const outDir = await mkdtemp(path.join(root, 'out-'))
  const changed = new Map<string, ChangedExample[]>()
  const result = await runGate({
    config,
    outDir,
    mode: 'cli run',
    env: { ...process.env, FAKE_HELM_FIXTURES: fixtures },
    cwd: root,
    changedAnswers: changed,
    progress: () => {}
  })
  return { outDir, result, changed }
}

describe('runGate with a traffic section', () => {
  test('an equivalent candidate: the HELM row and the traffic rows pass together, the evidence is kept', async () => {
    await candidate.control({ trafficDiffer: 0 })
    const { outDir, result } = await gate()
    const { report } = result
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(report.comparisons.map(c => c.metric)).toEqual(expect.arrayContaining(['exact_match', 'disagreement', 'truncation']))
    expect(report.comparisons.find(c => c.metric === 'disagreement')).toMatchObject({ gated: true, verdict: 'pass', n: 120 })
    for (const name of ['baseline-1', 'baseline-2', 'candidate']) {
      const states = JSON.parse(await readFile(path.join(outDir, 'traffic', name, 'scenario_state.json'), 'utf8')) as {
        request_states: unknown[]
      }
      expect(states.request_states).toHaveLength(120)
    }
  }, 150_000)

  test('a candidate that answers differently fails the gate though the HELM row passes; report.html gets the changed answers', async () => {
    await candidate.control({ trafficDiffer: 0.3 })
    const { result, changed } = await gate()
    const { report } = result
    expect(report.comparisons.find(c => c.metric === 'exact_match')?.verdict).toBe('pass')
    expect(report.comparisons.find(c => c.metric === 'disagreement')?.verdict).toBe('fail')
    expect(report.verdict).toBe('fail')
    expect(report.headline).toMatch(/regressed beyond the tolerated drop in 1 of/)
    const id = report.comparisons.find(c => c.metric === 'disagreement')?.id ?? ''
    expect(changed.get(id)?.length).toBeGreaterThan(20)
    await candidate.control({ trafficDiffer: 0 })
  }, 150_000)

  test('fidelity scores the traffic set: a candidate whose next-token distributions moved fails its check, the report says which prompts', async () => {
    // Both servers answer log-probability requests from known distributions (fidelity mode); the
    // candidate's are shifted. The traffic replay itself is unchanged (it asks for no log-probabilities).
    await baseline.control({ fidelity: 1, fidelityShift: 0 })
    await candidate.control({ fidelity: 1, fidelityShift: 1.5, trafficDiffer: 0 })
    try {
      const { result } = await gate([
        'fidelity:',
        '  instances: 40',
        '  max_answer_tokens: 8',
        '  top_k: 8',
        '  checks: [{ metric: kld_mean, max: 0.001 }]'
      ])
      const { report } = result
      expect(report.errors).toEqual([])
      expect(report.comparisons.find(c => c.metric === 'disagreement')?.verdict).toBe('pass')
      expect(report.fidelity?.instances).toBe(40)
      expect(report.fidelity?.notes[0]).toBe(`Prompts: the traffic set (${SET}), the first 40.`)
      expect(report.fidelity?.checks.map(c => `${c.metric} ${c.verdict}`)).toEqual(['kld_mean fail'])
      expect(report.verdict).toBe('fail')
      // Fidelity is its own part: the quality half keeps its own verdict, and the part says where the flips fall.
      expect(report.quality?.verdict).toBe('pass')
      const part = report.parts?.find(p => p.key === 'fidelity')
      expect(part?.verdict).toBe('fail')
      // Chat servers: the greedy-prefix route, whose positions are not scored on both sides, so no split is made up.
      expect(report.fidelity?.route).toBe('greedy-prefix')
      expect(report.fidelity?.direction).toBeUndefined()
      expect(part?.lines.some(l => l.startsWith('Flips: not split'))).toBe(true)
    } finally {
      await Promise.all([baseline.control({ fidelity: 0 }), candidate.control({ fidelity: 0, fidelityShift: 0 })])
    }
  }, 150_000)
})

describe('runGate with a traffic section and launched servers', () => {
  test('sequential schedule on one port: each side is replayed while it is up, before it is stopped', async () => {
    // Both sides on one port, one after the other: only a replay inside each side's hold can tell them apart.
    const port = await freePort()
    await writeFile(path.join(root, 'baseline.json'), JSON.stringify({ trafficDiffer: 0 }))
    await writeFile(path.join(root, 'candidate.json'), JSON.stringify({ trafficDiffer: 0.3 }))
    const side = (name: string): string =>
      `  ${name}: { api: chat, base_url: "http://127.0.0.1:${port}/v1", model: ci-model, tokenizer: simple/tokenizer1, max_sequence_length: 2048, ` +
      `launch: { command: ${JSON.stringify([process.execPath, SERVER_SCRIPT, '--port', String(port), '--model', 'ci-model', '--traffic', '1', '--config', path.join(root, `${name}.json`)])}, ready_timeout_seconds: 60 } }`
    const text = [
      'version: 1',
      'helm:',
      '  version: "0.5.16"',
      '  max_eval_instances: 79',
      `  command: ${JSON.stringify(helmRun)}`,
      'deployments:',
      side('baseline'),
      side('candidate'),
      'schedule: sequential',
      'runs:',
      '  - { entry: simple_mcqa, metric: exact_match, split: test, max_drop: 0.05 }',
      'statistics: {resamples: 2000}',
      'traffic:',
      `  set: ${JSON.stringify(SET)}`,
      ''
    ].join('\n')
    const config = parseGateConfig(text, path.join(root, 'launched.yml'))
    const outDir = await mkdtemp(path.join(root, 'out-'))
    const lines: string[] = []
    const result = await runGate({
      config,
      outDir,
      mode: 'cli run',
      env: { ...process.env, FAKE_HELM_FIXTURES: fixtures },
      cwd: root,
      progress: line => lines.push(line)
    })
    expect(result.report.errors).toEqual([])
    const disagreement = result.report.comparisons.find(c => c.metric === 'disagreement')
    expect(disagreement?.verdict).toBe('fail')
    // The noise floor came from the baseline's own server (B2 = B1), the change from the candidate's.
    expect(disagreement?.baseline_mean).toBe(0)
    expect(disagreement?.candidate_mean).toBeGreaterThan(0.2)
    const order = lines.filter(line => /traffic: replaying/.test(line))
    expect(order).toHaveLength(3)
  }, 150_000)
})
