/**
 * Inputs found in review that reached a verdict other than `error` although something was not
 * measured, or that compared the wrong things. Each test damages a copy of a real HELM 0.5.16
 * run the way a broken run, a HELM quirk or a hand-edited file would.
 */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import type { RunDefaults } from '../../src/model/harness.js'
import { cliConfig, comparer, errorCodes, twin } from './compare-helpers.js'
import { pairRuns } from '../../src/gate/match.js'
import type { RunDirectory, RunSpecJson } from '../../src/helm/types.js'
import { BASELINE_SUITE, MCQA_RUN, REASONING_RUN } from '../helm/read/fixtures.js'
import { copyToTemp, editJson } from '../support/fixture-copy.js'

const cli = cliConfig(1000)

const defaults: RunDefaults = {
  metric: 'exact_match',
  split: null,
  // Wide enough that the unaltered 10-instance fixtures pass, so only the damage can stop a pass.
  maxDrop: 0.9,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
}

const compare = comparer(cli, defaults)

const codes = errorCodes

interface StatRow {
  instance_id: string
  train_trial_index: number
  stats: { name: { name: string; split?: string }; count: number; sum: number }[]
}

interface StateFile {
  request_states: { instance: { id: string }; request: { prompt: string } }[]
}

describe('the undamaged fixtures pass with this margin (so the tests below test the damage)', () => {
  it('passes baseline against baseline', async () => {
    const report = await compare(BASELINE_SUITE, twin(BASELINE_SUITE))
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
  })
})

describe('values measured on one side only', () => {
  it('counts a value measured on one side only as a scoring failure when the request ran', async () => {
    // HELM >= 0.2.4 removes a NaN stat from per_instance_stats.json; a count-0 or NaN value left
    // in the file is the same failure. The request ran (it has a request state), so the instance
    // is not missing: it is a scoring failure and an error whatever min_overlap says.
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<StatRow[]>(join(cand, MCQA_RUN, 'per_instance_stats.json'), rows => {
      for (const row of rows.slice(0, 3)) {
        for (const stat of row.stats) if (stat.name.name === 'exact_match') stat.count = 0
      }
    })
    const report = await compare(BASELINE_SUITE, cand, {}, { ...cli, statistics: { ...cli.statistics, minOverlap: 0.5 } })
    expect(report.verdict).toBe('error')
    const failure = report.errors.find(e => e.code === 'guard.scoring_failure')!
    expect(failure.message).toContain('3 candidate instances were requested but have no exact_match score')
  })
})

describe('splits', () => {
  it('is an error when the default split is missing on one side, not a comparison of the other split', async () => {
    // synthetic_reasoning scores valid and test; a candidate without its test instances must
    // not be judged on valid alone.
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<StatRow[]>(join(cand, REASONING_RUN, 'per_instance_stats.json'), rows =>
      rows.filter(row => !row.stats.some(s => s.name.split === 'test'))
    )
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    const missing = report.errors.find(e => e.code === 'guard.split_missing')!
    expect(missing.message).toContain('no split test on the candidate side')
  })
})

describe('request states', () => {
  it('refuses scores whose request states are absent, since their cache and success flags cannot be checked', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<StateFile>(join(cand, MCQA_RUN, 'scenario_state.json'), s => {
      s.request_states = s.request_states.slice(2)
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    const unverified = report.errors.find(e => e.code === 'guard.no_request_state')!
    expect(unverified.message).toContain('2 candidate')
    expect(unverified.file).toContain('scenario_state.json')
  })

  it('accepts the robustness run, whose perturbed scores have perturbed request states', async () => {
    const report = await compare(BASELINE_SUITE, twin(BASELINE_SUITE), { perturbations: 'gate' })
    expect(codes(report)).toEqual([])
  })
})

describe('scoring drift', () => {
  it('refuses runs whose metrics were computed with different metric specs', async () => {
    // Same stat name, different computation: the difference would measure the scorer.
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<{ metric_specs: { class_name: string; args: Record<string, unknown> }[] }>(join(cand, MCQA_RUN, 'run_spec.json'), s => {
      s.metric_specs[0].args = { ...s.metric_specs[0].args, names: ['exact_match'] }
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    const drift = report.errors.find(e => e.code === 'guard.scoring_drift')!
    expect(drift.field).toBe('metric_specs[0]')
    expect(drift.value).toContain('BasicGenerationMetric')
  })

  it('refuses runs scored by different annotators', async () => {
    const cand = copyToTemp(BASELINE_SUITE)
    editJson<{ annotators?: unknown[] }>(join(cand, MCQA_RUN, 'run_spec.json'), s => {
      s.annotators = [{ class_name: 'helm.benchmark.annotation.judge.Judge', args: { model: 'other/judge' } }]
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    expect(report.errors.find(e => e.code === 'guard.scoring_drift')!.field).toBe('annotators[0]')
  })
})

describe('duplicated stats', () => {
  it('refuses an instance whose metric appears more than once instead of averaging the copies', async () => {
    // HELM itself only warns about a duplicate metric name; the two copies may disagree, and
    // their average is nobody's answer.
    const cand = copyToTemp(BASELINE_SUITE)
    let duplicated = ''
    editJson<StatRow[]>(join(cand, MCQA_RUN, 'per_instance_stats.json'), rows => {
      const copy = JSON.parse(JSON.stringify(rows[0])) as StatRow
      duplicated = copy.instance_id
      for (const stat of copy.stats) if (stat.name.name === 'exact_match') stat.sum = 1
      rows.push(copy)
    })
    const report = await compare(BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    const duplicate = report.errors.find(e => e.code === 'guard.duplicate_stat')!
    expect(duplicate.message).toContain('candidate')
    expect(duplicated).not.toBe('')
    expect(duplicate.value).toContain(duplicated)
  })
})

describe('several request states per instance (separate multiple choice, calibration, language-modelling windows)', () => {
  /** Appends, after the request state of the first `instances`, a second one with another prompt. */
  const addSecondRequest = (side: string, prompt: (instance: string) => string, instances = Infinity): void => {
    editJson<StateFile>(join(side, MCQA_RUN, 'scenario_state.json'), s => {
      s.request_states = s.request_states.flatMap((state, i) =>
        i < instances
          ? [state, { ...JSON.parse(JSON.stringify(state)), request: { ...state.request, prompt: prompt(state.instance.id) } }]
          : [state]
      )
    })
  }

  it('does not call identical sides drifted when an instance has several request states', async () => {
    const base = copyToTemp(BASELINE_SUITE)
    const cand = copyToTemp(BASELINE_SUITE)
    for (const side of [base, cand]) addSecondRequest(side, id => `Window 2 of ${id}`)
    const report = await compare(base, cand)
    expect(codes(report)).toEqual([])
    expect(report.verdict).toBe('pass')
  })

  it("finds drift in any of an instance's request states, not only in the last one", async () => {
    const base = copyToTemp(BASELINE_SUITE)
    const cand = copyToTemp(BASELINE_SUITE)
    addSecondRequest(base, id => `Window 2 of ${id}`, 1)
    addSecondRequest(cand, id => `Window 2 of ${id}`, 1)
    // The candidate's first request of the first instance now has that instance's second
    // prompt: its last request still matches the baseline's last one.
    editJson<StateFile>(join(cand, MCQA_RUN, 'scenario_state.json'), s => {
      s.request_states[0].request.prompt = s.request_states[1].request.prompt
    })
    const report = await compare(base, cand)
    expect(report.verdict).toBe('error')
    expect(codes(report)).toContain('guard.prompt_drift')
  })
})

describe('report order does not depend on the machine', () => {
  const spec = (name: string): RunSpecJson => ({
    name,
    scenario_spec: { class_name: `s.${name}`, args: {} },
    adapter_spec: {},
    metric_specs: []
  })
  const run = (name: string): RunDirectory => ({
    path: `/out/${name}`,
    runSpec: spec(name),
    scenarioName: null,
    files: { runSpec: true, scenario: true, scenarioState: true, stats: true, perInstanceStats: true }
  })

  it('orders run pairs by code unit, not by the locale (which would reorder the JSON report)', () => {
    // localeCompare puts "ä" before "z" in en-US and after it in sv-SE.
    const runs = [run('zeta:model=x'), run('äpfel:model=x'), run('Zulu:model=x'), run('alpha:model=x')]
    const names = pairRuns(runs, runs).pairs.map(p => p.baseline.runSpec.name)
    expect(names).toEqual(['Zulu:model=x', 'alpha:model=x', 'zeta:model=x', 'äpfel:model=x'])
  })
})
