/** Small, valid reports for the renderer tests: every field filled, overrides on top. */
import type { ChangedExample, Comparison, EfficiencyEntry, Report } from '../../src/model/report.js'

export function makeExample(overrides: Partial<ChangedExample> = {}): ChangedExample {
  return {
    instance_id: 'id1',
    train_trial_index: 0,
    input: 'Question: what is 2 + 2?\nAnswer:',
    reference: '4',
    baseline_output: '4',
    candidate_output: '5',
    baseline_value: 1,
    candidate_value: 0,
    ...overrides
  }
}

export function makeComparison(overrides: Partial<Comparison> = {}): Comparison {
  const run = overrides.run ?? 'mmlu:subject=anatomy,model=base'
  const metric = overrides.metric ?? 'exact_match'
  return {
    id: `${run} | ${metric} | test | -`,
    run,
    entry: 'mmlu:subject=anatomy',
    metric,
    split: 'test',
    perturbation: null,
    gated: true,
    direction: 'higher',
    binary: true,
    n: 200,
    pairs: 200,
    unmatched: { baseline: 0, candidate: 0 },
    dropped: { baseline: 0, candidate: 0 },
    baseline_mean: 0.7,
    candidate_mean: 0.705,
    delta: 0.005,
    ci: { level: 0.95, low: -0.01, high: 0.02, method: 'bootstrap-counts' },
    wins: 12,
    losses: 11,
    unchanged: 177,
    p_value: 1,
    max_drop: 0.02,
    max_relative_drop: null,
    verdict: 'pass',
    n_needed: null,
    reason: 'The whole interval lies above the tolerated drop.',
    examples: [makeExample()],
    ...overrides
  }
}

export function makeEfficiency(overrides: Partial<EfficiencyEntry> = {}): EfficiencyEntry {
  return {
    run: 'mmlu:subject=anatomy,model=base',
    metric: 'request_time',
    n: 200,
    baseline_median: 0.8,
    candidate_median: 0.6,
    median_ratio: { estimate: 0.75, low: 0.7, high: 0.8 },
    p90_ratio: { estimate: 0.8, low: 0.72, high: 0.9 },
    ...overrides
  }
}

export function makeReport(overrides: Partial<Report> = {}): Report {
  return {
    schema_version: 1,
    tool: { name: 'helm-gate', version: '0.1.0' },
    verdict: 'pass',
    headline: 'The candidate is not meaningfully worse on 1 gated comparison.',
    errors: [],
    warnings: [],
    settings: { confidence: 0.95, resamples: 10000, seed: 0, min_overlap: 0.95, interval: 'auto' },
    baseline: { path: 'out/baseline', runs: ['mmlu:subject=anatomy,model=base'], deployment: 'vllm/base', helm_version: '0.5.16' },
    candidate: { path: 'out/candidate', runs: ['mmlu:subject=anatomy,model=cand'], deployment: 'vllm/cand', helm_version: '0.5.16' },
    comparisons: [makeComparison()],
    efficiency: [makeEfficiency()],
    notes: ['Request times describe how long the harness waited, not time-to-first-token under load.'],
    ...overrides
  }
}
