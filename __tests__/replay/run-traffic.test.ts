/**
 * The traffic gate against real fake servers (test-support/fake-openai, --traffic): the set is
 * replayed on both sides over HTTP (B1, B2 on the baseline, C on the candidate), judged, and the
 * rows join a report. An equivalent candidate passes against the noise floor; one that breaks JSON
 * mode, truncates, breaks tool calls or answers differently fails with the right rows; a failed
 * request fails closed.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { newReport, type ChangedExample, type Comparison, type Report } from '../../src/model/report.js'
import { TrafficReplay } from '../../src/replay/run-traffic.js'
import type { ReplayState } from '../../src/replay/replay.js'
import { startFakeServer, type FakeServer } from '../../test-support/fake-openai/harness.js'
// @ts-expect-error: a plain ESM module of the test support, without types
import { makeSet } from '../../test-support/traffic/make-set.mjs'
import { fixedExamples } from '../../test-support/credentials.js'

// Each case replays the set three times on real servers and bootstraps every check: 23 to 26 s
// alone on the 2-core machine, over jest's 30 s default when the parallel phase crowds it.
jest.setTimeout(120_000)

let dir: string
let baseline: FakeServer
let candidate: FakeServer

const BREAKS = {
  trafficDiffer: 0,
  trafficNoise: 0,
  trafficBreakJson: 0,
  trafficTruncate: 0,
  trafficBadTools: 0,
  trafficRefuse: 0,
  errorRate: 0
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'helm-gate-traffic-'))
  baseline = await startFakeServer({ answerKeys: [], models: ['base-model'], traffic: {} })
  candidate = await startFakeServer({ answerKeys: [], models: ['cand-model'], traffic: {} })
})

afterAll(async () => {
  await Promise.all([baseline?.stop(), candidate?.stop()])
  await rm(dir, { recursive: true, force: true })
})

async function gate(count: number, name: string, traffic = ''): Promise<ReturnType<typeof parseGateConfig>> {
  const set = join(dir, `${name}.jsonl`)
  await writeFile(set, (makeSet(count) as unknown[]).map(line => JSON.stringify(line)).join('\n') + '\n')
  const file = join(dir, `${name}.yml`)
  const text = `version: 1
deployments:
  baseline: { api: chat, base_url: ${baseline.baseUrl}, model: base-model }
  candidate: { api: chat, base_url: ${candidate.baseUrl}, model: cand-model }
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
statistics: { resamples: 2000 }
traffic:
  set: ${name}.jsonl
  concurrency: 8
${traffic}`
  await writeFile(file, text)
  return parseGateConfig(text, file)
}

async function runTraffic(
  config: ReturnType<typeof parseGateConfig>,
  out: string
): Promise<{ report: Report; rows: Record<string, Comparison>; changed: Map<string, ChangedExample[]> }> {
  const replay = new TrafficReplay(config as never, { outDir: join(dir, out), env: {}, progress: () => {} })
  await replay.holdAlwaysUp()
  const changed = new Map<string, ChangedExample[]>()
  const empty = newReport(config.statistics, { verdict: 'pass', headline: 'quality half' })
  const report = replay.attach(empty, { changedAnswers: changed })
  return { report, rows: Object.fromEntries(report.comparisons.map(c => [c.metric, c])), changed }
}

async function candidateBehaves(update: Partial<typeof BREAKS>): Promise<void> {
  await candidate.control({ ...BREAKS, ...update })
}

describe('traffic replay with fake servers', () => {
  it('an equivalent candidate on a deterministic server passes, and the report says the noise floor is zero', async () => {
    await candidateBehaves({})
    await baseline.control({ ...BREAKS })
    // 500 requests: 100 offer tools, and with no failure on either side Tango's upper bound for
    // them is about 3.7 / 100, inside the default 5-point margin.
    const { report, rows } = await runTraffic(await gate(500, 'same'), 'same')
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(rows.disagreement).toMatchObject({ gated: true, n: 500, delta: 0, verdict: 'pass', ci: { method: 'tango' } })
    for (const check of ['invalid_json', 'invalid_tool_calls', 'truncation', 'refusals']) expect(rows[check]?.verdict).toBe('pass')
    expect(rows.invalid_json.n).toBe(200) // json_object and json_schema requests only
    expect(rows.invalid_tool_calls.n).toBe(100)
    expect(rows.similarity.gated).toBe(false)
    expect(rows.quasi_exact_match.n).toBe(46) // the records with a reference
    expect(report.notes.join('\n')).toMatch(/deterministic server.*noise floor is zero/)
  })

  it('keeps every request as sent, with the side model and temperature 0, in HELM request-state shape', async () => {
    const config = await gate(20, 'evidence')
    await runTraffic(config, 'evidence')
    for (const [name, model] of [
      ['baseline-1', 'base-model'],
      ['baseline-2', 'base-model'],
      ['candidate', 'cand-model']
    ]) {
      const file = join(dir, 'evidence', 'traffic', name, 'scenario_state.json')
      const states = (JSON.parse(await readFile(file, 'utf8')) as { request_states: ReplayState[] }).request_states
      expect(states).toHaveLength(20)
      states.forEach((state, i) => {
        const instance = config.traffic!.instances[i]
        expect(state.instance.id).toBe(instance.id)
        expect(state.request).toEqual({ ...instance.request, model, stream: false, temperature: 0 })
        expect(state.result).toMatchObject({
          success: true,
          cached: false,
          http_status: 200,
          response: { object: 'chat.completion', model }
        })
      })
      expect(states.some(s => s.result.completions[0].tool_calls !== null)).toBe(true)
    }
  })

  it('stores no credential a prompt carries: every kind, in the request as sent, on all three replays', async () => {
    const planted = fixedExamples()
    const lines = (makeSet(planted.length) as Array<{ request: { messages: Array<{ role: string; content: unknown }> } }>).map(
      (line, i) => {
        const last = line.request.messages[line.request.messages.length - 1]
        if (typeof last.content === 'string') last.content = `${last.content}\nMy config:\n${planted[i].text}`
        return line
      }
    )
    // gate() writes a clean set beside the gate file; the planted one replaces it before parsing.
    await gate(planted.length, 'planted')
    await writeFile(join(dir, 'planted.jsonl'), lines.map(line => JSON.stringify(line)).join('\n') + '\n')
    const config = parseGateConfig(await readFile(join(dir, 'planted.yml'), 'utf8'), join(dir, 'planted.yml'))
    await runTraffic(config, 'planted-out')
    for (const name of ['baseline-1', 'baseline-2', 'candidate']) {
      const stored = await readFile(join(dir, 'planted-out', 'traffic', name, 'scenario_state.json'), 'utf8')
      expect(() => JSON.parse(stored)).not.toThrow()
      const kept = planted
        .flatMap(p => p.secrets)
        .filter(secret => stored.includes(secret) || stored.includes(JSON.stringify(secret).slice(1, -1)))
      expect({ name, kept }).toEqual({ name, kept: [] })
      expect(stored).toContain('My config:')
    }
  })

  it('judges against the noise floor: equal noise on both sides passes, the noise floor is not zero', async () => {
    await baseline.control({ ...BREAKS, trafficNoise: 0.02 })
    await candidateBehaves({ trafficNoise: 0.02 })
    const { report, rows } = await runTraffic(await gate(400, 'noisy'), 'noisy')
    expect(report.errors).toEqual([])
    expect(rows.disagreement.baseline_mean).toBeGreaterThan(0) // B2 disagreed with B1 somewhere
    expect(rows.disagreement.verdict).toBe('pass')
    expect(report.notes.join('\n')).not.toMatch(/deterministic server/)
    await baseline.control({ ...BREAKS })
  })

  it.each([
    ['answers differently on 30% of requests', { trafficDiffer: 0.3 }, ['disagreement']],
    ['breaks JSON mode on half the JSON requests', { trafficBreakJson: 0.5 }, ['invalid_json', 'disagreement']],
    // A truncated JSON answer is invalid JSON too.
    ['truncates 30% of answers', { trafficTruncate: 0.3 }, ['truncation', 'disagreement', 'invalid_json']],
    // A call of another tool is a changed answer too.
    ['calls tools that were not offered', { trafficBadTools: 0.6 }, ['invalid_tool_calls', 'disagreement']],
    // A refusal in JSON mode is not JSON either.
    ['refuses 20% of requests', { trafficRefuse: 0.2 }, ['refusals', 'disagreement', 'invalid_json']]
  ])('a candidate that %s fails with the right rows', async (_label, breaks, failing) => {
    await candidateBehaves(breaks)
    const { report, rows, changed } = await runTraffic(await gate(120, 'broken'), 'broken')
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('fail')
    for (const check of failing) expect(rows[check].verdict).toBe('fail')
    const gatedFailing = report.comparisons.filter(c => c.gated && c.verdict === 'fail').map(c => c.metric)
    expect(gatedFailing.sort()).toEqual([...failing].sort())
    // The changed answers carry the conversation and both answers, for report.html.
    const first = changed.get(rows[failing[0]].id)?.[0]
    expect(first?.input).toMatch(/^system: You are the support assistant/)
    expect(first?.baseline_output).not.toBe(first?.candidate_output)
    // A structural row names the check that failed on each changed answer.
    for (const structural of failing.filter(check => check !== 'disagreement')) {
      const failedChecks = (changed.get(rows[structural].id) ?? []).map(e => e.failed_check)
      expect(failedChecks.length).toBeGreaterThan(0)
      for (const text of failedChecks) expect(text).toMatch(/^candidate: /)
    }
  })

  it('a failed request fails closed: error verdict, the failure named, the evidence kept', async () => {
    await candidateBehaves({ errorRate: 0.2 })
    const { report, rows } = await runTraffic(await gate(40, 'failing'), 'failing')
    expect(report.verdict).toBe('error')
    expect(rows.disagreement).toBeUndefined()
    const error = report.errors.find(e => e.code === 'traffic.request_failed')
    expect(error?.message).toMatch(/requests failed on the candidate/)
    expect(error?.value).toMatch(/HTTP 500/)
    const states = JSON.parse(await readFile(join(dir, 'failing', 'traffic', 'candidate', 'scenario_state.json'), 'utf8')) as {
      request_states: ReplayState[]
    }
    expect(states.request_states.some(s => !s.result.success)).toBe(true)
    await candidateBehaves({})
  })

  it('sends the API key in a header only, and masks it wherever a prompt or an answer holds it', async () => {
    const key = 'plain-words-but-secret-key'
    const locked = await startFakeServer({ answerKeys: [], models: ['base-model', 'cand-model'], traffic: {}, apiKey: key })
    try {
      const set = (makeSet(10) as { request: { messages: { content: string }[] } }[]).map((line, i) => {
        if (i === 0) line.request.messages[1].content = `my key is ${key}, please keep it`
        return JSON.stringify(line)
      })
      await writeFile(join(dir, 'keyed.jsonl'), `${set.join('\n')}\n`)
      const text = `version: 1
deployments:
  baseline: { api: chat, base_url: ${locked.baseUrl}, model: base-model, api_key_env: TRAFFIC_KEY }
  candidate: { api: chat, base_url: ${locked.baseUrl}, model: cand-model, api_key_env: TRAFFIC_KEY }
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
traffic:
  set: keyed.jsonl
  checks: { disagreement: report, invalid_json: report, invalid_tool_calls: report, truncation: report, refusals: report }
`
      const config = parseGateConfig(text, join(dir, 'keyed.yml'))
      const replay = new TrafficReplay(config as never, { outDir: join(dir, 'keyed'), env: { TRAFFIC_KEY: key }, progress: () => {} })
      await replay.holdAlwaysUp()
      const report = replay.attach(newReport(config.statistics, { verdict: 'pass', headline: '' }))
      expect(report.errors).toEqual([])
      for (const name of ['baseline-1', 'baseline-2', 'candidate']) {
        const evidence = await readFile(join(dir, 'keyed', 'traffic', name, 'scenario_state.json'), 'utf8')
        expect(evidence).toContain('my key is ***, please keep it')
        expect(evidence).not.toContain(key)
      }
    } finally {
      await locked.stop()
    }
  })

  it('a side that never came up fails closed', async () => {
    const config = await gate(10, 'down')
    const replay = new TrafficReplay(config as never, { outDir: join(dir, 'down'), env: {}, progress: () => {} })
    await replay.hold(['baseline'])
    const report = replay.attach(newReport(config.statistics, { verdict: 'pass', headline: '' }))
    expect(report.verdict).toBe('error')
    expect(report.errors.map(e => e.code)).toEqual(['traffic.side_not_up'])
  })

  it("measures answer length from the servers' token counts: a candidate that answers longer fails a gated band", async () => {
    await baseline.control({ ...BREAKS })
    await candidate.control({ ...BREAKS, answerPad: 8 })
    try {
      const config = await gate(60, 'longer', '  checks:\n    answer_length_ratio: { min: 0.8, max: 1.25 }')
      const { report } = await runTraffic(config, 'longer')
      const [row] = report.answer_lengths ?? []
      expect(row).toMatchObject({ source: 'traffic', run: 'traffic', gated: true, n: 60, verdict: 'fail', min: 0.8, max: 1.25 })
      expect(row.unit).toMatch(/^output tokens \(the servers' usage.completion_tokens\)/)
      // The ratio of the usage counts stored in the evidence, summed per side.
      const tokens = async (name: string): Promise<number> => {
        const states = JSON.parse(await readFile(join(dir, 'longer', 'traffic', name, 'scenario_state.json'), 'utf8')) as {
          request_states: { result: { response: { usage: { completion_tokens: number } } } }[]
        }
        return states.request_states.reduce((s, st) => s + st.result.response.usage.completion_tokens, 0)
      }
      expect(row.ratio.estimate).toBeCloseTo((await tokens('candidate')) / (await tokens('baseline-1')), 12)
      expect(row.ratio.low).toBeGreaterThan(1.25)
      expect(report.verdict).toBe('fail')
    } finally {
      await candidate.control({ answerPad: 0 })
    }
  })

  it('reports the answer length of an unchanged candidate without gating it', async () => {
    await baseline.control({ ...BREAKS })
    await candidate.control({ ...BREAKS, answerPad: 0 })
    const { report } = await runTraffic(await gate(40, 'same-length'), 'same-length')
    expect(report.answer_lengths).toEqual([
      expect.objectContaining({
        source: 'traffic',
        gated: false,
        verdict: 'pass',
        ratio: expect.objectContaining({ estimate: 1, low: 1, high: 1 })
      })
    ])
    // Not gated: no verdict or headline is derived from it.
    expect(report.comparisons.every(c => !c.metric.includes('length'))).toBe(true)
  })
})
