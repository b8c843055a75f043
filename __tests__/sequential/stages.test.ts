import { describe, expect, it } from '@jest/globals'
import { GuardError } from '../../src/errors.js'
import { LookScheduleError } from '../../src/sequential/look-schedule.js'
import { planStages, stageArgs, stageOrder, StagedRunError, StagePlanError, type StagePlan } from '../../src/sequential/stages.js'

const POPULATION = { entry: 'simple_mcqa', evalInstances: 79, comparedInstances: 79 }

function refusal<T extends Error>(kind: new (...args: never[]) => T, run: () => unknown): T {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(kind)
    return error as T
  }
  throw new Error(`expected a ${kind.name}`)
}

const ids = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `id${from + i}`)

describe('planStages', () => {
  it('gives one helm-run stage per look, the budget last', () => {
    const plan = planStages(POPULATION, { looks: [5, 20], budget: 40 })
    expect(plan.population).toBe(79)
    expect(plan.stages.map(stage => [stage.index, stage.look, stage.maxEvalInstances])).toEqual([
      [1, 5, 5],
      [2, 20, 20],
      [3, 40, 40]
    ])
    expect(plan.stages[2].args).toEqual(['--max-eval-instances', '40'])
  })

  it('refuses a schedule that does not increase or a budget below the first look, naming the file and field', () => {
    const flat = refusal(LookScheduleError, () => planStages(POPULATION, { looks: [5, 5], budget: 40 }, { file: 'gate.yml' }))
    expect(flat.code).toBe('sequential.looks_not_increasing')
    expect(flat.location).toEqual({ file: 'gate.yml', field: 'sequential.looks[1]', value: 5 })
    const low = refusal(LookScheduleError, () =>
      planStages(POPULATION, { looks: [10], budget: 4 }, { file: 'gate.yml', field: 'runs[0].sequential' })
    )
    expect(low.code).toBe('sequential.budget_below_first_look')
    expect(low.describe()).toBe('The budget is below the first look (10). (file: gate.yml, field: runs[0].sequential.budget, value: 4)')
  })

  it('refuses a budget above the instances there are', () => {
    const error = refusal(LookScheduleError, () => planStages(POPULATION, { looks: [10], budget: 80 }))
    expect(error.code).toBe('sequential.budget_above_population')
    expect(error.location).toEqual({ field: 'sequential.budget', value: 80 })
  })

  it('refuses an entry whose evaluation instances span several splits', () => {
    // synthetic_reasoning: --max-eval-instances 40 gave 18 test and 22 valid instances.
    const error = refusal(StagePlanError, () =>
      planStages(
        { entry: 'synthetic_reasoning:mode=pattern_match', evalInstances: 10000, comparedInstances: 5000 },
        { looks: [20], budget: 40 },
        { file: 'gate.yml' }
      )
    )
    expect(error.code).toBe('sequential.split_cannot_stage')
    expect(error.location).toEqual({ file: 'gate.yml', field: 'sequential.looks', value: [20] })
    expect(error.message).toContain('synthetic_reasoning:mode=pattern_match')
  })

  it('refuses an unknown or empty population', () => {
    expect(refusal(StagePlanError, () => planStages({ ...POPULATION, comparedInstances: null }, { looks: [5], budget: 5 })).code).toBe(
      'sequential.unknown_population'
    )
    expect(
      refusal(StagePlanError, () => planStages({ ...POPULATION, evalInstances: 0, comparedInstances: 0 }, { looks: [5], budget: 5 }))
        .location
    ).toEqual({
      field: 'sequential.budget',
      value: 0
    })
  })
})

describe('stageArgs', () => {
  const plan = planStages(POPULATION, { looks: [5], budget: 20 })
  it('sets the stage size and a suite of its own, keeping every other argument in order', () => {
    const args = ['--run-entries', 'a', 'b', '--suite', 'baseline-1', '--max-eval-instances', '100', '--disable-cache']
    expect(stageArgs(args, plan.stages[1])).toEqual([
      '--run-entries',
      'a',
      'b',
      '--suite',
      'baseline-1-stage2',
      '--max-eval-instances',
      '20',
      '--disable-cache'
    ])
    expect(args[6]).toBe('100')
  })

  it('adds the stage size when the arguments have none', () => {
    expect(stageArgs(['--run-entries', 'a'], plan.stages[0])).toEqual(['--run-entries', 'a', '--max-eval-instances', '5'])
  })
})

describe('stageOrder', () => {
  const plan: StagePlan = planStages({ entry: 'custom_mcqa', evalInstances: 40, comparedInstances: 40 }, { looks: [4, 10], budget: 40 })
  const stages = [ids(4), ids(10), ids(40)]

  it('takes each stage before the next, each stage in a seeded order of its own', () => {
    const order = stageOrder(plan, { baseline: stages, candidate: stages.map(stage => [...stage].reverse()) }, 7)
    expect(order).toHaveLength(40)
    expect(new Set(order).size).toBe(40)
    expect(new Set(order.slice(0, 4))).toEqual(new Set(ids(4)))
    expect(new Set(order.slice(4, 10))).toEqual(new Set(ids(6, 4)))
    // The listing order of HELM's files does not matter, the seed does.
    expect(stageOrder(plan, { baseline: stages.map(stage => [...stage].reverse()), candidate: stages }, 7)).toEqual(order)
    expect(stageOrder(plan, { baseline: stages, candidate: stages }, 8)).not.toEqual(order)
    // The last stage keeps every instance: its 30 new ones are not left in the data's order.
    expect(order.slice(10)).not.toEqual(ids(30, 10))
  })

  it('orders the stages run so far, a prefix of the whole order', () => {
    const whole = stageOrder(plan, { baseline: stages, candidate: stages }, 3)
    expect(stageOrder(plan, { baseline: stages.slice(0, 2), candidate: stages.slice(0, 2) }, 3)).toEqual(whole.slice(0, 10))
  })

  it('refuses stages that do not nest', () => {
    const broken = [ids(4), ids(10, 1), ids(40)]
    const error = refusal(StagedRunError, () => stageOrder(plan, { baseline: broken, candidate: broken }, 1))
    expect(error).toBeInstanceOf(GuardError)
    expect(error.code).toBe('sequential.stages_not_nested')
    expect(error.location).toEqual({ field: 'stages[1]', value: 'id0' })
  })

  it('refuses sides with different instances, a stage of the wrong size, a repeated id and a missing stage', () => {
    const other = [ids(4), [...ids(9), 'other'], ids(40)]
    expect(refusal(StagedRunError, () => stageOrder(plan, { baseline: stages, candidate: other }, 1)).location).toEqual({
      field: 'stages[1]',
      value: 'id9'
    })
    const short = refusal(StagedRunError, () => stageOrder(plan, { baseline: [ids(3)], candidate: [ids(3)] }, 1))
    expect(short.code).toBe('sequential.stage_size')
    expect(short.location).toEqual({ field: 'baseline.stages[0]', value: 3 })
    expect(refusal(StagedRunError, () => stageOrder(plan, { baseline: [[...ids(3), 'id0']], candidate: [ids(4)] }, 1)).code).toBe(
      'sequential.repeated_instance'
    )
    expect(refusal(StagedRunError, () => stageOrder(plan, { baseline: stages, candidate: stages.slice(0, 2) }, 1)).code).toBe(
      'sequential.stage_missing'
    )
    expect(refusal(StagedRunError, () => stageOrder(plan, { baseline: [...stages, ids(41)], candidate: stages }, 1)).code).toBe(
      'sequential.too_many_stages'
    )
  })
})
