/**
 * The fidelity measurement against two real fake-server processes that answer from known
 * next-token distributions (test-support/fake-openai/token-distribution.mjs): the figures must
 * equal a plain computation over the full vocabulary (top_k = the vocabulary, so the KL's bucket is
 * empty and the bound is the full KL).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import type { FidelitySettings } from '../../src/config/fidelity.js'
import { FidelityMeasurement, measureFidelity } from '../../src/fidelity/measure-fidelity.js'
import { startFakeServer, type FakeServer } from '../../test-support/fake-openai/harness.js'
// @ts-expect-error plain JavaScript test support without types
import { FIDELITY_VOCAB, greedyAnswer, nextTokenDistribution } from '../../test-support/fake-openai/token-distribution.mjs'

type Dist = (prompt: string, prefix: string[], shift: number) => number[]
type Greedy = (prompt: string, shift: number, maxTokens: number) => { tokens: string[]; distributions: number[][] }
const next = nextTokenDistribution as Dist
const greedy = greedyAnswer as Greedy
const VOCAB = FIDELITY_VOCAB as string[]

const SHIFT = 1.5
const PROMPTS = Array.from({ length: 24 }, (_, i) => ({ id: `p${i}`, text: `Question number ${i}: what comes next?` }))
const SETTINGS: FidelitySettings = {
  instances: 24,
  maxAnswerTokens: 16,
  topK: VOCAB.length,
  baselineReruns: 1,
  checks: [
    { metric: 'top1_agreement', bound: 'min', value: 0.5 },
    { metric: 'kld_mean', bound: 'max', value: 0.001 }
  ],
  requestTimeoutSeconds: 30
}

let baseline: FakeServer
let candidate: FakeServer

beforeAll(async () => {
  ;[baseline, candidate] = await Promise.all([startFakeServer({ answerKeys: [] }), startFakeServer({ answerKeys: [] })])
  await baseline.control({ fidelity: 1, fidelityShift: 0 })
  await candidate.control({ fidelity: 1, fidelityShift: SHIFT })
}, 30_000)

afterAll(async () => {
  await Promise.all([baseline?.stop(), candidate?.stop()])
})

function sides() {
  return {
    baseline: { side: 'baseline' as const, baseUrl: baseline.baseUrl, model: 'gate-model', apiKey: null, api: 'chat' as const },
    candidate: { side: 'candidate' as const, baseUrl: candidate.baseUrl, model: 'gate-model', apiKey: null, api: 'chat' as const }
  }
}

/** The expected per-instance figures along the shared greedy prefix, by hand over the full vocabulary. */
function expected(prompt: string) {
  const b = greedy(prompt, 0, SETTINGS.maxAnswerTokens)
  const c = greedy(prompt, SHIFT, SETTINGS.maxAnswerTokens)
  let top1 = 0
  let kl = 0
  let dp = 0
  let n = 0
  for (let t = 0; t < b.tokens.length; t++) {
    const pb = next(prompt, b.tokens.slice(0, t), 0)
    const pc = next(prompt, b.tokens.slice(0, t), SHIFT)
    const argmax = (p: number[]) => p.indexOf(Math.max(...p))
    top1 += argmax(pb) === argmax(pc) ? 1 : 0
    kl += pb.reduce((s, p, i) => s + p * Math.log(p / pc[i]), 0)
    const y = VOCAB.indexOf(b.tokens[t])
    dp += pc[y] - pb[y]
    n++
    if (c.tokens[t] !== b.tokens[t]) break
  }
  return { top1: top1 / n, kl: kl / n, dp: dp / n, lengthRatio: c.tokens.length / b.tokens.length }
}

describe('measureFidelity progress', () => {
  it('reports each side every tenth of the prompts and at the end, not once per prompt', async () => {
    const lines: string[] = []
    await measureFidelity({
      sides: sides(),
      prompts: PROMPTS,
      settings: SETTINGS,
      statistics: DEFAULT_STATISTICS,
      progress: line => lines.push(line)
    })
    const counted = lines.filter(line => / of 24 instances/.test(line))
    // 24 prompts: the tenths fall after prompts 3, 5, 8, 10, 12, 15, 17, 20, 22 and 24.
    const at = [3, 5, 8, 10, 12, 15, 17, 20, 22, 24]
    expect(counted).toEqual(
      (['baseline', 'candidate'] as const).flatMap(side =>
        at.map(n => `helm-gate: fidelity: ${side}, ${n} of 24 instances (${Math.floor((n * 100) / 24)}%)`)
      )
    )
  })
})

describe('measureFidelity (greedy-prefix route, known distributions)', () => {
  it('equals the hand computation over the full vocabulary, with a perfect A/A floor', async () => {
    const report = await measureFidelity({ sides: sides(), prompts: PROMPTS, settings: SETTINGS, statistics: DEFAULT_STATISTICS })
    const want = PROMPTS.map(p => expected(p.text))
    const mean = (f: (e: ReturnType<typeof expected>) => number) => want.reduce((s, e) => s + f(e), 0) / want.length
    const fig = (m: string) => report.figures.find(f => f.metric === m)!
    expect(report.route).toBe('greedy-prefix')
    expect(report.teacherForced).toBe(false)
    expect(report.notes.join(' ')).toMatch(/Not teacher-forced/)
    expect(report.instances).toBe(24)
    expect(report.restMassMean).toBeLessThan(1e-12)
    expect(fig('top1_agreement').candidate).toBeCloseTo(
      mean(e => e.top1),
      10
    )
    expect(fig('kld_mean').candidate).toBeCloseTo(
      mean(e => e.kl),
      10
    )
    expect(fig('delta_p_mean').candidate).toBeCloseTo(
      mean(e => e.dp),
      10
    )
    expect(fig('answer_length_ratio').candidate).toBeCloseTo(
      mean(e => e.lengthRatio),
      10
    )
    // The baseline is deterministic: its second pass is the same answer, a perfect floor.
    expect(fig('top1_agreement').floor).toBe(1)
    expect(fig('kld_mean').floor).toBeCloseTo(0, 12)
    // The shift is large enough that the KL check fails while the loose agreement check is decided too.
    expect(mean(e => e.kl)).toBeGreaterThan(0.01)
    expect(report.checks.map(c => c.metric)).toEqual(['top1_agreement', 'kld_mean'])
    expect(report.checks[1].verdict).toBe('fail')
    expect(report.checks[1].reason).toMatch(/^kld_mean [0-9.]+ \[[0-9.]+, [0-9.]+\]: the whole interval is beyond 0.001/)
    // One top-k probe, then per instance the answer and its rerun; the candidate answers once.
    expect(report.cost.map(c => c.requests)).toEqual([1 + 24 * 2, 1 + 24])
  }, 60_000)

  it('passes an identical candidate', async () => {
    const same = sides()
    same.candidate = { ...same.candidate, baseUrl: baseline.baseUrl }
    const report = await measureFidelity({ sides: same, prompts: PROMPTS, settings: SETTINGS, statistics: DEFAULT_STATISTICS })
    expect(report.figures.find(f => f.metric === 'kld_mean')!.corrected).toBe(0)
    expect(report.checks.find(c => c.metric === 'kld_mean')!.verdict).toBe('pass')
  }, 60_000)

  it('is a named error when top_k exceeds what a side returns', async () => {
    await expect(
      measureFidelity({ sides: sides(), prompts: PROMPTS, settings: { ...SETTINGS, topK: 12 }, statistics: DEFAULT_STATISTICS })
    ).rejects.toMatchObject({
      code: 'fidelity.top_k_too_large',
      message: expect.stringMatching(/fidelity.top_k is 12 but the baseline returns at most 8 alternatives/)
    })
  }, 30_000)

  it('is a named error naming the side that cannot return log-probabilities', async () => {
    await candidate.control({ fidelity: 0 })
    try {
      await expect(
        measureFidelity({ sides: sides(), prompts: PROMPTS, settings: SETTINGS, statistics: DEFAULT_STATISTICS })
      ).rejects.toMatchObject({
        code: 'fidelity.capability_missing',
        message: expect.stringMatching(/the candidate cannot return token log-probabilities/),
        location: { field: 'deployments.candidate' }
      })
    } finally {
      await candidate.control({ fidelity: 1 })
    }
  }, 30_000)

  it('refuses a section with no prompts to score', async () => {
    await expect(
      measureFidelity({ sides: sides(), prompts: [], settings: SETTINGS, statistics: DEFAULT_STATISTICS })
    ).rejects.toMatchObject({
      code: 'fidelity.no_prompts'
    })
  })

  it('runs with the sides up one after the other, the baseline first, and refuses the other order', async () => {
    const input = { sides: sides(), prompts: PROMPTS, settings: SETTINGS, statistics: DEFAULT_STATISTICS }
    const apart = new FidelityMeasurement(input)
    await apart.hold(['baseline'])
    expect(() => apart.report()).toThrow(
      expect.objectContaining({ code: 'fidelity.side_not_up', message: expect.stringMatching(/the candidate was never up/) })
    )
    await apart.hold(['candidate'])
    const together = await measureFidelity(input)
    expect(apart.report().figures).toEqual(together.figures)
    await expect(new FidelityMeasurement(input).hold(['candidate'])).rejects.toMatchObject({ code: 'fidelity.baseline_first' })
  }, 60_000)

  it('in reference mode, refuses a prompt without a reference answer, naming it', () => {
    const prompts = [{ ...PROMPTS[0], reference: 'one two' }, PROMPTS[1]]
    expect(
      () => new FidelityMeasurement({ sides: sides(), prompts, settings: SETTINGS, statistics: DEFAULT_STATISTICS, answers: 'reference' })
    ).toThrow(
      expect.objectContaining({ code: 'fidelity.no_reference', message: expect.stringMatching(/prompt p1 has no reference answer/) })
    )
  })

  it('in reference mode, a side that cannot be teacher-forced is a named error, never a greedy comparison', async () => {
    // The fake answers chat completions with top log-probabilities only (the greedy-prefix route):
    // it cannot tokenize the reference, so nothing is scored on it.
    const prompts = PROMPTS.map(p => ({ ...p, reference: 'alpha beta' }))
    await expect(
      measureFidelity({ sides: sides(), prompts, settings: SETTINGS, statistics: DEFAULT_STATISTICS, answers: 'reference' })
    ).rejects.toMatchObject({
      code: 'fidelity.capability_missing',
      message: expect.stringMatching(/the baseline cannot return token ids, so it cannot be scored on a reference answer/),
      location: { field: 'deployments.baseline' }
    })
  }, 30_000)
})
