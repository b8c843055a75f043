/**
 * The load half's schedule sentence: what happened between the sides (both up, swapped between
 * blocks, or each side in its own period and why), the same words in the console and the comment.
 */
import { describe, expect, test } from '@jest/globals'
import { renderLoadConsole } from '../../src/report/console-load.js'
import { escapeInline } from '../../src/report/escape.js'
import { loadScheduleText } from '../../src/report/load-schedule.js'
import { renderLoadMarkdown } from '../../src/report/markdown-load.js'
import type { LoadTimeline } from '../../src/model/load-report.js'
import { sampleLoad } from './markdown-load.test.js'

function timeline(over: Partial<LoadTimeline>): LoadTimeline {
  return {
    schedule: 'both-up',
    why: 'both sides are up at once',
    switches: { baseline: null, candidate: null },
    swap_cost_ms: null,
    swap_budget_seconds: 600,
    swaps: [],
    up: { baseline: [], candidate: [] },
    ...over
  }
}

const swap = (side: 'baseline' | 'candidate', before: string): { side: typeof side; before: string; ms: number } => ({
  side,
  before,
  ms: 2400
})

describe('loadScheduleText', () => {
  test('both sides up: interleaved with no swap', () => {
    expect(loadScheduleText({ interleaved: true, timeline: timeline({}) })).toBe('interleaved A B B A, both sides up at once')
    expect(loadScheduleText({ interleaved: true })).toBe('interleaved A B B A, both sides up at once')
  })

  test('swapped between blocks: says so, with the swaps counted and their cost', () => {
    const swaps = [swap('candidate', 'block 2/8'), swap('baseline', 'block 4/8'), swap('candidate', 'block 6/8')]
    const text = loadScheduleText({ interleaved: true, timeline: timeline({ schedule: 'swapped', swaps, swap_cost_ms: 2400 }) })
    expect(text).toBe('interleaved A B B A, the launched sides swapped before each block of the other side (3 swaps, median 2.4 s each)')
    const one = loadScheduleText({
      interleaved: true,
      timeline: timeline({ schedule: 'swapped', swaps: swaps.slice(0, 1), swap_cost_ms: null })
    })
    expect(one).toBe('interleaved A B B A, the launched sides swapped before each block of the other side (1 swap)')
  })

  test('periods: never called interleaved, and says why', () => {
    const why = 'swapping would take 40 swaps at 30.0 s each, over load.swap_budget_seconds (600 s)'
    const text = loadScheduleText({ interleaved: false, timeline: timeline({ schedule: 'periods', why }) })
    expect(text).toBe(`not interleaved: each side measured in its own period (${why})`)
    expect(text).not.toContain('A B B A')
  })

  test('the console and the comment carry the same sentence', () => {
    const load = sampleLoad({
      interleaved: true,
      timeline: timeline({ schedule: 'swapped', swaps: [swap('candidate', 'block 2/6')], swap_cost_ms: 1000 })
    })
    const sentence = loadScheduleText(load)
    expect(renderLoadConsole(load).join('\n')).toContain(`schedule: 3 blocks per side per level, ${sentence}`)
    // The comment escapes the markdown in it (the parentheses), nothing else.
    expect(renderLoadMarkdown(load).join('\n')).toContain(escapeInline(sentence, 400))
  })
})
