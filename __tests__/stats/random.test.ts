import { describe, expect, it } from '@jest/globals'
import seedrandom from 'seedrandom'
import { UsageError } from '../../src/errors.js'
import { createRandom, uniformBelow } from '../../src/stats/random.js'

function firstDraws(seed: number, stream = '', count = 1000): number[] {
  const rng = createRandom(seed, stream)
  return Array.from({ length: count }, () => rng.int32())
}

describe('createRandom', () => {
  it('gives the same stream for the same seed and different streams otherwise', () => {
    expect(firstDraws(7)).toEqual(firstDraws(7))
    expect(firstDraws(7)).not.toEqual(firstDraws(8))
    expect(firstDraws(7)).not.toEqual(firstDraws(7, 'ratio-0.5'))
  })

  it("is seedrandom's xor4096 seeded with the documented string", () => {
    const reference = seedrandom.xor4096('helm-gate:3')
    const expected = Array.from({ length: 50 }, () => reference.int32())
    expect(firstDraws(3, '', 50)).toEqual(expected)
  })

  it("matches Brent's xorgens reference stream (the value documented in seedrandom's xor4096.js)", () => {
    // A numeric key gives the sequence of Brent's C implementation; this pins the library version.
    const prng = seedrandom.xor4096(1 as unknown as string)
    expect(prng.double()).toBe(0.1520436450538547)
    expect(prng.int32()).toBe(1806534897)
  })

  it('keeps the published stream of seed 0 (a change here changes every report)', () => {
    // Pinned on first delivery: the same numbers must come out on every machine and Node version.
    expect(firstDraws(0, '', 4)).toEqual(PINNED_SEED_0)
  })

  it('rejects a non-finite seed', () => {
    expect(() => createRandom(Number.NaN)).toThrow(UsageError)
  })

  it('draws doubles in (0, 1)', () => {
    const rng = createRandom(1)
    let outside = 0
    let total = 0
    for (let i = 0; i < 10000; i++) {
      const u = rng.double()
      if (!(u > 0 && u < 1)) outside++
      total += u
    }
    expect(outside).toBe(0)
    // Mean of 10,000 uniforms: sd 0.0029.
    expect(Math.abs(total / 10000 - 0.5)).toBeLessThan(0.012)
  })
})

describe('uniformBelow', () => {
  it('stays in range', () => {
    const rng = createRandom(2)
    for (const n of [1, 2, 3, 7, 1000, 2 ** 32]) {
      let bad = 0
      for (let i = 0; i < 200; i++) {
        const k = rng.below(n)
        if (!(Number.isInteger(k) && k >= 0 && k < n)) bad++
      }
      expect(bad).toBe(0)
    }
  })

  it('is unbiased where plain modulo is not', () => {
    // n = 3 * 2^30: u % n would give the first third of [0, n) twice the weight of the others
    // (probability 1/2 instead of 1/3). Rejection must give each third 1/3.
    const n = 3 * 2 ** 30
    const draws = 30000
    const rng = createRandom(4)
    const thirds = [0, 0, 0]
    for (let i = 0; i < draws; i++) thirds[Math.floor(rng.below(n) / 2 ** 30)]++
    const expected = draws / 3
    const chiSquare = thirds.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0)
    // chi-square with 2 degrees of freedom: P(> 13.8) = 0.001. Plain modulo would give about 2500.
    expect(chiSquare).toBeLessThan(13.8)
  })

  it('maps accepted 32-bit draws to buckets and rejects the incomplete last bucket', () => {
    // n = 10: bucket = floor(2^32 / 10) = 429496729, limit = 4294967290.
    const values = [429496729 * 7 + 1, 0xffffffff | 0, 4294967289 | 0, 0]
    let next = 0
    const draw = () => values[next++]
    expect([uniformBelow(draw, 10), uniformBelow(draw, 10), uniformBelow(draw, 10)]).toEqual([7, 9, 0])
  })
})

const PINNED_SEED_0 = [-946282448, -524699520, 1466608542, -879291097]
