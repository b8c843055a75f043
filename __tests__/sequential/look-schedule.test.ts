import { describe, expect, it } from '@jest/globals'
import { ConfigError } from '../../src/errors.js'
import { checkLookSchedule, everyLooks, LookScheduleError } from '../../src/sequential/look-schedule.js'

function refusal(run: () => unknown): LookScheduleError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(LookScheduleError)
    expect(error).toBeInstanceOf(ConfigError)
    return error as LookScheduleError
  }
  throw new Error('expected a LookScheduleError')
}

describe('checkLookSchedule', () => {
  it('adds the budget as the last look', () => {
    expect(checkLookSchedule({ looks: [50, 100], budget: 120 })).toEqual({ looks: [50, 100, 120], budget: 120 })
    expect(checkLookSchedule({ looks: [50, 120], budget: 120 })).toEqual({ looks: [50, 120], budget: 120 })
  })

  it('names the look that does not increase', () => {
    const error = refusal(() => checkLookSchedule({ looks: [50, 100, 100], budget: 200 }))
    expect(error.code).toBe('sequential.looks_not_increasing')
    expect(error.location).toEqual({ field: 'sequential.looks[2]', value: 100 })
    expect(error.describe()).toContain('field: sequential.looks[2], value: 100')
  })

  it('names a budget below the first look', () => {
    const error = refusal(() => checkLookSchedule({ looks: [50], budget: 40 }))
    expect(error.code).toBe('sequential.budget_below_first_look')
    expect(error.location).toEqual({ field: 'sequential.budget', value: 40 })
  })

  it('refuses looks past the budget, a budget past the population, no looks and bad numbers', () => {
    expect(refusal(() => checkLookSchedule({ looks: [50, 300], budget: 200 })).location).toEqual({
      field: 'sequential.looks[1]',
      value: 300
    })
    expect(refusal(() => checkLookSchedule({ looks: [50], budget: 600 }, 500)).code).toBe('sequential.budget_above_population')
    expect(refusal(() => checkLookSchedule({ looks: [], budget: 10 })).code).toBe('sequential.no_looks')
    expect(refusal(() => checkLookSchedule({ looks: [0.5], budget: 10 })).location).toEqual({ field: 'sequential.looks[0]', value: 0.5 })
    expect(refusal(() => checkLookSchedule({ looks: [5], budget: Number.NaN })).code).toBe('sequential.bad_budget')
  })

  it('uses the caller field path', () => {
    expect(refusal(() => checkLookSchedule({ looks: [2, 1], budget: 5 }, undefined, 'runs[0].sequential')).location.field).toBe(
      'runs[0].sequential.looks[1]'
    )
  })
})

describe('everyLooks', () => {
  it('looks every step and at the budget', () => {
    expect(everyLooks(25, 100).looks).toEqual([25, 50, 75, 100])
    expect(everyLooks(40, 100).looks).toEqual([40, 80, 100])
    expect(refusal(() => everyLooks(0, 100)).code).toBe('sequential.bad_step')
  })
})
