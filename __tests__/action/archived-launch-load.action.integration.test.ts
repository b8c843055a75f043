/**
 * A gate that launches its servers and has a load half, on a pull request that reuses an archived
 * baseline: the quality half runs (and launches) only the candidate, yet load figures need both
 * deployments live in one period of one job. The action launches both servers again for the load
 * half alone, measures them interleaved and stops them. The quality half uses the fake helm-run;
 * the launched servers are the fake continuous-batching engine.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { expectOutcome, useGateScenario } from '../../test-support/action-harness/scenario.js'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { freePort } from '../../test-support/launch/fixture-repo.js'

const harness = useGateScenario()
const ENGINE = join(REPO_ROOT, 'test-support', 'fake-engine', 'server.mjs')

function listening(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

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

describe('an archived baseline with launched servers and a load half', () => {
  it('launches both servers again for the load half and measures them interleaved', async () => {
    const fake = await harness.startFake()
    const [basePort, candPort] = [await freePort(), await freePort()]
    const load = [
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
    const gate = harness
      .scenario()
      .gateFile({ extra: load })
      .replace(
        /^deployments:\n(?: {2}\w+: \{prod_env.*\n)+/m,
        `deployments:\n${server('baseline', basePort)}\n${server('candidate', candPort)}\n`
      )
    expect(gate).toContain('launch:')
    await harness.scenario().archiveBaseline(fake, 500, gate)

    const run = await harness.scenario().gatePullRequest({ fake, runId: 600, base: gate })
    expectOutcome(run, 0, 'pass')
    expect(run.outputs['baseline-source']).toBe('archived')
    expect(run.stdout).not.toMatch(/fake helm-run: side baseline/)
    expect(run.stdout).toMatch(/both servers are launched again for the load half/)

    const report = JSON.parse(await readFile(run.outputs['report-path'], 'utf8')) as Report
    expect(report.load?.verdict).toBe('pass')
    expect(report.load?.interleaved).not.toBe(false)
    expect(report.load?.blocks.map(block => block.side).slice(0, 4)).toEqual(['baseline', 'candidate', 'candidate', 'baseline'])
    const sides = new Set(report.load?.blocks.map(block => block.side))
    expect([...sides].sort()).toEqual(['baseline', 'candidate'])
    // Both servers are stopped when the action ends.
    expect(await listening(basePort)).toBe(false)
    expect(await listening(candPort)).toBe(false)
  }, 120_000)
})
