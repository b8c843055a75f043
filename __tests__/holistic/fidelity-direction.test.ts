// Where fidelity's flips fall: positions split by the baseline's top-1 margin, counted by hand.
import { expect, test } from '@jest/globals'
import { fidelityDirection, topMargin, type ScoredPosition } from '../../src/holistic/fidelity-direction.js'

const lp = Math.log

/** A position whose baseline reported p1 for its own token and p2 for "other"; the candidate's top-1 is `candidateTop`. */
const position = (p1: number, p2: number, candidateTop: 'same' | 'other'): ScoredPosition => ({
  baseline: {
    token: 'tok',
    top: [
      { token: 'tok', logprob: lp(p1) },
      { token: 'other', logprob: lp(p2) }
    ]
  },
  candidate: {
    top:
      candidateTop === 'same'
        ? [
            { token: 'tok', logprob: lp(0.7) },
            { token: 'other', logprob: lp(0.2) }
          ]
        : [
            { token: 'other', logprob: lp(0.55) },
            { token: 'tok', logprob: lp(0.4) }
          ]
  }
})

test('the margin is p1 - p2 of the reported alternatives, whatever their order', () => {
  expect(
    topMargin([
      { token: 'a', logprob: lp(0.1) },
      { token: 'b', logprob: lp(0.7) },
      { token: 'c', logprob: lp(0.15) }
    ])
  ).toBeCloseTo(0.55, 12)
  expect(topMargin([{ token: 'a', logprob: lp(0.4) }])).toBeCloseTo(0.4, 12)
  expect(topMargin([])).toBe(0)
})

test('flips are split by the baseline margin and counted over every instance', () => {
  // Instance 1: two sure positions (margin 0.9 - 0.05 = 0.85), one flipped; one unsure (0.5 - 0.4), flipped.
  // Instance 2: three unsure positions (0.45 - 0.35), one flipped; one sure (0.75 - 0.2 = 0.55) kept.
  const d = fidelityDirection([
    [position(0.9, 0.05, 'same'), position(0.9, 0.05, 'other'), position(0.5, 0.4, 'other')],
    [position(0.45, 0.35, 'same'), position(0.45, 0.35, 'other'), position(0.45, 0.35, 'same'), position(0.75, 0.2, 'same')]
  ])
  expect(d.sure).toEqual({ positions: 3, flips: 1 })
  expect(d.unsure).toEqual({ positions: 4, flips: 2 })
  expect(d.positions).toBe(7)
  expect(d.flips).toBe(3)
  expect(d.sentence).toBe(
    'The most likely token changed at 3 of 7 positions (42.9%): 1 where the baseline was sure (margin 0.5 or more: 33.3% of those positions) and 2 where it was unsure (50.0%). With no reference answer a flip is neither won nor lost.'
  )
})

test('a different margin moves positions between the halves', () => {
  const d = fidelityDirection([[position(0.9, 0.05, 'other'), position(0.7, 0.2, 'other')]], 0.8)
  expect(d.sure).toEqual({ positions: 1, flips: 1 })
  expect(d.unsure).toEqual({ positions: 1, flips: 1 })
  expect(d.sureMargin).toBe(0.8)
})

test('no flips, only unsure flips, and nothing scored each get their own sentence', () => {
  expect(fidelityDirection([[position(0.9, 0.05, 'same')]]).sentence).toBe(
    "The candidate's most likely token was the baseline's at all 1 positions."
  )
  expect(fidelityDirection([[position(0.5, 0.4, 'other'), position(0.9, 0.05, 'same')]]).sentence).toBe(
    'The most likely token changed at 1 of 2 positions (50.0%): all where the baseline was unsure (top-1 margin below 0.5). With no reference answer a flip is neither won nor lost.'
  )
  expect(fidelityDirection([]).sentence).toBe('No positions were scored.')
})

test('a margin outside [0, 1] is refused', () => {
  expect(() => fidelityDirection([], 1.5)).toThrow('the sure margin must be in [0, 1], not 1.5')
  expect(() => fidelityDirection([], Number.NaN)).toThrow('[0, 1]')
})
