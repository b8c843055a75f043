/**
 * Fidelity's part of the report on a teacher-forced route: where the flips fall (the baseline's
 * top-1 margin, src/holistic/fidelity-direction.ts) is measured by the real measurement and shown
 * in the part the renderers print. The two sides are stub clients with known distributions (the
 * route logic is what is under test; the HTTP routes have their own tests), so the flips are known
 * by construction: per instance, a flip where the baseline was sure and one where it was not.
 */
import { describe, expect, it } from '@jest/globals'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import type { FidelityClient, FidelityPrompt, ScoredAnswer } from '../../src/fidelity/fidelity-client.js'
import { fidelityPart } from '../../src/fidelity/fidelity-part.js'
import { measureFidelity } from '../../src/fidelity/measure-fidelity.js'
import type { PositionDistribution } from '../../src/fidelity/token-metrics.js'

const TOKENS = ['a', 'b', 'c', 'd']
/** The baseline's top-1 probability per position: sure (margin 0.85) at 0 and 3, unsure (0.1) at 1 and 2. */
const SURE = [true, false, false, true]
/** Where the candidate's most likely token is another: a sure position (0) and an unsure one (2). */
const FLIPPED = [true, false, true, false]

function dist(token: string, top1: string, sure: boolean): PositionDistribution {
  const [p1, p2] = sure ? [0.9, 0.05] : [0.5, 0.4]
  const other = top1 === 'z' ? 'y' : 'z'
  return {
    token,
    logprob: Math.log(top1 === token ? p1 : p2),
    top: [
      { token: top1, logprob: Math.log(p1) },
      { token: other === token ? other : token, logprob: Math.log(p2) }
    ]
  }
}

function client(route: FidelityClient['route'], side: 'baseline' | 'candidate'): FidelityClient {
  const answer: ScoredAnswer = { positions: TOKENS.map((t, i) => dist(t, t, SURE[i])), ids: [1, 2, 3, 4], length: TOKENS.length }
  return {
    route,
    requests: 0,
    async generate() {
      return answer
    },
    async score(_prompt: FidelityPrompt, scored: ScoredAnswer) {
      if (side === 'baseline') return scored.positions
      return scored.positions.map((p, i) => dist(p.token, FLIPPED[i] ? 'z' : p.token, SURE[i]))
    },
    async checkTopK() {},
    async tokenize() {
      return []
    }
  }
}

const side = (name: 'baseline' | 'candidate') => ({
  side: name,
  baseUrl: `http://${name}.invalid/v1`,
  model: 'm',
  apiKey: null,
  api: 'completions' as const
})

describe("fidelity's part", () => {
  it('counts the flips by the baseline margin on a teacher-forced route and prints "flips: N (sure S, unsure U)"', async () => {
    const report = await measureFidelity({
      sides: { baseline: side('baseline'), candidate: side('candidate') },
      prompts: Array.from({ length: 3 }, (_, i) => ({ id: `p${i}`, text: `prompt ${i}` })),
      settings: {
        instances: 3,
        maxAnswerTokens: 4,
        topK: 2,
        baselineReruns: 0,
        checks: [{ metric: 'top1_agreement', bound: 'min', value: 0.9 }],
        requestTimeoutSeconds: 5
      },
      statistics: { ...DEFAULT_STATISTICS, resamples: 200 },
      clientFor: async s => client('llamacpp-forced-grammar', s.side)
    })
    expect(report.direction).toMatchObject({
      positions: 12,
      flips: 6,
      sure: { positions: 6, flips: 3 },
      unsure: { positions: 6, flips: 3 }
    })
    const part = fidelityPart(report, [])
    expect(part.lines).toContain('flips: 6 (sure 3, unsure 3)')
    expect(part.lines).toContain(report.direction?.sentence)
    expect(part.verdict).toBe(report.checks[0].verdict)
    expect(part.tables[0].rows[0][1]).toBe('top1_agreement ≥ 0.9')
  })

  it('is an error part, deciding, when the measurement could not be completed', () => {
    const part = fidelityPart(undefined, [{ code: 'fidelity.side_not_up', message: 'fidelity: no side was up' }])
    expect(part).toMatchObject({ verdict: 'error', summary: 'the measurement could not be completed' })
    expect(part.decision?.deciding).toBe('fidelity (fidelity: no side was up)')
    expect(part.lines).toEqual(['fidelity.side_not_up: fidelity: no side was up'])
  })
})
