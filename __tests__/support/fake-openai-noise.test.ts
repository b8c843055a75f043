/**
 * The fake OpenAI server's noise with a noise seed (`--noise-seed`, used by `npm run demo`): the
 * n-th asking of a text gets the same draw on every run, whatever other texts arrive in between,
 * so a demo whose candidate "changes a few answers at random" gives the same verdict every time.
 */
import { describe, expect, it } from '@jest/globals'
// @ts-expect-error: a plain ESM module of the test support, without types
import { noiseDraw, unitHash } from '../../test-support/fake-openai/answers.mjs'

const draw = noiseDraw as (seed: number | null, salt: string, text: string) => number
const hash = unitHash as (seed: string, text: string) => number

describe('noiseDraw', () => {
  it('with a seed, depends only on the seed, the salt, the text and how often the text was asked', () => {
    const first = [draw(7, 'noise', 'alpha'), draw(7, 'noise', 'beta'), draw(7, 'noise', 'alpha')]
    // Another order of arrival: beta first, then alpha twice. Fresh texts, so the counts start at 0.
    const second = [draw(7, 'noise', 'beta-2'), draw(7, 'noise', 'alpha-2'), draw(7, 'noise', 'alpha-2')]
    expect(first).toEqual([hash('7:noise:0', 'alpha'), hash('7:noise:0', 'beta'), hash('7:noise:1', 'alpha')])
    expect(second).toEqual([hash('7:noise:0', 'beta-2'), hash('7:noise:0', 'alpha-2'), hash('7:noise:1', 'alpha-2')])
    // The second asking of a text differs from the first (a baseline replayed twice has a noise floor).
    expect(first[0]).not.toBe(first[2])
  })

  it('keeps each salt and seed apart', () => {
    expect(draw(7, 'answer', 'gamma')).toBe(hash('7:answer:0', 'gamma'))
    expect(draw(8, 'answer', 'gamma')).toBe(hash('8:answer:0', 'gamma'))
    expect(hash('7:answer:0', 'gamma')).not.toBe(hash('8:answer:0', 'gamma'))
  })

  it('without a seed, draws afresh in [0, 1)', () => {
    const draws = Array.from({ length: 20 }, () => draw(null, 'noise', 'delta'))
    for (const value of draws) expect(value >= 0 && value < 1).toBe(true)
    expect(new Set(draws).size).toBeGreaterThan(1)
  })
})
