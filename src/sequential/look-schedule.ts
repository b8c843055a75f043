/**
 * When a sequential gate looks at its confidence sequence: after each of increasing sample sizes,
 * and at the latest at the budget. The statistics allow any schedule (the sequence is valid at
 * every n); the schedule says where a measurement can stop, e.g. after each helm-run stage.
 */
import { ConfigError } from '../errors.js'
import { isInteger } from '../stats/math.js'

export interface LookSchedule {
  /** Sample sizes after which the gate looks, strictly increasing, each at least 1. */
  looks: number[]
  /** The most instances the gate spends; the last look is at the budget. */
  budget: number
}

/** A look schedule that cannot be run: names the field and the value. */
export class LookScheduleError extends ConfigError {}

/**
 * The schedule checked and completed: the looks strictly increasing positive whole numbers, the
 * budget a whole number at least the first look and at most `population` (when given), looks past
 * the budget refused, and the budget added as the last look when the schedule stops short of it.
 */
export function checkLookSchedule(schedule: LookSchedule, population?: number, field = 'sequential'): LookSchedule {
  const { looks, budget } = schedule
  if (!Array.isArray(looks) || looks.length === 0)
    throw new LookScheduleError('sequential.no_looks', 'The look schedule needs at least one look.', {
      field: `${field}.looks`,
      value: looks
    })
  looks.forEach((look, i) => {
    if (!isInteger(look) || look < 1)
      throw new LookScheduleError('sequential.bad_look', 'Each look must be a whole number of instances, at least 1.', {
        field: `${field}.looks[${i}]`,
        value: look
      })
    if (i > 0 && look <= looks[i - 1])
      throw new LookScheduleError(
        'sequential.looks_not_increasing',
        `The looks must increase: look ${i + 1} is not above look ${i} (${looks[i - 1]}).`,
        {
          field: `${field}.looks[${i}]`,
          value: look
        }
      )
  })
  if (!isInteger(budget) || budget < 1)
    throw new LookScheduleError('sequential.bad_budget', 'The budget must be a whole number of instances, at least 1.', {
      field: `${field}.budget`,
      value: budget
    })
  if (budget < looks[0])
    throw new LookScheduleError('sequential.budget_below_first_look', `The budget is below the first look (${looks[0]}).`, {
      field: `${field}.budget`,
      value: budget
    })
  const beyond = looks.findIndex(look => look > budget)
  if (beyond >= 0)
    throw new LookScheduleError('sequential.look_beyond_budget', `A look is past the budget (${budget}).`, {
      field: `${field}.looks[${beyond}]`,
      value: looks[beyond]
    })
  if (population !== undefined && budget > population)
    throw new LookScheduleError('sequential.budget_above_population', `The budget is above the ${population} instances there are.`, {
      field: `${field}.budget`,
      value: budget
    })
  return { looks: looks[looks.length - 1] === budget ? [...looks] : [...looks, budget], budget }
}

/** Looks every `step` instances up to the budget (the budget itself the last look). */
export function everyLooks(step: number, budget: number, field = 'sequential'): LookSchedule {
  if (!isInteger(step) || step < 1)
    throw new LookScheduleError('sequential.bad_step', 'The look step must be a whole number of instances, at least 1.', {
      field: `${field}.every`,
      value: step
    })
  const looks: number[] = []
  for (let n = step; n < budget; n += step) looks.push(n)
  looks.push(budget)
  return checkLookSchedule({ looks, budget }, undefined, field)
}
