import { describe, expect, it } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { augmentationOf, perturbationFamilies } from '../../src/config/holistic-families.js'
import { ConfigError } from '../../src/errors.js'

const RUNS = `runs:
  - {entry: simple_mcqa, metric: exact_match, max_drop: 0.05, calibration: {metric: ece, max_increase: 0.02}, answer_length_ratio: {max: 1.25}}
  - {entry: "simple_mcqa:data_augmentation=robustness", metric: exact_match, max_drop: 0.05, perturbations: gate, calibration: {max_increase: 0.02}, answer_length_ratio: {max: 1.25}}
`

function refusal(text: string): ConfigError {
  try {
    parseGateConfig(text, 'gate.yml')
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('the gate file was accepted')
}

describe('require: the holistic grid cells a gate file requires', () => {
  it('is absent by default, and kept in order when every entry can gate each family', () => {
    expect(parseGateConfig(RUNS, 'gate.yml').require).toBeUndefined()
    const config = parseGateConfig(`${RUNS}require: [calibration, accuracy, answer_length]\n`, 'gate.yml')
    expect(config.require).toEqual(['calibration', 'accuracy', 'answer_length'])
  })

  it('refuses an unknown family, a repeat and a non-list, naming require[j] and the value', () => {
    const unknown = refusal(`${RUNS}require: [calibraton]\n`)
    expect(unknown.location).toMatchObject({ file: 'gate.yml', field: 'require[0]', value: 'calibraton' })
    expect(unknown.message).toContain('must be one of accuracy, calibration')
    expect(refusal(`${RUNS}require: [accuracy, accuracy]\n`).location).toMatchObject({ field: 'require[1]', value: 'accuracy' })
    expect(refusal(`${RUNS}require: calibration\n`).location.field).toBe('require')
  })

  it.each([
    ['robustness', 'simple_mcqa adds no robustness perturbation'],
    ['fairness', 'adds no fairness perturbation'],
    ['bias', 'computed over a whole run, not per instance'],
    ['toxicity', 'gates no toxicity metric'],
    ['efficiency', 'gate speed with the performance half (load:)'],
    ['fidelity', 'no fidelity: section']
  ])('refuses %s when the gate file cannot gate it, saying why', (family, why) => {
    const error = refusal(`${RUNS}require: [accuracy, ${family}]\n`)
    expect(error.code).toBe('config.required_unmeasurable')
    expect(error.location).toMatchObject({ file: 'gate.yml', field: 'require[1]', value: family })
    expect(error.message).toContain(why)
  })

  it('refuses a family some entry only shows: perturbations report, no calibration check, no band', () => {
    const shownOnly = refusal(`runs:
  - {entry: "simple_mcqa:data_augmentation=robustness", metric: exact_match, max_drop: 0.05}
require: [robustness]
`)
    expect(shownOnly.message).toContain('runs[0].perturbations is report')
    const noCheck = refusal(`runs:
  - {entry: simple_mcqa, metric: exact_match, max_drop: 0.05, calibration: {max_increase: 0.02}}
  - {entry: synthetic_reasoning, metric: exact_match, max_drop: 0.05}
require: [calibration]
`)
    expect(noCheck.message).toContain('synthetic_reasoning has no calibration check (runs[1].calibration)')
    expect(noCheck.message).not.toContain('simple_mcqa has no')
  })

  it('accepts robustness on an entry whose augmentation makes it and whose perturbed rows gate', () => {
    const config = parseGateConfig(
      `runs:
  - {entry: "simple_mcqa:data_augmentation=robustness", metric: exact_match, max_drop: 0.05, perturbations: gate}
require: [robustness]
`,
      'gate.yml'
    )
    expect(config.require).toEqual(['robustness'])
  })
})

describe('perturbation families of an entry', () => {
  it.each([
    ['simple_mcqa', null, []],
    ['simple_mcqa:data_augmentation=robustness', 'robustness', ['robustness']],
    ['simple_mcqa:num_train_trials=1,data_augmentation=misspelling_sweep', 'misspelling_sweep', ['robustness']],
    ['boolq:data_augmentation=dialect_deterministic', 'dialect_deterministic', ['fairness']],
    ['boolq:data_augmentation=canonical', 'canonical', ['robustness', 'fairness']],
    ['boolq:data_augmentation=something_new', 'something_new', []]
  ])('%s', (entry, augmentation, families) => {
    expect(augmentationOf(entry)).toBe(augmentation)
    expect(perturbationFamilies(entry)).toEqual(families)
  })
})
