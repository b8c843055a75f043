/** The reader on real crfm-helm 0.2.1 runs, written the way FlexLLMGen's benchmark script writes them. */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { discoverRuns } from '../../../src/helm/read/discover.js'
import { readPerInstanceStats } from '../../../src/helm/read/instance-stats.js'
import { collectRequestStates } from '../../../src/helm/read/request-states.js'
import { FLEX_BASELINE_SUITE } from './fixtures.js'

describe('real crfm-helm 0.2.1 run directories', () => {
  it('are found and detected as the 0.2 layout (no model_deployment anywhere)', async () => {
    const runs = await discoverRuns(FLEX_BASELINE_SUITE)
    expect(runs).toHaveLength(1)
    expect(runs[0].layout).toBe('0.2')
    // 0.2.1 replaces '/' of the model by '_' in the run name; the entry keeps it.
    expect(runs[0].runSpec.name).toBe('synthetic_reasoning:mode=pattern_match,model=simple_model1')
    expect(runs[0].runSpec.adapter_spec?.['model']).toBe('simple/model1')
    expect(runs[0].runSpec.adapter_spec).not.toHaveProperty('model_deployment')
    expect(Object.values(runs[0].files).every(Boolean)).toBe(true)
  })

  it('read per-instance stats with 0.2.1 stat names, three train trials per instance', async () => {
    const [run] = await discoverRuns(FLEX_BASELINE_SUITE)
    const table = await readPerInstanceStats(run)
    expect(table.layout).toBe('0.2')
    const names = new Set([...table.series.values()].map(s => s.metric))
    for (const name of ['exact_match', 'quasi_exact_match', 'num_prompt_tokens', 'inference_runtime']) expect(names).toContain(name)
    const raw = JSON.parse(await readFile(join(run.path, 'per_instance_stats.json'), 'utf8')) as { train_trial_index: number }[]
    expect(new Set(raw.map(r => r.train_trial_index))).toEqual(new Set([0, 1, 2]))
    expect(table.instanceKeys).toBe(raw.length)
  })

  it('read request states: cached written as false, request times 0, every request answered', async () => {
    const [run] = await discoverRuns(FLEX_BASELINE_SUITE)
    const { summaries } = await collectRequestStates(run)
    expect(summaries.length).toBeGreaterThan(0)
    for (const s of summaries) {
      expect(s.cached).toBe(false)
      expect(s.success).toBe(true)
      expect(s.requestTime).toBe(0)
      expect(s.answered).toBe(true)
    }
    // 0.2.1 writes Reference.output and Instance.input as {text} objects: the excerpts are texts.
    expect(summaries[0].inputExcerpt).not.toMatch(/^\[object/)
    expect(summaries[0].referenceExcerpt.length).toBeGreaterThan(0)
  })
})
