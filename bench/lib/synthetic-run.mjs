// Writes a HELM-shaped run directory (the five files helm-run writes, docs/helm.md "The five run files")
// with chosen per-instance values, for benchmarks. Values are continuous scores in [0, 1].
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export function writeSyntheticRun(dir, { model, values, metric = 'f1_score', name = 'synthetic_bench' }) {
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
  writeFileSync(join(dir, 'stats.json'), '[]')
  const rows = values.map((value, i) => ({
    instance_id: `id${i}`,
    train_trial_index: 0,
    stats: [
      { name: { name: metric, split: 'test' }, count: 1, sum: value, sum_squared: value * value, min: value, max: value, mean: value }
    ]
  }))
  writeFileSync(join(dir, 'per_instance_stats.json'), JSON.stringify(rows, null, 2))
  const states = values.map((value, i) => ({
    instance: {
      input: { text: `question ${i}` },
      references: [{ output: { text: 'answer' }, tags: ['correct'] }],
      split: 'test',
      id: `id${i}`
    },
    train_trial_index: 0,
    request: {
      model_deployment: model,
      model,
      embedding: false,
      prompt: `Q: question ${i}\nA:`,
      temperature: 0,
      num_completions: 1,
      top_k_per_token: 1,
      max_tokens: 20,
      stop_sequences: [],
      echo_prompt: false,
      top_p: 1,
      presence_penalty: 0,
      frequency_penalty: 0
    },
    result: {
      success: true,
      embedding: [],
      completions: [{ text: value > 0.5 ? 'answer' : 'other', logprob: 0, tokens: [] }],
      cached: false,
      request_time: 0.1 + value / 10
    },
    num_train_instances: 0,
    prompt_truncated: false,
    num_conditioning_tokens: 0
  }))
  writeFileSync(join(dir, 'scenario_state.json'), JSON.stringify({ adapter_spec: adapter, request_states: states }, null, 2))
  return dir
}

/** A small deterministic generator (mulberry32) so benchmark data is the same on every run. */
export function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
