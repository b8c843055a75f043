import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readRunDirectory } from '../../../src/helm/read/discover.js'
import { collectRequestStates, excerpt, readRequestStates } from '../../../src/helm/read/request-states.js'
import { ALTERED_SUITE, BASELINE_SUITE, LEGACY_SUITE, MCQA_RUN, REASONING_RUN, ROBUSTNESS_RUN } from './fixtures.js'

interface RawState {
  instance: { id: string; input: { text: string }; references: { output: { text: string }; tags: string[] }[] }
  request: { prompt: string }
  result: { cached: boolean; request_time: number; completions: { text: string }[] }
  output_mapping?: Record<string, string>
}

async function raw(run: string): Promise<{ adapter_spec: unknown; request_states: RawState[] }> {
  return JSON.parse(await readFile(join(run, 'scenario_state.json'), 'utf8'))
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

describe('request-state summaries of real 0.5.16 runs', () => {
  it('summarises every request state like an independent reading of the file', async () => {
    for (const name of [MCQA_RUN, ROBUSTNESS_RUN, REASONING_RUN]) {
      const dir = join(BASELINE_SUITE, name)
      const expected = await raw(dir)
      const { summaries, adapterSpec, requestStates } = await collectRequestStates(await readRunDirectory(dir))
      expect(adapterSpec).toEqual(expected.adapter_spec)
      expect(requestStates).toBe(expected.request_states.length)
      summaries.forEach((summary, i) => {
        const state = expected.request_states[i]
        expect(summary.instanceId).toBe(state.instance.id)
        expect(summary.promptHash).toBe(sha256(state.request.prompt))
        expect(summary.cached).toBe(false)
        expect(summary.success).toBe(true)
        expect(summary.error).toBeNull()
        expect(summary.requestTime).toBe(state.result.request_time)
        expect(summary.inputExcerpt).toBe(excerpt(state.instance.input.text, 200))
        const correct = state.instance.references.filter(r => r.tags.includes('correct')).map(r => r.output.text)
        expect(summary.referenceExcerpt).toBe(excerpt(correct.join(' | '), 200))
      })
    }
  })

  it('maps joint multiple-choice answers through output_mapping', async () => {
    const { summaries } = await collectRequestStates(join(ALTERED_SUITE, MCQA_RUN, 'scenario_state.json'))
    const id38 = summaries.find(s => s.instanceId === 'id38')!
    expect(id38.outputExcerpt).toBe(id38.referenceExcerpt)
    expect(['Even', 'Odd']).toContain(id38.outputExcerpt)
    // An answer outside the mapping is shown as written.
    const id60 = summaries.find(s => s.instanceId === 'id60')!
    expect(id60.outputExcerpt).toBe('Answer:')
  })

  it('gives perturbed request states their perturbation', async () => {
    const { summaries } = await collectRequestStates(join(BASELINE_SUITE, ROBUSTNESS_RUN, 'scenario_state.json'))
    const perturbed = summaries.filter(s => s.perturbation !== null)
    expect(perturbed).toHaveLength(10)
    expect(perturbed[0].perturbation).toMatchObject({ name: 'mild_mix', robustness: true })
    expect(perturbed.every(s => s.inputExcerpt === s.inputExcerpt.toLowerCase())).toBe(true)
  })

  it('gives the same summaries whatever the chunk size, in file order', async () => {
    const file = join(BASELINE_SUITE, REASONING_RUN, 'scenario_state.json')
    const whole = await collectRequestStates(file)
    const seen: number[] = []
    const small = await collectRequestStates(file, { chunkSize: 7 })
    await readRequestStates(file, async (_, index) => void seen.push(index), { chunkSize: 1 })
    expect(small.summaries).toEqual(whole.summaries)
    expect(seen).toEqual(whole.summaries.map((_, i) => i))
  })

  it('bounds excerpts without splitting surrogate pairs', () => {
    expect(excerpt('short', 10)).toBe('short')
    expect(excerpt('abcdefghijk', 10)).toBe('abcdefghi…')
    expect(excerpt('😀😀😀😀😀😀', 4)).toBe('😀😀😀…')
    expect(excerpt('😀😀', 2)).toBe('😀😀')
  })
})

describe('other request shapes', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'request-states-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const baseState = {
    instance: { input: { text: 'q' }, references: [], split: 'test', id: 'id1' },
    train_trial_index: 0,
    request: { model_deployment: 'a/b', model: 'a/b', prompt: '', messages: [{ role: 'user', content: 'hi' }] }
  }

  it('hashes messages when the prompt is empty and accepts a missing result (dry run)', async () => {
    const file = join(dir, 'chat.json')
    await writeFile(file, JSON.stringify({ adapter_spec: {}, request_states: [baseState] }))
    const { summaries } = await collectRequestStates(file)
    expect(summaries[0]).toMatchObject({ cached: null, success: null, error: null, requestTime: null, outputExcerpt: '' })
    expect(summaries[0].promptHash).toBe(sha256(JSON.stringify(baseState.request.messages)))
  })

  it('reports a non-fatal error answer and separate multiple-choice reference indices', async () => {
    const file = join(dir, 'error.json')
    const state = {
      ...baseState,
      reference_index: 2,
      result: { success: false, error: 'content filter', completions: [{ text: '', logprob: 0, tokens: [] }], cached: false }
    }
    await writeFile(file, JSON.stringify({ request_states: [state] }))
    const { summaries, adapterSpec } = await collectRequestStates(file)
    expect(adapterSpec).toBeNull()
    expect(summaries[0]).toMatchObject({ success: false, error: 'content filter', referenceIndex: 2 })
  })

  it('rejects a file without request_states, or with a non-array one', async () => {
    const none = join(dir, 'none.json')
    await writeFile(none, '{"adapter_spec": {}}')
    await expect(collectRequestStates(none)).rejects.toMatchObject({ code: 'input.missing_field' })
    const wrong = join(dir, 'wrong.json')
    await writeFile(wrong, '{"request_states": {"a": 1}}')
    await expect(collectRequestStates(wrong)).rejects.toThrow(/request_states of .* must be an array/)
    const top = join(dir, 'top.json')
    await writeFile(top, '[1]')
    await expect(collectRequestStates(top)).rejects.toThrow(/must be an object/)
  })

  it('names the field of a missing instance id', async () => {
    const file = join(dir, 'noid.json')
    await writeFile(file, JSON.stringify({ request_states: [baseState, { ...baseState, instance: { input: 'x', references: [] } }] }))
    await expect(collectRequestStates(file)).rejects.toMatchObject({
      code: 'input.wrong_type',
      location: { field: 'request_states[1].instance.id' }
    })
  })
})

describe('0.2.x layout', () => {
  it('reads plain-string inputs and outputs, model-only requests and request_time 0', async () => {
    const boolq = await collectRequestStates(
      await readRunDirectory(join(LEGACY_SUITE, 'boolq_model=huggingface_opt-1.3b,data_augmentation=robustness'))
    )
    expect(boolq.summaries).toHaveLength(4)
    expect(boolq.summaries[0]).toMatchObject({
      instanceId: 'id3',
      inputExcerpt: 'Is the sky blue?',
      referenceExcerpt: 'Yes',
      outputExcerpt: ' Yes',
      requestTime: 0,
      cached: false
    })
    expect(boolq.summaries[1].perturbation).toMatchObject({ name: 'mild_mix' })

    const mmlu = await collectRequestStates(
      await readRunDirectory(join(LEGACY_SUITE, 'mmlu_subject=abstract_algebra,model=huggingface_opt-1.3b'))
    )
    expect(mmlu.summaries).toHaveLength(9)
    expect(mmlu.summaries.map(s => s.trainTrialIndex)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2])
    expect(mmlu.summaries[0].outputExcerpt).toBe('4')
    expect(mmlu.summaries[2].inputExcerpt).toContain('\u2013')
  })
})
