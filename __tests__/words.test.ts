/** counted(): the one owner of counted words. */
import { describe, expect, it } from '@jest/globals'
import { chosen, counted } from '../src/words.js'

describe('counted', () => {
  it('uses the singular for exactly one and the plural otherwise, zero included', () => {
    expect(counted(1, 'entry', 'entries')).toBe('1 entry')
    expect(counted(0, 'entry', 'entries')).toBe('0 entries')
    expect(counted(2, 'request')).toBe('2 requests')
    expect(counted(1, 'request')).toBe('1 request')
  })

  it('formats the number with the given formatter', () => {
    expect(counted(12345, 'instance', undefined, n => n.toLocaleString('en-US'))).toBe('12,345 instances')
  })
})

describe('chosen', () => {
  it('picks the words that agree with the count', () => {
    expect(chosen(1, 'its score is', 'their scores are')).toBe('its score is')
    expect(chosen(3, 'its score is', 'their scores are')).toBe('their scores are')
  })
})
