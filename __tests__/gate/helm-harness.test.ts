/**
 * What a HELM side says about itself in the report: the sampling its own requests sent, from the
 * run specs discovery read (real 0.5.16 runs), and the header row marked when a candidate's run
 * spec sent another temperature.
 */
import { describe, expect, it } from '@jest/globals'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { compareOutputs } from '../../src/gate/compare.js'
import { HelmSide, requestSamplingOf } from '../../src/gate/helm-harness.js'
import { discoverRuns } from '../../src/helm/read/discover.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { renderConsole } from '../../src/report/console.js'
import { copyToTemp, editJson } from '../support/fixture-copy.js'
import { BASELINE_SUITE, HELM_0516, MCQA_RUN, REASONING_RUN, ROBUSTNESS_RUN } from '../helm/read/fixtures.js'
import { cliConfig } from './compare-helpers.js'

/**
 * What HELM 0.5.16's requests of the fixture runs carried: simple_mcqa is a multiple-choice joint
 * run (one completion, whatever `num_outputs: 5` says; its stop sequences are not the adapter
 * spec's), synthetic_reasoning a generation run (the adapter spec's values).
 */
const MCQA = { temperature: 0, max_tokens: 5, stop_sequences: null, num_outputs: 1 }
const REASONING = { temperature: 0, max_tokens: 50, stop_sequences: ['\n'], num_outputs: 1 }

describe('HelmSide: the sampling the requests sent', () => {
  it('one setting for a side whose runs all sent the same (simple_mcqa with and without robustness)', async () => {
    const runs = (await discoverRuns(join(HELM_0516, 'baseline'))).filter(r => !r.path.endsWith(REASONING_RUN))
    const info = new HelmSide(runs).info('x')
    expect(info.requested_sampling).toEqual({
      cell: 'temperature 0 · max_tokens 5 · 1 output',
      by_entry: { simple_mcqa: MCQA, 'simple_mcqa:data_augmentation=robustness': MCQA }
    })
  })

  it('"varies by run entry" when they differ, each entry kept for the JSON', async () => {
    const info = new HelmSide(await discoverRuns(join(HELM_0516, 'baseline'))).info('x')
    expect(info.requested_sampling?.cell).toBe('varies by run entry')
    expect(info.requested_sampling?.by_entry['synthetic_reasoning:mode=pattern_match']).toEqual(REASONING)
    expect(Object.keys(info.requested_sampling?.by_entry ?? {})).toHaveLength(3)
  })

  it('follows the adapter method, as the decoding guard does; what it does not fix is null, not a default', () => {
    const joint = { method: 'multiple_choice_joint', temperature: 0, max_tokens: 5, stop_sequences: ['\n'], num_outputs: 5 }
    expect(requestSamplingOf(joint)).toEqual(MCQA)
    expect(requestSamplingOf({ ...joint, method: 'generation' })).toEqual({ ...MCQA, stop_sequences: ['\n'], num_outputs: 5 })
    expect(requestSamplingOf({ method: 'generation', temperature: 0.7 })).toEqual({
      temperature: 0.7,
      max_tokens: null,
      stop_sequences: null,
      num_outputs: null
    })
    expect(requestSamplingOf({ ...joint, method: 'some_new_method' })).toEqual({
      temperature: null,
      max_tokens: null,
      stop_sequences: null,
      num_outputs: null
    })
  })
})

describe('a candidate that sent temperature 0.7 where the baseline sent 0', () => {
  it('is refused by the adapter guard and shown in the header row, marked', async () => {
    const baseline = copyToTemp(BASELINE_SUITE, 'baseline')
    const candidate = copyToTemp(BASELINE_SUITE, 'candidate')
    // Only simple_mcqa on each side, so the sides' cells name its settings.
    for (const side of [baseline, candidate])
      for (const run of [ROBUSTNESS_RUN, REASONING_RUN]) rmSync(join(side, run), { recursive: true })
    editJson<{ adapter_spec: Record<string, unknown> }>(join(candidate, MCQA_RUN, 'run_spec.json'), spec => {
      spec.adapter_spec.temperature = 0.7
    })
    const report = await compareOutputs(baseline, candidate, cliConfig(200), {
      defaults: { metric: 'exact_match', split: null, maxDrop: 0.05, maxRelativeDrop: null, direction: 'higher', perturbations: 'report' }
    })
    expect(report.errors.map(e => e.code)).toContain('guard.adapter_drift')
    expect(report.candidate.requested_sampling?.by_entry['simple_mcqa']?.temperature).toBe(0.7)
    const md = renderMarkdown(report, { maxLength: 65_000 })
    expect(md).toContain(
      '| Sampling (requests) **(differs)** | temperature 0 · max\\_tokens 5 · 1 output | temperature 0.7 · max\\_tokens 5 · 1 output |'
    )
    expect(renderConsole(report, { color: false })).toContain(
      'sampling (requests): baseline temperature 0 · max_tokens 5 · 1 output; candidate temperature 0.7 · max_tokens 5 · 1 output  (differs)'
    )
  })
})
