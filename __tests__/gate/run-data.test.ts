import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { exampleKey, fillExampleTexts, loadExampleTexts, loadRunData } from '../../src/gate/run-data.js'
import type { ChangedExample, Comparison } from '../../src/model/report.js'
import { readRunDirectory } from '../../src/helm/read/discover.js'
import { BASELINE_SUITE, MCQA_RUN } from '../helm/read/fixtures.js'

describe('loadRunData', () => {
  const wanted = new Set([exampleKey({ instanceId: 'id38', trainTrialIndex: 0, perturbation: null })])

  it('keeps text excerpts of a run of ordinary size, so examples need no second read', async () => {
    const data = await loadRunData(await readRunDirectory(join(BASELINE_SUITE, MCQA_RUN)))
    expect(data.hasTexts).toBe(true)
    expect(data.requestStates!.some(s => s.inputExcerpt !== '')).toBe(true)
    const texts = await loadExampleTexts(data, wanted)
    expect(texts.get([...wanted][0])!.inputExcerpt).toMatch(/even or odd/)
  })

  it('drops the excerpts past the limit and reads just the wanted ones again', async () => {
    const data = await loadRunData(await readRunDirectory(join(BASELINE_SUITE, MCQA_RUN)), 3)
    expect(data.hasTexts).toBe(false)
    expect(data.requestStates!.length).toBe(10)
    expect(data.requestStates!.every(s => s.inputExcerpt === '' && s.outputExcerpt === '')).toBe(true)
    const texts = await loadExampleTexts(data, wanted)
    expect(texts.size).toBe(1)
    expect(texts.get([...wanted][0])!.inputExcerpt).toMatch(/even or odd/)
  })

  it('exposes clean and perturbed values with unmeasurable ones as null', async () => {
    const data = await loadRunData(
      await readRunDirectory(join(BASELINE_SUITE, 'simple_mcqa_model=simple_model1,data_augmentation=robustness'))
    )
    const values = data.values('exact_match', 'test')
    expect(values.filter(v => v.perturbation === null)).toHaveLength(10)
    expect(values.filter(v => v.perturbation === 'mild_mix')).toHaveLength(10)
    expect(data.values('training_co2_cost', 'test').every(v => v.value === null)).toBe(true)
    expect(data.metricNames()).toContain('exact_match')
  })
})

describe('fillExampleTexts', () => {
  it('hides a credential a prompt carries or a model echoes: the report and the comment show the rest', () => {
    const example = { instance_id: 'id1', train_trial_index: 0 } as ChangedExample
    const built = [{ examples: [example] } as unknown as Comparison]
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'
    const text = (output: string) => ({
      inputExcerpt: `Log in with password: hunter2hunter2`,
      referenceExcerpt: 'ok',
      outputExcerpt: output
    })
    fillExampleTexts(built, () => 'k', new Map([['k', text(`Your token is ${jwt}.`)]]), new Map([['k', text('I cannot help.')]]))
    expect(example.input).toBe('Log in with password: ***')
    expect(example.baseline_output).toBe('Your token is ***.')
    expect(example.candidate_output).toBe('I cannot help.')
    expect(example.reference).toBe('ok')
  })
})
