import { describe, expect, it } from '@jest/globals'
import { formatFlips } from '../../src/report/format.js'
import { makeComparison } from './make-report.js'

describe('formatFlips', () => {
  it('calls values that went up won (0/1) or improved (continuous) for higher-is-better metrics', () => {
    expect(formatFlips(makeComparison({ binary: true, wins: 3, losses: 1 }))).toBe('3 won, 1 lost')
    expect(formatFlips(makeComparison({ binary: false, wins: 3, losses: 1 }))).toBe('3 improved, 1 worsened')
  })

  it('mirrors the words for lower-is-better metrics, where a value going up is a loss', () => {
    // `wins` and `losses` in the JSON count values that went up (0 -> 1) and down (1 -> 0); an
    // error rate that went up on 3 instances got worse there.
    const lower = { direction: 'lower' as const, wins: 3, losses: 1 }
    expect(formatFlips(makeComparison({ ...lower, binary: true }))).toBe('1 won, 3 lost')
    expect(formatFlips(makeComparison({ ...lower, binary: false }))).toBe('1 improved, 3 worsened')
  })
})
