/**
 * A pull request whose gate has a `load:` section and whose verdict the performance half decides,
 * through the bundled action (dist/index.js) as GitHub runs it. The quality half passes (the fake
 * helm-run); the load half measures two real processes: the fake continuous-batching engine as the
 * baseline and, as the candidate, either the same engine decoding at a quarter of the speed (a
 * fail) or a server that stops answering once the load half begins (an error). Every first line a
 * reviewer reads must name the performance half and its figure, and say the same thing: the check
 * run's title, the job summary's first line, the comment's heading, the outputs and the job log's
 * last line.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import type { ActionRun } from '../../test-support/action-harness/harness.js'
import { expectOutcome, useGateScenario } from '../../test-support/action-harness/scenario.js'

const harness = useGateScenario()
const engines: FakeEngine[] = []
const servers: Server[] = []
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stop()
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise(resolve => server.close(resolve))
  }
})

const LOAD = [
  'load:',
  '  workload: { prompts: synthetic, input_tokens: { mean: 16 }, output_tokens: { mean: 16 } }',
  '  concurrency: [2]',
  '  requests_per_level: 16',
  '  warmup_requests: 2',
  '  repetitions: 3',
  '  checks:',
  '    - { metric: output_tokens_per_second, min_ratio: 0.9 }',
  '    - { metric: error_rate, max: 0 }'
].join('\n')

function side(name: string, baseUrl: string): string {
  return [
    `  ${name}:`,
    '    api: chat',
    `    base_url: ${baseUrl}`,
    '    model: ci-model',
    '    tokenizer: simple/tokenizer1',
    '    max_sequence_length: 2048'
  ].join('\n')
}

/** The scenario's gate file with two served deployments instead of prod_env ones, and `load:`. */
function gateFile(baseline: string, candidate: string): string {
  return harness
    .scenario()
    .gateFile({ extra: LOAD })
    .replace(
      /^deployments:\n(?: {2}\w+: \{prod_env.*\n)+/m,
      `deployments:\n${side('baseline', baseline)}\n${side('candidate', candidate)}\n`
    )
}

async function engine(decodeSpeedup = 1): Promise<FakeEngine> {
  const started = await startEngine({ model: 'ci-model', decodeSpeedup })
  engines.push(started)
  return started
}

/**
 * A deployment that answers the quality half's readiness probe (GET /v1/models) and then stops
 * answering: the first request of the load half makes it close every connection and its port.
 */
async function stopsAnswering(): Promise<string> {
  const server = createServer((request, response) => {
    if (request.method === 'GET') {
      response.writeHead(request.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'ci-model', object: 'model', owned_by: 'test' }] }))
      return
    }
    request.socket.destroy()
    server.close()
    server.closeAllConnections()
  })
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

/** What GitHub shows, markdown's escapes and autolink breakers taken out. */
const plain = (markdown: string): string => markdown.replace(/\\(.)/g, '$1').replace(/\u200D/g, '')

async function gate(
  baseline: string,
  candidate: string,
  runId: number
): Promise<{ run: ActionRun; fake: Awaited<ReturnType<typeof harness.startFake>> }> {
  const fake = await harness.startFake()
  const text = gateFile(baseline, candidate)
  const run = await harness.scenario().gatePullRequest({ fake, runId, base: text })
  return { run, fake }
}

function expectEveryFirstLine(
  run: ActionRun,
  fake: Awaited<ReturnType<typeof harness.startFake>>,
  verdict: 'fail' | 'error',
  pattern: RegExp
): void {
  const decision = run.outputs.decision
  expect(decision).toMatch(pattern)
  expect(run.outputs['decided-by']).toBe('performance')
  // The check run's title: the one line beside the red cross.
  expect(fake.checkRuns).toHaveLength(1)
  expect(fake.checkRuns[0].body.output.title).toBe(decision)
  // The job summary's first line and the comment's heading (after its hidden marker).
  const emoji = verdict === 'fail' ? '❌' : '⛔'
  expect(plain(run.summary.split('\n')[0])).toBe(`## ${emoji} ${decision} · helm-gate`)
  expect(fake.comments).toHaveLength(1)
  const comment = fake.comments[0].body.split('\n')
  expect(comment[0]).toMatch(/^<!-- helm-gate:sticky-comment/)
  expect(plain(comment[1])).toBe(`## ${emoji} ${decision} · helm-gate`)
  // The quality half's count alone ("2/2 gated passed") never stands for the verdict.
  expect(fake.comments[0].body).not.toMatch(/gated passed/)
  // The job log's last line: the failure, naming the same half and figure.
  const log = run.stdout.trimEnd().split('\n')
  expect(log[log.length - 1]).toBe(`::error::helm-gate verdict: ${verdict}: ${decision.replace(/^\w+: /, '')}`)
}

describe('a gate decided by the performance half, through the bundled action', () => {
  it('a candidate that decodes at a quarter of the speed: Fail, naming the throughput ratio and its threshold', async () => {
    const baseline = await engine()
    const candidate = await engine(0.25)
    const { run, fake } = await gate(baseline.baseUrl, candidate.baseUrl, 801)
    expectOutcome(run, 1, 'fail')
    expectEveryFirstLine(
      run,
      fake,
      'fail',
      /^Fail: performance \(output_tokens_per_second 0\.\d{3}× at c=2, needs ≥ 0\.9×\); quality 1\/1 passed$/
    )
    // The Performance section's heading carries the verdict and the count; no sentence repeats it.
    const body = fake.comments[0].body
    expect(body).toContain('### ❌ Performance: Fail (1 of 2 checks failed)')
    expect(body).not.toMatch(/Performance: fail:/i)
  }, 150_000)

  it('a candidate that stops answering before the load half: Error, naming the performance half and why', async () => {
    const baseline = await engine()
    const candidate = await stopsAnswering()
    const { run, fake } = await gate(baseline.baseUrl, candidate, 802)
    expectOutcome(run, 1, 'error')
    expectEveryFirstLine(run, fake, 'error', /^Error: performance \(candidate: .+ is not reachable.*\); quality 1\/1 passed$/)
    expect(fake.comments[0].body).toContain('### ⛔ Performance: Error')
  }, 150_000)
})
