/** The reply shapes of vLLM's route, which is not run here (it needs a GPU). */
import { describe, expect, it } from '@jest/globals'
import { vllmAnswer, vllmPromptPositions } from '../../src/fidelity/fidelity-vllm.js'

const side = { side: 'candidate' as const, baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: null, api: 'completions' as const }

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
