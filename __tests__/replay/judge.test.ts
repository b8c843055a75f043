/** Judging replayed answers (pure): how answers are compared, and what the rows and notes say. */
import { describe, expect, it } from '@jest/globals'
import { DEFAULT_CHECK_MARGINS, DEFAULT_REFUSAL_PATTERNS, type TrafficSettings } from '../../src/config/traffic.js'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import type { TrafficInstance } from '../../src/config/traffic-set.js'
import type { Answer } from '../../src/replay/answer-checks.js'
import { answerText, judgeTraffic, normaliseAnswer, similarity } from '../../src/replay/judge.js'

const text = (content: string): Answer => ({ content, tool_calls: null, finish_reason: 'stop' })
const instance = (i: number, reference: string | null = null): TrafficInstance => ({
  id: `t-${i}`,
  stratum: 'all/short',
  tag: null,
  request: { messages: [{ role: 'user', content: `question ${i}` }] },
  reference,
  logged_response: null,
  arrival_ms: null
})
const settings = (over: Partial<TrafficSettings> = {}): TrafficSettings => ({
  set: 's.jsonl',
  setSha256: '',
  instances: [],
  baselineReruns: 1,
  temperature: 0,
  similarity: 'token_f1',
  ignoreCase: false,
  checks: { ...DEFAULT_CHECK_MARGINS },
  refusalPatterns: DEFAULT_REFUSAL_PATTERNS,
  concurrency: 1,
  requestTimeoutSeconds: 1,
  ...over
})
const stats = { ...DEFAULT_STATISTICS, resamples: 1000 }

describe('comparing two answers', () => {
  it('tool calls compare by name and arguments with sorted keys; whitespace never counts, case only when asked', () => {
    const call = (args: string): Answer => ({
      content: null,
      tool_calls: [{ function: { name: 'f', arguments: args } }],
      finish_reason: 'tool_calls'
    })
    expect(answerText(call('{"b": 1, "a": 2}'))).toBe(answerText(call('{"a":2,"b":1}')))
    expect(answerText(call('{"a": 1}'))).toBe('f({"a":1})')
    expect(normaliseAnswer(' Hello\n  world ', false)).toBe('Hello world')
    expect(normaliseAnswer('Hello', true)).toBe(normaliseAnswer('hello', true))
    expect(normaliseAnswer('Hello', false)).not.toBe(normaliseAnswer('hello', false))
  })

  it('similarity is 1 for equal answers (HELM F1 of two empty texts is 0) and in [0, 1] otherwise', () => {
    expect(similarity('', '', 'token_f1', false)).toBe(1)
    expect(similarity('the order ships today', 'the order ships tomorrow', 'token_f1', false)).toBeCloseTo(2 / 3, 12)
    // Stemmed: ships and shipped agree; the and your do not.
    expect(similarity('the order ships today', 'your order shipped today', 'rouge_l', false)).toBeCloseTo(0.75, 12)
  })
})

describe('judgeTraffic', () => {
  const instances = Array.from({ length: 30 }, (_, i) => instance(i, i < 10 ? `answer ${i}` : null))
  const same = instances.map((_, i) => text(`answer ${i}`))

  it('a deterministic baseline: the noise floor is zero and the report says so; reference rows on records with one', () => {
    const judged = judgeTraffic(instances, { b1: same, b2: same, c: same }, settings(), stats, 3)
    const rows = Object.fromEntries(judged.comparisons.map(c => [c.metric, c]))
    expect(rows.disagreement).toMatchObject({ n: 30, baseline_mean: 0, candidate_mean: 0, gated: true })
    expect(rows.exact_match).toMatchObject({ n: 10, baseline_mean: 1, gated: false })
    expect(rows.invalid_json).toBeUndefined() // no request asked for JSON
    expect(judged.notes.join('\n')).toMatch(/deterministic server/)
  })

  it("the candidate is judged against the noise floor: its changes count only beyond the baseline's own", () => {
    const noisy = same.map((a, i) => (i % 5 === 0 ? text(`other ${i}`) : a))
    const judged = judgeTraffic(instances, { b1: same, b2: noisy, c: noisy }, settings(), stats, 3)
    const row = judged.comparisons.find(c => c.metric === 'disagreement')!
    expect(row.baseline_mean).toBeCloseTo(0.2, 12)
    expect(row.candidate_mean).toBeCloseTo(0.2, 12)
    expect(row.delta).toBe(0)
    expect(judged.notes.join('\n')).not.toMatch(/deterministic server/)
  })

  it('without a rerun the noise floor is zero, and the report says why', () => {
    const judged = judgeTraffic(instances, { b1: same, b2: null, c: same }, settings({ baselineReruns: 0 }), stats, 3)
    expect(judged.notes.join('\n')).toMatch(/not rerun \(baseline_reruns: 0\)/)
  })
})
