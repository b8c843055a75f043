/**
 * The bundled action (dist/index.js) in mode gate with a gate file that has `load:`: the real
 * helm-run runs the quality half against two fake OpenAI servers, then the load half load-tests
 * the same servers, whose streaming requests a continuous-batching fake engine answers. The
 * candidate answers as well as the baseline but decodes at half the speed: quality passes, the
 * throughput claim fails, and the gate's verdict is the worse of the two. `.serial.`: the load
 * half's ratio is a timing.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { extractZip, listZipEntries } from '../../test-support/fake-github/zip-reader.js'
import { helmAvailable } from '../../test-support/fake-openai/harness.js'
import { FakeGitHub } from '../../test-support/fake-github/server.js'
import { gatePullRequest, gateYaml, HEAD_SHA, useFakeServers } from './gate-fixture.js'

const ENTRIES = ['simple_mcqa', 'dyck_language:num_parenthesis_pairs=3']
const describeHelm = helmAvailable() ? describe : describe.skip

const LOAD = `load:
  workload: { prompts: synthetic, input_tokens: { mean: 20 }, output_tokens: { mean: 16 } }
  concurrency: [4]
  requests_per_level: 64
  warmup_requests: 4
  repetitions: 4
  checks:
    - { metric: output_tokens_per_second, min_ratio: 0.9 }
    - { metric: error_rate, max: 0 }
`

describeHelm('the bundled action with the load half', () => {
  const server = useFakeServers(ENTRIES)
  let fake: FakeGitHub | undefined
  afterAll(async () => {
    await fake?.stop()
  })

  it('quality passes, a candidate that decodes at half speed fails the load half: the gate fails on performance', async () => {
    const baseline = await server({ accuracy: 1, seed: 4 })
    const candidate = await server({ accuracy: 1, seed: 4, streamEngine: { decodeSpeedup: 0.5 } })
    fake = await new FakeGitHub().start()
    const text = `${gateYaml({
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      // 30 instances that agree: the interval of the drop is well inside 0.2 (a pass).
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.2 }],
      maxEvalInstances: 30
    })}${LOAD}`
    const result = await gatePullRequest(fake, text, { runId: 901, timeoutMs: 200_000 })
    const trace = `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`
    if (result.outputs.verdict !== 'fail') throw new Error(`expected verdict fail\n${trace}`)
    expect(result.code).toBe(1)
    expect(fake.violations).toEqual([])
    // The load half ran after the quality half, with a progress line per block (4 a side).
    expect(result.stdout).toMatch(/the load half starts/)
    expect(result.stdout.split('\n').filter(line => /load: concurrency 4, block \d\/8 \((baseline|candidate)\)/.test(line))).toHaveLength(8)

    const report = JSON.parse(await readFile(result.outputs['report-path'], 'utf8'))
    // Quality: the same answers on both sides, a pass.
    expect(report.comparisons).toHaveLength(1)
    expect(report.comparisons[0].verdict).toBe('pass')
    expect(report.comparisons[0].losses).toBe(0)
    // Performance: the candidate's throughput ratio is about 0.5, the claim (>= 0.9) fails.
    expect(report.load.verdict).toBe('fail')
    const claim = report.load.checks.find((c: { metric: string }) => c.metric === 'output_tokens_per_second')
    expect(claim.verdict).toBe('fail')
    expect(claim.ratio.high).toBeLessThan(0.9)
    expect(claim.ratio.low).toBeGreaterThan(0.3)
    expect(report.load.checks.find((c: { metric: string }) => c.metric === 'error_rate').verdict).toBe('pass')
    expect(report.load.timings_file).toBe('load-timings.jsonl')
    // The worse of the halves, and the headline names the half that decided it.
    expect(report.verdict).toBe('fail')
    expect(report.headline).toMatch(/^Decided by the performance half\. Performance: fail: output_tokens_per_second at concurrency 4/)

    // The comment: the quality verdict, then the Performance section with the check rows and chart.
    expect(fake.comments).toHaveLength(1)
    const body = fake.comments[0].body
    expect(body).toMatch(/### .* Performance: /)
    expect(body).toMatch(
      /\| `output_tokens_per_second` ≥ 0\.9× \| c=4 \| [\d.,]+ tok\/s \| [\d.,]+ tok\/s \| 0\.\d+× \[0\.\d+, 0\.\d+\] \| ❌ fail \|/
    )
    expect(body).toContain('TTFT p99 (ms) against output tokens/s')
    expect(body).toContain('Per-request timings: load-timings.jsonl in the artifact.')
    expect(fake.checkRuns[0].body).toMatchObject({ head_sha: HEAD_SHA, status: 'completed', conclusion: 'failure' })
    // The title beside the red cross names the performance half and its figure, not the quality count.
    const title = fake.checkRuns[0].body.output.title as string
    expect(title).toMatch(/^Fail: performance \(output_tokens_per_second 0\.\d{3}× at c=4, needs ≥ 0\.9×\); quality 1\/1 passed$/)
    expect(result.outputs).toMatchObject({ decision: title, 'decided-by': 'performance' })

    // The evidence artifact holds every measured request's timings, both sides.
    const [evidence] = fake.uploadedBy(901)
    const zip = evidence.bytes as Buffer
    const names = listZipEntries(zip).map(entry => entry.name)
    expect(names).toEqual(expect.arrayContaining(['report.json', 'load-timings.jsonl']))
    const unpacked = await mkdtemp(path.join(tmpdir(), 'helm-gate-e2e-load-artifact-'))
    await extractZip(zip, unpacked)
    const timings = (await readFile(path.join(unpacked, 'load-timings.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map(line => JSON.parse(line) as { side: string; status: string; output_tokens: number })
    expect(timings).toHaveLength(128)
    expect(timings.filter(t => t.side === 'baseline')).toHaveLength(64)
    for (const t of timings) {
      expect(t.status).toBe('ok')
      expect(t.output_tokens).toBe(16)
    }
    const archived = JSON.parse(await readFile(path.join(unpacked, 'report.json'), 'utf8'))
    expect(archived.load.verdict).toBe('fail')
  }, 300_000)
})
