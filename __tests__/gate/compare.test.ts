import { describe, expect, it } from '@jest/globals'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { compareOutputs } from '../../src/gate/compare.js'
import type { RunDefaults } from '../../src/model/harness.js'
import { cliConfig, comparer, errorCodes, twin } from './compare-helpers.js'
import { renderJson } from '../../src/report/json.js'
import { ALTERED_SUITE, BASELINE_SUITE, LEGACY_SUITE, MCQA_RUN, REASONING_RUN, TRIALS_SUITE } from '../helm/read/fixtures.js'
import { copyToTemp, editJson } from '../support/fixture-copy.js'

const cli = cliConfig(2000)

const defaults: RunDefaults = {
  metric: 'exact_match',
  split: 'test',
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
}

const compare = comparer(cli, defaults)

const codes = errorCodes

describe('compareOutputs on real HELM 0.5.16 output', () => {
  it('passes the same run on both sides when the margin is wider than what 10 instances can resolve', async () => {
    const report = await compare(BASELINE_SUITE, twin(BASELINE_SUITE), { maxDrop: 0.5 })
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(report.warnings.map(w => w.code)).toContain('sides.same_content')
    const clean = report.comparisons.filter(c => c.gated)
    expect(clean.map(c => c.run).sort()).toEqual([
      'simple_mcqa',
      'simple_mcqa:data_augmentation=robustness',
      'synthetic_reasoning:mode=pattern_match'
    ])
    for (const c of clean) {
      expect(c.delta).toBe(0)
      expect(c.wins + c.losses).toBe(0)
      expect(c.ci.low).toBeLessThan(0)
      expect(c.ci.high).toBeGreaterThan(0)
    }
  })

  it('does not pass identical sides on too few instances: no flips is not evidence of no drop', async () => {
    const report = await compare(BASELINE_SUITE, twin(BASELINE_SUITE), { maxDrop: 0.05 })
    expect(report.verdict).toBe('inconclusive')
    const mcqa = report.comparisons.find(c => c.run === 'simple_mcqa')!
    expect(mcqa.n_needed).toBeGreaterThan(100)
    expect(mcqa.reason).toMatch(/instances/)
  })

  it('fails a candidate that lost answers, with the flips and changed answers shown', async () => {
    const report = await compare(ALTERED_SUITE, BASELINE_SUITE)
    expect(report.verdict).toBe('fail')
    const mcqa = report.comparisons.find(c => c.run === 'simple_mcqa' && c.perturbation === null)!
    expect(mcqa).toMatchObject({ n: 10, pairs: 10, binary: true, wins: 0, losses: 7, unchanged: 3, verdict: 'fail' })
    expect(mcqa.baseline_mean).toBeCloseTo(0.7, 12)
    expect(mcqa.candidate_mean).toBe(0)
    expect(mcqa.delta).toBeCloseTo(-0.7, 12)
    expect(mcqa.p_value).toBeCloseTo(2 * 0.5 ** 7, 12)
    expect(mcqa.examples).toHaveLength(3)
    expect(mcqa.examples[0].baseline_output).not.toBe(mcqa.examples[0].candidate_output)
    expect(mcqa.examples[0].input).toMatch(/even or odd/i)
  })

  it('passes an improvement', async () => {
    const report = await compare(BASELINE_SUITE, ALTERED_SUITE)
    const gated = report.comparisons.filter(c => c.gated && c.run !== 'synthetic_reasoning:mode=pattern_match')
    expect(gated.every(c => c.verdict === 'pass' && c.wins === 7 && c.losses === 0)).toBe(true)
  })

  it('compares each perturbation and the worst case separately, gated only when asked', async () => {
    const reported = await compare(ALTERED_SUITE, BASELINE_SUITE)
    const robust = reported.comparisons.filter(c => c.run === 'simple_mcqa:data_augmentation=robustness')
    expect(robust.map(c => [c.perturbation, c.gated])).toEqual([
      [null, true],
      ['mild_mix', false],
      ['worst', false]
    ])
    const gatedRun = await compare(ALTERED_SUITE, BASELINE_SUITE, { perturbations: 'gate' })
    expect(gatedRun.comparisons.filter(c => c.run === 'simple_mcqa:data_augmentation=robustness').every(c => c.gated)).toBe(true)
  })

  it('clusters train trials by instance', async () => {
    const report = await compare(TRIALS_SUITE, join(TRIALS_SUITE, '..', '..', '..', 'trials-altered', 'runs', 'gate'))
    const c = report.comparisons.find(x => x.perturbation === null)!
    expect(c.n).toBe(8)
    expect(c.pairs).toBe(24)
    expect(c.ci.method).toBe('bootstrap')
  })

  it('gives byte-identical JSON for the same inputs and seed, and other bounds for another seed', async () => {
    const one = renderJson(await compare(TRIALS_SUITE, join(TRIALS_SUITE, '../../../trials-altered/runs/gate')))
    const two = renderJson(await compare(TRIALS_SUITE, join(TRIALS_SUITE, '../../../trials-altered/runs/gate')))
    expect(two).toBe(one)
    const other = renderJson(
      await compare(
        TRIALS_SUITE,
        join(TRIALS_SUITE, '../../../trials-altered/runs/gate'),
        {},
        { ...cli, statistics: { ...cli.statistics, seed: 99 } }
      )
    )
    expect(other).not.toBe(one)
  })

  it('reads the 0.2.x layout', async () => {
    const report = await compare(LEGACY_SUITE, twin(LEGACY_SUITE), { split: null, maxDrop: 0.99 })
    expect(report.errors).toEqual([])
    expect(report.comparisons.length).toBeGreaterThan(0)
    const mmlu = report.comparisons.find(c => c.run.startsWith('mmlu'))!
    expect(mmlu).toMatchObject({ n: 3, pairs: 9, delta: 0 })
    // Three instances are too few for a bootstrap interval to pass, even with a huge margin.
    expect(report.verdict).toBe('inconclusive')
  })

  it('never passes a bootstrap interval on fewer than 20 instances', async () => {
    const report = await compare(TRIALS_SUITE, twin(TRIALS_SUITE), { maxDrop: 0.99 })
    const c = report.comparisons[0]
    expect(c.ci.method).toBe('bootstrap')
    expect(c.ci.low).toBe(0)
    expect(c.verdict).toBe('inconclusive')
    expect(c.n_needed).toBe(20)
    expect(c.reason).toMatch(/at least 20/)
  })
})

describe('guards: every doubt is an error, never a pass', () => {
  it('refuses answers served from HELM cache', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<{ request_states: { result: { cached: boolean } }[] }>(join(cand, MCQA_RUN, 'scenario_state.json'), s => {
      s.request_states[4].result.cached = true
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    expect(codes(report)).toContain('guard.cached')
    expect(report.errors.find(e => e.code === 'guard.cached')!.file).toContain('scenario_state.json')
  })

  it('refuses failed requests', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<{ request_states: { result: { success: boolean; error?: string } }[] }>(join(cand, MCQA_RUN, 'scenario_state.json'), s => {
      s.request_states[0].result.success = false
      s.request_states[0].result.error = 'content filter'
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    expect(report.errors.find(e => e.code === 'guard.failed_requests')!.message).toContain('content filter')
  })

  it('refuses the same instance rendered to different prompts', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<{ request_states: { request: { prompt: string } }[] }>(join(cand, MCQA_RUN, 'scenario_state.json'), s => {
      s.request_states[2].request.prompt += ' Think step by step.'
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(codes(report)).toEqual(['guard.prompt_drift'])
  })

  describe('answer-key drift (issue 28): references that differ between the sides are an error, never paired', () => {
    type States = { request_states: { instance: { id: string; references: { output: { text: string }; tags: string[] }[] } }[] }
    const drifted = async (edit: (s: States) => void): Promise<Awaited<ReturnType<typeof compare>>> => {
      const cand = copyToTemp(BASELINE_SUITE)
      editJson<States>(join(cand, MCQA_RUN, 'scenario_state.json'), edit)
      return compare(BASELINE_SUITE, cand, { maxDrop: 0.5 })
    }

    it('refuses a correct tag moved to another reference, naming the instance and both correct answers', async () => {
      const report = await drifted(s => {
        // id41: "Is 51 even or odd?", Even / Odd (correct); the candidate's key says Even.
        const refs = s.request_states[2].instance.references
        refs[0].tags = ['correct']
        refs[1].tags = []
      })
      expect(report.verdict).toBe('error')
      expect(codes(report)).toEqual(['guard.answer_key_drift'])
      const issue = report.errors[0]
      expect(issue.message).toContain('1 instance has different references on the two sides (first: instance id41, trial 0')
      expect(issue.message).toContain(`reference 0's text or tags differ; correct answer baseline "Odd", candidate "Even"`)
      expect(issue.file).toContain(join(MCQA_RUN, 'scenario_state.json'))
      expect(issue.field).toBe('instance.references')
      expect(issue.value).toContain('instance id41')
      expect(report.comparisons.map(c => c.run)).not.toContain('simple_mcqa')
    })

    it('refuses a reference whose text changed, and a reference added', async () => {
      const text = await drifted(s => {
        s.request_states[2].instance.references[0].output.text = 'Neither'
      })
      expect(codes(text)).toEqual(['guard.answer_key_drift'])
      expect(text.errors[0].message).toContain("reference 0's text or tags differ")
      const added = await drifted(s => {
        s.request_states[2].instance.references.push({ output: { text: 'Both' }, tags: [] })
      })
      expect(codes(added)).toEqual(['guard.answer_key_drift'])
      expect(added.errors[0].message).toContain('2 references on the baseline, 3 on the candidate')
    })

    it('counts instances, not request states, and fails closed with the baseline side drifted too', async () => {
      const cand = copyToTemp(BASELINE_SUITE)
      editJson<States>(join(cand, MCQA_RUN, 'scenario_state.json'), s => {
        for (const state of s.request_states.slice(0, 3)) state.instance.references.reverse()
      })
      const report = await compare(cand, BASELINE_SUITE, { maxDrop: 0.5 })
      expect(report.verdict).toBe('error')
      expect(report.errors[0].message).toMatch(/^run simple_mcqa: 3 instances have different references/)
    })
  })

  it('refuses adapter drift and names the field with both values', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<{ adapter_spec: Record<string, unknown> }>(join(cand, REASONING_RUN, 'run_spec.json'), s => {
      s.adapter_spec.max_tokens = 999
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    const drift = report.errors.find(e => e.code === 'guard.adapter_drift')!
    expect(drift.field).toBe('adapter_spec.max_tokens')
    expect(drift.value).toContain('999')
  })

  it('refuses low overlap and reports unmatched keys per side', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    const kept: string[] = []
    editJson<{ instance_id: string }[]>(join(cand, MCQA_RUN, 'per_instance_stats.json'), rows => {
      kept.push(...rows.slice(0, 8).map(r => r.instance_id))
      return rows.slice(0, 8)
    })
    // Instances that were never requested are missing; requested but unscored ones are scoring failures.
    editJson<{ request_states: { instance: { id: string } }[] }>(join(cand, MCQA_RUN, 'scenario_state.json'), state => {
      state.request_states = state.request_states.filter(s => kept.includes(s.instance.id))
    })
    const report = await compare(BASELINE_SUITE, cand)
    const overlap = report.errors.find(e => e.code === 'guard.overlap')!
    expect(overlap.message).toContain('80.0%')
    expect(overlap.message).toContain('2 baseline and 0 candidate keys are unmatched')
    expect(report.verdict).toBe('error')
    const lenient = await compare(BASELINE_SUITE, cand, { maxDrop: 0.5 }, { ...cli, statistics: { ...cli.statistics, minOverlap: 0.8 } })
    expect(lenient.verdict).toBe('pass')
    expect(lenient.warnings.map(w => w.code)).toContain('pairing.unmatched')
  })

  it('names the available metrics when the metric is absent', async () => {
    const report = await compare(BASELINE_SUITE, twin(BASELINE_SUITE), { metric: 'exact_matchh' })
    expect(report.verdict).toBe('error')
    const missing = report.errors.find(e => e.code === 'guard.metric_missing')!
    expect(missing.value).toContain('exact_match')
  })

  it('refuses a metric that was never measured', async () => {
    const report = await compare(BASELINE_SUITE, twin(BASELINE_SUITE), { metric: 'training_co2_cost' })
    expect(report.verdict).toBe('error')
    expect(codes(report)).toContain('guard.metric_unmeasured')
  })

  it('refuses a run present on one side only', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    rmSync(join(cand, REASONING_RUN), { recursive: true })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    expect(report.errors.find(e => e.code === 'runs.one_sided')!.message).toContain(
      'synthetic_reasoning:mode=pattern_match exists only on the baseline side'
    )
  })

  it('refuses an empty run directory left by a failed helm-run', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    mkdirSync(join(cand, 'dyck_language_np=3,model=x'))
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    expect(codes(report)).toContain('input.incomplete_run')
  })

  it('refuses a run without scenario_state.json (the cache cannot be ruled out)', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    rmSync(join(cand, MCQA_RUN, 'scenario_state.json'))
    const report = await compare(BASELINE_SUITE, cand)
    expect(codes(report)).toContain('guard.no_scenario_state')
  })

  it('reports malformed files as errors naming the file', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<{ stats: { count: unknown }[] }[]>(join(cand, MCQA_RUN, 'per_instance_stats.json'), rows => {
      rows[1].stats[0].count = 'one'
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    expect(report.errors[0].file).toContain('per_instance_stats.json')
    expect(report.errors[0].field).toBe('[1].stats[0].count')
  })

  it('is an error when nothing is gated', async () => {
    const report = await compareOutputs(BASELINE_SUITE, twin(BASELINE_SUITE), cli, {})
    expect(report.verdict).toBe('error')
    expect(codes(report)).toContain('gate.empty')
  })
})

describe('efficiency is information only', () => {
  it('turns a request-time problem into a warning, never an error', async () => {
    const base = copyToTemp(BASELINE_SUITE)
    editJson<{ stats: { name: { name: string }; sum: number }[] }[]>(join(base, MCQA_RUN, 'per_instance_stats.json'), rows => {
      rows.slice(0, 6).forEach(r => r.stats.filter(s => s.name.name === 'inference_runtime').forEach(s => (s.sum = 0)))
    })
    const report = await compare(base, BASELINE_SUITE, { maxDrop: 0.5 })
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(report.warnings.map(w => w.code)).toContain('efficiency.skipped')
    expect(report.efficiency.map(e => e.run)).not.toContain('simple_mcqa')
  })
})

describe('with a gate file', () => {
  const gate = (runs: string) => parseGateConfig(`runs:\n${runs}\nstatistics: {resamples: 1000}`, 'gate.yml')

  it('gates only the listed entries, matched by what the runs are', async () => {
    const config = gate(
      '  - {entry: "synthetic_reasoning:mode=pattern_match", metric: exact_match, split: test, max_drop: 0.5}\n  - {entry: simple_mcqa, metric: exact_match, max_drop: 0.5}'
    )
    const report = await compareOutputs(BASELINE_SUITE, twin(BASELINE_SUITE), config)
    expect(report.verdict).toBe('pass')
    expect(report.comparisons.map(c => c.entry)).toEqual(['synthetic_reasoning:mode=pattern_match', 'simple_mcqa'])
    expect(report.warnings.map(w => w.code)).toContain('runs.ungated')
  })

  it('is an error when a gated entry has no run, listing what is there', async () => {
    const config = gate('  - {entry: "dyck_language:num_parenthesis_pairs=3", metric: exact_match, max_drop: 0.1}')
    const report = await compareOutputs(BASELINE_SUITE, twin(BASELINE_SUITE), config)
    expect(report.verdict).toBe('error')
    const missing = report.errors.find(e => e.code === 'runs.missing')!
    expect(missing.field).toBe('runs[0].entry')
    expect(missing.value).toContain('simple_mcqa')
  })

  it('resolves a relative drop against the baseline mean', async () => {
    const config = gate('  - {entry: simple_mcqa, metric: exact_match, max_relative_drop: 0.5}')
    const report = await compareOutputs(ALTERED_SUITE, twin(ALTERED_SUITE), config)
    expect(report.comparisons[0].max_drop).toBeCloseTo(0.35, 12)
    expect(report.comparisons[0].max_relative_drop).toBe(0.5)
  })
})
