import { describe, expect, it } from '@jest/globals'
import { parse } from 'yaml'
import {
  checkStoppingFits,
  checkStoppingSchedule,
  describeStopping,
  parseStoppingSection,
  type StoppingContext
} from '../../src/config/sequential-section.js'
import type { GatedRun } from '../../src/config/types.js'
import { parseGateConfig } from '../../src/config/load.js'
import { Fields } from '../../src/config/validate.js'
import { ConfigError } from '../../src/errors.js'

const parsed = (yaml: string) => parseStoppingSection(Fields.of('gate.yml', '', parse(yaml)))

function refusal(run: () => unknown): ConfigError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('expected a ConfigError')
}

const RUN: GatedRun = {
  entry: 'simple_mcqa',
  match: null,
  metric: 'exact_match',
  split: null,
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
}
const CONTEXT: StoppingContext = {
  source: 'gate.yml',
  helm: { numTrainTrials: 1 },
  deployments: null,
  runs: [RUN],
  present: { traffic: false, fidelity: false }
}
const SETTINGS = { looks: [20, 40, 79], budget: 79, alpha: 0.05, seed: null }

describe('parseStoppingSection', () => {
  it('is null when the section is absent', () => {
    expect(parsed('runs: []')).toBeNull()
  })

  it('reads looks, the budget from the last look, alpha 0.05 two-sided by default', () => {
    expect(parsed('sequential: { looks: [20, 40, 79] }')).toEqual(SETTINGS)
    expect(parsed('sequential: { looks: [20, 40], budget: 79, alpha: 0.1, seed: 3 }')).toEqual({ ...SETTINGS, alpha: 0.1, seed: 3 })
    expect(describeStopping(SETTINGS)).toBe('looks 20, 40, 79 (budget 79), alpha 0.05 two-sided')
  })

  it('makes every: k looks up to the budget', () => {
    expect(parsed('sequential: { every: 30, budget: 79 }')?.looks).toEqual([30, 60, 79])
  })

  it('refuses a schedule that does not increase, naming the file, field and value', () => {
    const error = refusal(() => parsed('sequential: { looks: [20, 40, 40] }'))
    expect(error.code).toBe('sequential.looks_not_increasing')
    expect(error.location).toEqual({ file: 'gate.yml', field: 'sequential.looks[2]', value: 40 })
  })

  it('refuses a budget below the first look, and a look past it', () => {
    const low = refusal(() => parsed('sequential: { looks: [20], budget: 10 }'))
    expect(low.code).toBe('sequential.budget_below_first_look')
    expect(low.location).toEqual({ file: 'gate.yml', field: 'sequential.budget', value: 10 })
    const past = refusal(() => parsed('sequential: { looks: [20, 90], budget: 79 }'))
    expect(past.location).toEqual({ file: 'gate.yml', field: 'sequential.looks[1]', value: 90 })
  })

  it('refuses an unknown key, a bad alpha, a look that is not a whole number, both looks and every, neither', () => {
    expect(refusal(() => parsed('sequential: { looks: [20], budjet: 79 }')).location).toMatchObject({
      field: 'sequential.budjet',
      value: 79
    })
    expect(refusal(() => parsed('sequential: { looks: [20], alpha: 1 }')).location).toMatchObject({ field: 'sequential.alpha', value: 1 })
    expect(refusal(() => parsed('sequential: { looks: [20.5] }')).location).toMatchObject({ field: 'sequential.looks', value: 20.5 })
    expect(refusal(() => parsed('sequential: { looks: [20], every: 5 }')).location).toMatchObject({ field: 'sequential.every' })
    expect(refusal(() => parsed('sequential: { budget: 79 }')).location).toMatchObject({ field: 'sequential.looks' })
    expect(refusal(() => parsed('sequential: { every: 10 }')).location).toMatchObject({ field: 'sequential.budget' })
  })
})

describe('checkStoppingSchedule', () => {
  it('refuses sides held one at a time, naming the schedule', () => {
    const error = refusal(() => checkStoppingSchedule(SETTINGS, 'gate.yml', 'sequential'))
    expect(error.code).toBe('sequential.cannot_stage')
    expect(error.location).toEqual({ file: 'gate.yml', field: 'schedule', value: 'sequential' })
    expect(() => checkStoppingSchedule(SETTINGS, 'gate.yml', 'concurrent')).not.toThrow()
    expect(() => checkStoppingSchedule(null, 'gate.yml', 'sequential')).not.toThrow()
  })
})

describe('checkStoppingFits', () => {
  it('accepts a concurrent helm-run gate of max_drop checks, and anything without the section', () => {
    expect(() => checkStoppingFits(SETTINGS, CONTEXT)).not.toThrow()
    expect(() => checkStoppingFits(null, { ...CONTEXT, present: { traffic: true, fidelity: true } })).not.toThrow()
  })

  it.each([
    ['traffic', { present: { traffic: true, fidelity: false } }],
    ['fidelity', { present: { traffic: false, fidelity: true } }],
    ['helm.num_train_trials', { helm: { numTrainTrials: 3 } }],
    ['runs[0].max_relative_drop', { runs: [{ ...RUN, maxDrop: null, maxRelativeDrop: 0.05 }] }],
    ['runs[0].perturbations', { runs: [{ ...RUN, perturbations: 'gate' as const }] }],
    ['runs[0].calibration', { runs: [{ ...RUN, calibration: { metric: 'ece' as const, maxIncrease: 0.02 } }] }],
    [
      'deployments.candidate',
      {
        deployments: {
          baseline: { kind: 'prod_env' as const, localPath: 'p', deployment: 'd' },
          candidate: { kind: 'command' as const, command: ['run'], model: null, seed: 0, output: 'helm' as const }
        }
      }
    ]
  ])('refuses what it cannot stage with sequential.cannot_stage naming %s', (field, change) => {
    const error = refusal(() => checkStoppingFits(SETTINGS, { ...CONTEXT, ...change } as StoppingContext))
    expect(error.code).toBe('sequential.cannot_stage')
    expect(error.location).toMatchObject({ file: 'gate.yml', field })
  })
})

describe('sequential: in the gate file', () => {
  const gate = (extra: string) =>
    parseGateConfig(
      `version: 1
deployments:
  baseline: { api: completions, base_url: http://127.0.0.1:8001/v1, model: a }
  candidate: { api: completions, base_url: http://127.0.0.1:8002/v1, model: b }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
${extra}`,
      'gate.yml'
    )

  it('is read into the config as its stopping settings, and absent leaves the config without them', () => {
    expect(gate('sequential: { looks: [20, 40, 79] }').stopping).toEqual(SETTINGS)
    expect('stopping' in gate('')).toBe(false)
  })

  it('is refused with what it cannot stage, naming the file, field and value', () => {
    const trials = refusal(() =>
      gate('helm: { version: "0.5.16", max_eval_instances: 79, num_train_trials: 2 }\nsequential: { looks: [20, 40, 79] }')
    )
    expect(trials.code).toBe('sequential.cannot_stage')
    expect(trials.location).toEqual({ file: 'gate.yml', field: 'helm.num_train_trials', value: 2 })
    const flat = refusal(() => gate('sequential: { looks: [40, 20] }'))
    expect(flat.location).toEqual({ file: 'gate.yml', field: 'sequential.looks[1]', value: 20 })
  })
})
