/** The shared greedy prefix of the OpenAI-style route. */
import { describe, expect, it } from '@jest/globals'
import { sharedPrefix } from '../../src/fidelity/fidelity-openai-prefix.js'

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
