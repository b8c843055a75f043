/** The reply shapes of the routes that are not run here (vLLM needs a GPU) and the grammar text. */
import { describe, expect, it } from '@jest/globals'
import { forcedGrammar, sharedPrefix, vllmAnswer, vllmPromptPositions } from '../../src/fidelity/fidelity-client.js'

const side = { side: 'candidate' as const, baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: null, api: 'completions' as const }

describe('forcedGrammar', () => {
  it('admits exactly the token ids, in order', () => {
    expect(forcedGrammar([12, 7, 7])).toBe('root ::= <[12]> <[7]> <[7]>')
  })
})

describe('vLLM replies', () => {
  it('reads a completion with tokens as token ids', () => {
    const answer = vllmAnswer(side, {
      logprobs: {
        tokens: ['token_id:5', 'token_id:9'],
        token_logprobs: [-0.1, -0.5],
        top_logprobs: [
          { 'token_id:5': -0.1, 'token_id:6': -2.5 },
          { 'token_id:3': -0.4, 'token_id:9': -0.5 }
        ]
      }
    })
    expect(answer.ids).toEqual([5, 9])
    expect(answer.positions[1]).toEqual({
      token: '9',
      logprob: -0.5,
      top: [
        { token: '3', logprob: -0.4 },
        { token: '9', logprob: -0.5 }
      ]
    })
  })

  it('refuses tokens given as text (return_tokens_as_token_ids not honoured), naming the side', () => {
    expect(() => vllmAnswer(side, { logprobs: { tokens: ['hello'], token_logprobs: [-1], top_logprobs: [{}] } })).toThrow(
      expect.objectContaining({
        code: 'fidelity.capability_missing',
        message: expect.stringMatching(/the candidate cannot return tokens as token ids/)
      })
    )
  })

  it('reads prompt_logprobs at the answer positions, keeping the top-k by rank and the forced token', () => {
    const positions = vllmPromptPositions(
      side,
      {
        prompt_logprobs: [
          null,
          { '4': { logprob: -1, rank: 1 } },
          {
            '8': { logprob: -3, rank: 4 },
            '1': { logprob: -0.2, rank: 1 },
            '2': { logprob: -1.9, rank: 2 }
          }
        ]
      },
      2,
      [8],
      2
    )
    expect(positions).toEqual([
      {
        token: '8',
        logprob: -3,
        top: [
          { token: '1', logprob: -0.2 },
          { token: '2', logprob: -1.9 }
        ]
      }
    ])
  })

  it('is a named error when the server returns no prompt log-probabilities', () => {
    expect(() => vllmPromptPositions(side, { text: 'x' }, 2, [8], 2)).toThrow(
      expect.objectContaining({ code: 'fidelity.capability_missing', location: { field: 'deployments.candidate', value: 'undefined' } })
    )
  })
})

describe('sharedPrefix', () => {
  const pos = (token: string, top: [string, number][]) => ({
    token,
    logprob: top.find(t => t[0] === token)?.[1] ?? -9,
    top: top.map(([t, l]) => ({ token: t, logprob: l }))
  })
  it('keeps positions up to and including the first where the answers part, the baseline token scored there', () => {
    const b = {
      ids: null,
      length: 3,
      positions: [
        pos('a', [['a', -0.1]]),
        pos('b', [
          ['b', -0.2],
          ['c', -2]
        ]),
        pos('a', [['a', -0.1]])
      ]
    }
    const c = {
      ids: null,
      length: 3,
      positions: [
        pos('a', [['a', -0.2]]),
        pos('c', [
          ['c', -0.3],
          ['b', -1.5]
        ]),
        pos('x', [['x', -0.1]])
      ]
    }
    const shared = sharedPrefix(b, c)
    expect(shared.baseline).toHaveLength(2)
    expect(shared.candidate[1]).toMatchObject({ token: 'b', logprob: -1.5 })
  })
  it('takes the baseline token as probability 0 on the candidate when it is outside its top-k (pessimistic)', () => {
    const b = { ids: null, length: 1, positions: [pos('a', [['a', -0.1]])] }
    const c = { ids: null, length: 1, positions: [pos('z', [['z', -0.1]])] }
    expect(sharedPrefix(b, c).candidate[0].logprob).toBe(-Infinity)
  })
})
