import { describe, expect, test } from '@jest/globals'
import { allocate, bucketBounds, bucketOf, pick } from '../../src/traffic/sample.js'

describe('allocate', () => {
  test('proportional by largest remainders, summing to the count', () => {
    const shares = allocate(
      new Map([
        ['a', 50],
        ['b', 30],
        ['c', 20]
      ]),
      10
    )
    expect(Object.fromEntries(shares)).toEqual({ a: 5, b: 3, c: 2 })
  })

  test('every stratum gets one when the count allows, even a tiny one', () => {
    const shares = allocate(
      new Map([
        ['big', 97],
        ['rare', 1],
        ['small', 2]
      ]),
      5
    )
    expect(shares.get('rare')).toBe(1)
    expect(shares.get('small')).toBe(1)
    expect([...shares.values()].reduce((a, b) => a + b)).toBe(5)
  })

  test('fewer than the strata: one each from the largest; more than the pool: everything', () => {
    const sizes = new Map([
      ['a', 5],
      ['b', 9],
      ['c', 7]
    ])
    expect(Object.fromEntries(allocate(sizes, 2))).toEqual({ a: 0, b: 1, c: 1 })
    expect(Object.fromEntries(allocate(sizes, 100))).toEqual({ a: 5, b: 9, c: 7 })
  })

  test('never more than a stratum has', () => {
    const shares = allocate(
      new Map([
        ['a', 2],
        ['b', 100]
      ]),
      60
    )
    expect(shares.get('a')).toBeLessThanOrEqual(2)
    expect(shares.get('a')! + shares.get('b')!).toBe(60)
  })
})

describe('pick and buckets', () => {
  test('the same seed picks the same items, another seed others, in their original order', () => {
    const items = Array.from({ length: 50 }, (_, i) => i)
    const a = pick(items, 10, 7, 'billing/short')
    expect(pick(items, 10, 7, 'billing/short')).toEqual(a)
    expect(pick(items, 10, 8, 'billing/short')).not.toEqual(a)
    expect([...a].sort((x, y) => x - y)).toEqual(a)
  })

  test('tertile bounds put a third of the lengths in each bucket', () => {
    const lengths = Array.from({ length: 30 }, (_, i) => i * 10)
    const bounds = bucketBounds(lengths)
    const counts = { short: 0, medium: 0, long: 0 }
    for (const n of lengths) counts[bucketOf(n, bounds)]++
    expect(counts).toEqual({ short: 10, medium: 10, long: 10 })
  })
})
