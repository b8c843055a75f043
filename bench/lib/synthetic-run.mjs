// Writes a HELM-shaped run directory (the five files helm-run writes, docs/helm.md "The five run
// files") with chosen per-instance values, for benchmarks. Shaped like a real HELM 0.5.16
// generation run (indent=2): every instance has the 23 stats HELM writes (inference_runtime among
// them, so the efficiency ratios are computed as on a real run), and scenario_state.json holds a
// few-shot prompt, a completion with tokens and the request time. Values are continuous scores.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { mulberry32 } from '../../test-support/mulberry32.mjs'

/** The stats of one instance, in the order HELM 0.5.16 writes them for a generation run. */
function instanceStats(metric, value, runtime, promptTokens) {
  const stat = (name, v) => ({
    name: { name, split: 'test' },
    count: 1,
    sum: v,
    sum_squared: v * v,
    min: v,
    max: v,
    mean: v,
    variance: 0,
    stddev: 0
  })
  const empty = name => ({ name: { name, split: 'test' }, count: 0, sum: 0, sum_squared: 0 })
  return [
    stat('num_references', 1),
    stat('num_train_trials', 1),
    stat('num_prompt_tokens', promptTokens),
    stat('num_completion_tokens', 3),
    stat('num_output_tokens', 3),
    empty('training_co2_cost'),
    empty('training_energy_cost'),
    stat('inference_runtime', runtime),
    stat('batch_size', 1),
    stat('finish_reason_length', 0),
    stat('finish_reason_stop', 1),
    stat('finish_reason_endoftext', 0),
    stat('finish_reason_unknown', 0),
    stat('num_train_instances', 5),
    stat('prompt_truncated', 0),
    stat('max_prob', 1),
    stat(metric, value),
    stat('exact_match', value > 0.5 ? 1 : 0),
    stat('quasi_exact_match', value > 0.5 ? 1 : 0),
    stat('prefix_exact_match', value > 0.5 ? 1 : 0),
    stat('logprob', -0.25),
    stat('num_perplexity_tokens', 3),
    stat('num_bytes', 12)
  ]
}

const FEW_SHOT = Array.from({ length: 5 }, (_, k) => `Question: what is the capital of country number ${k}?\nAnswer: city ${k}\n\n`).join(
  ''
)

/**
 * @param values   per instance, the metric value
 * @param runtimes per instance, the request time in seconds (the inference_runtime stat)
 */
export function writeSyntheticRun(dir, { model, values, runtimes, metric = 'f1_score', name = 'synthetic_bench' }) {
  mkdirSync(dir, { recursive: true })
  const runName = `${name}:model=${model.replace('/', '_')}`
  const adapter = { method: 'generation', model, model_deployment: model, max_tokens: 20, temperature: 0 }
  writeFileSync(
    join(dir, 'run_spec.json'),
    JSON.stringify(
      {
        name: runName,
        scenario_spec: { class_name: 'bench.SyntheticScenario', args: {} },
        adapter_spec: adapter,
        metric_specs: [],
        data_augmenter_spec: { perturbation_specs: [] },
        groups: []
      },
      null,
      2
    )
  )
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify({ name, description: 'bench', tags: [] }, null, 2))
  // HELM writes stats.json last; an empty one marks an unfinished run, which the gate refuses.
  const mean = values.reduce((a, v) => a + v, 0) / values.length
  const aggregate = [{ name: { name: metric, split: 'test' }, count: values.length, sum: mean * values.length, mean }]
  writeFileSync(join(dir, 'stats.json'), JSON.stringify(aggregate, null, 2))
  const time = i => (runtimes ? runtimes[i] : 0.1 + values[i] / 10)
  const rows = values.map((value, i) => ({
    instance_id: `id${i}`,
    train_trial_index: 0,
    stats: instanceStats(metric, value, time(i), 80 + (i % 40))
  }))
  writeFileSync(join(dir, 'per_instance_stats.json'), JSON.stringify(rows, null, 2))
  const states = values.map((value, i) => {
    const text = value > 0.5 ? ` city ${i}` : ` town ${i}`
    return {
      instance: {
        input: { text: `what is the capital of country number ${i}?` },
        references: [{ output: { text: `city ${i}` }, tags: ['correct'] }],
        split: 'test',
        id: `id${i}`
      },
      train_trial_index: 0,
      request: {
        model_deployment: model,
        model,
        embedding: false,
        prompt: `${FEW_SHOT}Question: what is the capital of country number ${i}?\nAnswer:`,
        temperature: 0,
        num_completions: 1,
        top_k_per_token: 1,
        max_tokens: 20,
        stop_sequences: ['\n'],
        echo_prompt: false,
        top_p: 1,
        presence_penalty: 0,
        frequency_penalty: 0
      },
      result: {
        success: true,
        embedding: [],
        completions: [
          {
            text,
            logprob: -0.75,
            tokens: text.split(/(?= )/).map(t => ({ text: t, logprob: -0.25 }))
          }
        ],
        cached: false,
        request_time: time(i),
        request_datetime: 1795939068 + i
      },
      num_train_instances: 5,
      prompt_truncated: false,
      num_conditioning_tokens: 0
    }
  })
  writeFileSync(join(dir, 'scenario_state.json'), JSON.stringify({ adapter_spec: adapter, request_states: states }, null, 2))
  return dir
}

// The same data on every run: mulberry32 (test-support), re-exported for the bench scripts.
export { mulberry32 }

/** Request times shaped like a served model's: log-normal around `medianSeconds`. */
export function logNormalTimes(rand, n, medianSeconds, sigma = 0.4) {
  return Array.from({ length: n }, () => {
    const u1 = Math.max(rand(), 1e-12)
    const u2 = rand()
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2)
    return Math.round(medianSeconds * Math.exp(sigma * z) * 1e6) / 1e6
  })
}

/**
 * The real-shaped pair both compare benchmarks time (bench/compare.mjs, bench/release-compare.mjs):
 * n instances of f1_score in [0, 1] with a small drop, and request times around 0.8 s with the
 * candidate 5% slower on average. Returns the two run directories under `work`.
 */
export function writeBenchPair(work, n) {
  const rand = mulberry32(42)
  const baseline = Array.from({ length: n }, () => Math.round(rand() * 1000) / 1000)
  const candidate = baseline.map(v => Math.min(1, Math.max(0, Math.round((v + (rand() - 0.52) * 0.2) * 1000) / 1000)))
  const baseTimes = logNormalTimes(rand, n, 0.8)
  const candTimes = baseTimes.map(t => Math.round(t * (0.9 + rand() * 0.3) * 1e6) / 1e6)
  return {
    bDir: writeSyntheticRun(join(work, 'baseline'), { model: 'bench/baseline', values: baseline, runtimes: baseTimes }),
    cDir: writeSyntheticRun(join(work, 'candidate'), { model: 'bench/candidate', values: candidate, runtimes: candTimes })
  }
}
