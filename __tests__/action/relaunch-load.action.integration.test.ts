/**
 * A gate that launches its servers and has a load half, where the quality half does not leave both
 * servers up to measure: a pull request that reuses an archived baseline (the quality half runs,
 * and launches, only the candidate), and a sharded gate's compare job (the shards' servers went
 * with their jobs). Load figures need both deployments live in one period of one job, so the
 * action launches both servers for the load half alone, measures them interleaved and stops them.
 * The quality half uses the fake helm-run; the launched servers are the fake continuous-batching
 * engine.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { runAction } from '../../test-support/action-harness/harness.js'
import { BASE_SHA, expectOutcome, GATE_PATH, useGateScenario } from '../../test-support/action-harness/scenario.js'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { freePort } from '../../test-support/launch/fixture-repo.js'
import { listening } from '../support/listening.js'

const harness = useGateScenario()
const ENGINE = join(REPO_ROOT, 'test-support', 'fake-engine', 'server.mjs')

function server(side: string, port: number): string {
  const command = JSON.stringify([process.execPath, ENGINE, '--port', String(port), '--model', 'ci-model'])
  return [
    `  ${side}:`,
    '    api: chat',
    `    base_url: http://127.0.0.1:${port}/v1`,
    '    model: ci-model',
    '    tokenizer: simple/tokenizer1',
    '    max_sequence_length: 2048',
    `    launch: { command: ${command}, ready_timeout_seconds: 30 }`
  ].join('\n')
}

const LOAD = [
  // Both servers up at once, so that the load half can alternate A B B A between them.
  'schedule: concurrent',
  'load:',
  '  workload: { prompts: synthetic, input_tokens: { mean: 16 }, output_tokens: { mean: 8 } }',
  '  concurrency: [2]',
  '  requests_per_level: 12',
  '  warmup_requests: 2',
  '  repetitions: 3',
  '  checks:',
  '    - { metric: error_rate, max: 0 }'
].join('\n')

/** The scenario's gate file with two launched fake engines instead of prod_env deployments. */
async function launchedGate(entries?: string[]): Promise<{ text: string; ports: number[] }> {
  const ports = [await freePort(), await freePort()]
  const text = harness
    .scenario()
    .gateFile({ extra: LOAD, entries })
    .replace(
      /^deployments:\n(?: {2}\w+: \{prod_env.*\n)+/m,
      `deployments:\n${server('baseline', ports[0])}\n${server('candidate', ports[1])}\n`
    )
  expect(text).toContain('launch:')
  return { text, ports }
}

async function expectMeasuredAndStopped(reportPath: string, ports: number[]): Promise<void> {
  const report = JSON.parse(await readFile(reportPath, 'utf8')) as Report
  expect(report.load?.verdict).toBe('pass')
  expect(report.load?.interleaved).not.toBe(false)
  expect(report.load?.blocks.map(block => block.side).slice(0, 4)).toEqual(['baseline', 'candidate', 'candidate', 'baseline'])
  // Both servers are stopped when the action ends.
  for (const port of ports) expect([port, await listening(port)]).toEqual([port, false])
}

describe('the load half of a launched gate whose quality half left no servers up', () => {
  it('an archived baseline: both servers are launched again for the load half and measured interleaved', async () => {
    const fake = await harness.startFake()
    const { text, ports } = await launchedGate()
    await harness.scenario().archiveBaseline(fake, 500, text)

    const run = await harness.scenario().gatePullRequest({ fake, runId: 600, base: text })
    expectOutcome(run, 0, 'pass')
    expect(run.outputs['baseline-source']).toBe('archived')
    expect(run.stdout).not.toMatch(/fake helm-run: side baseline/)
    expect(run.stdout).toMatch(/launching both for the load half/)
    await expectMeasuredAndStopped(run.outputs['report-path'], ports)
  }, 120_000)

  it("a sharded gate's compare job with input load: run launches both servers for the load half", async () => {
    const fake = await harness.startFake()
    const { fixtures, workspaceWith, prPayload } = harness.scenario()
    const { text, ports } = await launchedGate(['simple_mcqa', 'simple_classification'])
    fake.seedFile(BASE_SHA, GATE_PATH, text)
    const job = async (inputs: Record<string, string>) =>
      runAction({
        fake,
        inputs: { config: GATE_PATH, ...inputs },
        eventName: 'pull_request',
        payload: prPayload(fake),
        workspace: await workspaceWith(text),
        runId: 700,
        env: { FAKE_HELM_FIXTURES: fixtures }
      })
    const shards = [await job({ mode: 'run', 'shard-index': '0', 'shard-count': '2', baseline: 'run' })]
    shards.push(await job({ mode: 'run', 'shard-index': '1', 'shard-count': '2', baseline: 'run' }))
    expect(shards.map(s => s.code)).toEqual([0, 0])

    const compare = await job({ mode: 'compare', load: 'run' })
    expectOutcome(compare, 0, 'pass')
    expect(compare.stdout).toMatch(/launching both for the load half/)
    await expectMeasuredAndStopped(compare.outputs['report-path'], ports)
  }, 180_000)
})
