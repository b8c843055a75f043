/**
 * The pure parts of the load half for launched sides up one at a time: the block plan (A B B A at
 * each level, or one period per side), the swaps a plan needs, the choice between swapping and
 * one period per side, and the client CPU warning.
 */
import { describe, expect, test } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import type { LoadSettings } from '../../src/config/load-types.js'
import { blockPlan, chooseSchedule, swapsNeeded } from '../../src/load/block-schedule.js'
import { clientCpuWarning } from '../../src/load/finish-load.js'
import type { LoadBlock, SwapRecord } from '../../src/model/load-report.js'
import { gateText } from './load-helpers.js'

function settings(extra = ''): LoadSettings {
  const text = gateText(
    'http://127.0.0.1:9/v1',
    'http://127.0.0.1:10/v1',
    `concurrency: [1, 4]\nrequests_per_level: 8\nrepetitions: 4${extra}`
  )
  return parseGateConfig(text, 'gate.yml').load as LoadSettings
}

const restart = { switches: { baseline: 'restart', candidate: 'restart' } } as const
const swaps = (...ms: number[]): SwapRecord[] => ms.map(m => ({ side: 'baseline', before: 'the probe', ms: m }))

describe('blockPlan', () => {
  test('swapped: A B B A ... at each level, positions within the level', () => {
    const plan = blockPlan(settings(), 'swapped')
    expect(plan.map(b => `${b.level}:${b.side[0]}${b.position}`).join(' ')).toBe(
      '1:b0 1:c1 1:c2 1:b3 1:b4 1:c5 1:c6 1:b7 4:b0 4:c1 4:c2 4:b3 4:b4 4:c5 4:c6 4:b7'
    )
    expect(plan.every(b => b.total === 8)).toBe(true)
  })

  test('periods: every level of the baseline, then every level of the candidate', () => {
    const plan = blockPlan(settings(), 'periods')
    expect(plan.map(b => `${b.side[0]}${b.level}:${b.position}`).join(' ')).toBe(
      'b1:0 b1:1 b1:2 b1:3 b4:0 b4:1 b4:2 b4:3 c1:4 c1:5 c1:6 c1:7 c4:4 c4:5 c4:6 c4:7'
    )
  })

  test('swaps needed: one per side change after the baseline is up', () => {
    expect(swapsNeeded(blockPlan(settings(), 'swapped'))).toBe(8)
    expect(swapsNeeded(blockPlan(settings(), 'periods'))).toBe(1)
    expect(swapsNeeded([{ side: 'baseline' }, { side: 'baseline' }])).toBe(0)
  })
})

describe('chooseSchedule', () => {
  test('within the budget: swapped, with the count and the measured cost', () => {
    const chosen = chooseSchedule(restart, settings('\nswap_budget_seconds: 20'), swaps(2000, 2400, 9000))
    expect(chosen.schedule).toBe('swapped')
    expect(chosen.why).toContain('8 swaps at 2.4 s each (measured), within load.swap_budget_seconds (20 s)')
  })

  test('over the budget: one period per side, saying the estimate', () => {
    const chosen = chooseSchedule(restart, settings('\nswap_budget_seconds: 19'), swaps(2400))
    expect(chosen).toEqual({
      schedule: 'periods',
      why: 'swapping is over budget: 8 swaps at 2.4 s each (measured) would take 19 s, more than load.swap_budget_seconds (19 s)'
    })
  })

  test('a side that cannot be swapped: one period per side whatever the budget', () => {
    const chosen = chooseSchedule({ switches: { baseline: 'sleep', candidate: 'none' } }, settings(), swaps(1))
    expect(chosen).toEqual({ schedule: 'periods', why: 'swapping is impossible: deployments.candidate.launch.switch is none' })
  })

  test('the default budget is 600 s', () => {
    expect(settings().swapBudgetSeconds).toBe(600)
    expect(chooseSchedule(restart, settings(), swaps(75_000)).schedule).toBe('swapped')
    expect(chooseSchedule(restart, settings(), swaps(75_001)).schedule).toBe('periods')
  })
})

describe('clientCpuWarning', () => {
  const block = (share: number): LoadBlock => ({ client_cpu_share: share }) as LoadBlock
  test('silent at or below the share, a warning naming the worst block above it', () => {
    expect(clientCpuWarning([block(0.1), block(0.25)], 0.25, 2)).toBeNull()
    const warning = clientCpuWarning([block(0.1), block(0.4), block(0.3)], 0.25, 2)
    expect(warning).toMatch(/^The load client used more than 25 % of the host's CPU time \(2 cores\) in 2 of 3 blocks \(at most 40 %\)/)
    expect(warning).toContain('taskset')
  })

  test('the gate file states the share; out of range is refused', () => {
    expect(settings('\nclient_cpu_warn_share: 0.5').clientCpuWarnShare).toBe(0.5)
    expect(() => settings('\nclient_cpu_warn_share: 2')).toThrow(/client_cpu_warn_share/)
  })
})
