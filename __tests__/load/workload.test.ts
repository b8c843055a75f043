import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { requestBody, syntheticSource, trafficSource } from '../../src/load/workload.js'

const config = parseGateConfig(
  `version: 1
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
load:
  workload: { input_tokens: { mean: 100, stddev: 30, min: 20, max: 160 }, output_tokens: { mean: 64 } }
  concurrency: [4]
  requests_per_level: 12
`,
  'g.yml'
)

describe('synthetic workload', () => {
  test('the same seed gives the same prompts on both sides; each block has its own', () => {
    const a = syntheticSource(config.load!)
    const b = syntheticSource(config.load!)
    expect(a.item('block:0:1', 3)).toEqual(b.item('block:0:1', 3))
    expect(a.item('block:0:1', 3)).not.toEqual(a.item('block:0:2', 3))
  })

  test('token counts follow the configured distribution, clipped', () => {
    const source = syntheticSource(config.load!)
    const counts = Array.from({ length: 400 }, (_, i) => {
      const item = source.item('s', i)
      return item.kind === 'text' ? item.text.split(' ').length : 0
    })
    const mean = counts.reduce((x, y) => x + y) / counts.length
    expect(Math.abs(mean - 100)).toBeLessThan(5)
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(20)
    expect(Math.max(...counts)).toBeLessThanOrEqual(160)
  })

  test('request bodies stream with usage and ask to ignore EOS when the server accepts it', () => {
    const item = { kind: 'text' as const, text: 'a b c', maxTokens: 8 }
    expect(JSON.parse(requestBody(item, 'chat', 'm', true))).toEqual({
      messages: [{ role: 'user', content: 'a b c' }],
      model: 'm',
      max_tokens: 8,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
      ignore_eos: true,
      min_tokens: 8
    })
    const completion = JSON.parse(requestBody(item, 'completions', 'm', false))
    expect(completion.prompt).toBe('a b c')
    expect(completion.ignore_eos).toBeUndefined()
  })
})

describe('traffic workload', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'helm-gate-traffic-workload-'))
    // Logged out of order on purpose: the replay goes by arrival_ms.
    const arrivals = [900, 0, 300, 0]
    const lines = arrivals.map((arrival_ms, i) => ({
      id: `t-${i}`,
      stratum: 'all/short',
      tag: null,
      request: {
        messages: [{ role: 'user', content: `q${i}` }],
        max_tokens: i + 1,
        tools: [{ type: 'function' }],
        response_format: { type: 'json_object' }
      },
      reference: null,
      logged_response: null,
      arrival_ms
    }))
    await writeFile(join(dir, 'set.jsonl'), lines.map(l => `${JSON.stringify(l)}\n`).join(''))
    await writeFile(
      join(dir, 'untimed.jsonl'),
      `${JSON.stringify({ ...lines[0], arrival_ms: null })}\n${JSON.stringify({ ...lines[1], id: 'x' })}\n`
    )
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  const settings = (file: string, arrival = 'traffic') =>
    parseGateConfig(
      `version: 1
runs: [{ entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }]
load: { workload: { prompts: traffic, file: ${file} }, rate: [2], arrival: ${arrival}, requests_per_level: 12 }
`,
      join(dir, 'gate.yml')
    )

  test("the arrival gaps are the set's own, in arrival order, scaled so the mean gap is 1000 / rate", async () => {
    const config = settings('set.jsonl')
    const source = await trafficSource(config.load!, config.source, 'traffic')
    // Arrival order q1 (0), q3 (0), q2 (300), q0 (900): gaps 0, 300, 600 and the mean 300 to wrap.
    const gapAfter: Record<string, number> = { q1: 0, q3: 300, q2: 600, q0: 300 }
    let total = 0
    for (let i = 0; i < 8; i++) {
      const item = source.item('block:0:0', i)
      const next = source.item('block:0:0', i + 1)
      const content = (m: typeof item) => (m.kind === 'messages' ? (m.messages[0] as { content: string }).content : '')
      const order = ['q1', 'q3', 'q2', 'q0']
      expect(order[(order.indexOf(content(item)) + 1) % 4]).toBe(content(next))
      const gap = source.arrivalGap!('block:0:0', i, 2)
      expect(gap).toBeCloseTo((gapAfter[content(item)] * 500) / 300, 9)
      total += gap
    }
    // Two full cycles at 2 requests per second: 8 gaps of 500 ms on average.
    expect(total).toBeCloseTo(4000, 9)
  })

  test("only messages and max_tokens are sent: not the set request's tools or response_format", async () => {
    const config = settings('set.jsonl', 'poisson')
    const source = await trafficSource(config.load!, config.source, null)
    const body = JSON.parse(requestBody(source.item('s', 0), 'chat', 'm', false)) as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream', 'stream_options', 'temperature'])
  })

  test('arrival: traffic with a set that has no arrival times is an error naming load.arrival', async () => {
    const config = settings('untimed.jsonl')
    await expect(trafficSource(config.load!, config.source, 'traffic')).rejects.toMatchObject({
      code: 'load.traffic_arrival',
      location: { file: join(dir, 'untimed.jsonl'), field: 'load.arrival' }
    })
    await expect(trafficSource(settings('none.jsonl').load!, config.source, null)).rejects.toMatchObject({
      code: 'traffic.unreadable',
      location: { field: 'load.workload.file' }
    })
  })
})
