import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fingerprint } from '../../src/config/fingerprint.js'
import { loadGateConfig, parseGateConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'

const FULL = `
version: 1
helm:
  version: 0.5.16
  max_eval_instances: 200
  num_train_trials: 1
  num_threads: 8
  timeout_minutes: 30
deployments:
  baseline:
    api: chat
    base_url: http://127.0.0.1:8001/v1/
    model: llama-bf16
    api_key_env: BASELINE_KEY
  candidate:
    api: completions
    base_url: http://127.0.0.1:8002/v1
    model: llama-fp8
runs:
  - entry: synthetic_reasoning:mode=pattern_match
    metric: exact_match
    max_drop: 0.02
  - entry: simple_mcqa:data_augmentation=robustness
    metric: exact_match
    max_relative_drop: 0.05
    perturbations: gate
statistics:
  confidence: 0.9
  resamples: 2000
  seed: 7
`

function configError(text: string): ConfigError {
  try {
    parseGateConfig(text, 'gate.yml')
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('expected a ConfigError')
}

describe('parseGateConfig', () => {
  it('reads a complete gate file into typed settings with defaults filled in', () => {
    const config = parseGateConfig(FULL, 'gate.yml')
    expect(config.helm).toEqual({
      version: '0.5.16',
      maxEvalInstances: 200,
      numTrainTrials: 1,
      numThreads: 8,
      timeoutMinutes: 30,
      command: 'helm-run'
    })
    expect(config.deployments?.baseline).toEqual({
      kind: 'server',
      api: 'chat',
      baseUrl: 'http://127.0.0.1:8001/v1',
      model: 'llama-bf16',
      tokenizer: 'simple/tokenizer1',
      maxSequenceLength: 4096,
      apiKeyEnv: 'BASELINE_KEY',
      requestTimeoutSeconds: 60
    })
    expect(config.runs[1]).toEqual({
      entry: 'simple_mcqa:data_augmentation=robustness',
      match: null,
      metric: 'exact_match',
      split: null,
      maxDrop: null,
      maxRelativeDrop: 0.05,
      direction: 'higher',
      perturbations: 'gate'
    })
    expect(config.statistics).toEqual({
      confidence: 0.9,
      resamples: 2000,
      seed: 7,
      minOverlap: 0.95,
      interval: 'auto',
      flipTolerance: 1e-9
    })
  })

  it.each([
    ['an unknown top-level key', 'runs: [{entry: a, metric: m, max_drop: 0.1}]\nthreshold: 3', 'threshold', 'config.unknown_key'],
    ['a typo inside a run', 'runs: [{entry: a, metric: m, max_dorp: 0.1}]', 'runs[0].max_dorp', 'config.unknown_key'],
    ['a negative drop', 'runs: [{entry: a, metric: m, max_drop: -0.1}]', 'runs[0].max_drop', 'config.invalid'],
    ['a drop given as text', 'runs: [{entry: a, metric: m, max_drop: "2%"}]', 'runs[0].max_drop', 'config.invalid'],
    ['no tolerated drop', 'runs: [{entry: a, metric: m}]', 'runs[0].max_drop', 'config.invalid'],
    ['both drops', 'runs: [{entry: a, metric: m, max_drop: 0.1, max_relative_drop: 0.1}]', 'runs[0].max_relative_drop', 'config.invalid'],
    [
      'a relative drop of 1 or more',
      'runs: [{entry: a, metric: m, max_relative_drop: 1.5}]',
      'runs[0].max_relative_drop',
      'config.invalid'
    ],
    ['a model in the entry', 'runs: [{entry: "a:model=x/y", metric: m, max_drop: 0.1}]', 'runs[0].entry', 'config.invalid'],
    ['a missing metric', 'runs: [{entry: a, max_drop: 0.1}]', 'runs[0].metric', 'config.missing'],
    [
      'a bad perturbation policy',
      'runs: [{entry: a, metric: m, max_drop: 0.1, perturbations: always}]',
      'runs[0].perturbations',
      'config.invalid'
    ],
    [
      'an impossible confidence',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\nstatistics: {confidence: 95}',
      'statistics.confidence',
      'config.invalid'
    ],
    [
      'too few resamples',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\nstatistics: {resamples: 10}',
      'statistics.resamples',
      'config.invalid'
    ],
    ['a fractional seed', 'runs: [{entry: a, metric: m, max_drop: 0.1}]\nstatistics: {seed: 1.5}', 'statistics.seed', 'config.invalid'],
    [
      'a helm version range',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\nhelm: {version: ">=0.5", max_eval_instances: 10}',
      'helm.version',
      'config.invalid'
    ],
    [
      'a missing instance budget',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\nhelm: {version: 0.5.16}',
      'helm.max_eval_instances',
      'config.missing'
    ],
    [
      'an unknown api',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\ndeployments: {baseline: {api: grpc, base_url: "http://x/v1", model: m}, candidate: {api: chat, base_url: "http://x/v1", model: m}}',
      'deployments.baseline.api',
      'config.invalid'
    ],
    [
      'a key instead of an env var name',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\ndeployments: {baseline: {api: chat, base_url: "http://x/v1", model: m, api_key_env: "sk-123 456"}, candidate: {api: chat, base_url: "http://x/v1", model: m}}',
      'deployments.baseline.api_key_env',
      'config.invalid'
    ],
    [
      'a URL with credentials',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\ndeployments: {baseline: {api: chat, base_url: "http://u:p@x/v1", model: m}, candidate: {api: chat, base_url: "http://x/v1", model: m}}',
      'deployments.baseline.base_url',
      'config.invalid'
    ],
    [
      'a URL with a query',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\ndeployments: {baseline: {api: chat, base_url: "http://x/v1?key=abc", model: m}, candidate: {api: chat, base_url: "http://x/v1", model: m}}',
      'deployments.baseline.base_url',
      'config.invalid'
    ],
    [
      'a URL with a fragment',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\ndeployments: {baseline: {api: chat, base_url: "http://x/v1", model: m}, candidate: {api: chat, base_url: "http://x/v1#top", model: m}}',
      'deployments.candidate.base_url',
      'config.invalid'
    ],
    [
      'a missing candidate',
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\ndeployments: {baseline: {api: chat, base_url: "http://x/v1", model: m}}',
      'deployments.candidate',
      'config.invalid'
    ],
    [
      'a repeated run',
      'runs: [{entry: a, metric: m, max_drop: 0.1}, {entry: a, metric: m, max_drop: 0.2}]',
      'runs[1].entry',
      'config.duplicate'
    ],
    ['a wrong version', 'version: 2\nruns: [{entry: a, metric: m, max_drop: 0.1}]', 'version', 'config.invalid'],
    ['runs that are not a list', 'runs: {entry: a}', 'runs', 'config.invalid']
  ])('rejects %s, naming the key path', (_what, text, field, code) => {
    const error = configError(text)
    expect(error.code).toBe(code)
    expect(error.location.field).toBe(field)
    expect(error.location.file).toBe('gate.yml')
    expect(error.describe()).toContain(field)
  })

  it('rejects an empty file and invalid YAML with the file name', () => {
    expect(configError('').location.file).toBe('gate.yml')
    const yamlError = configError('runs: [unclosed')
    expect(yamlError.code).toBe('config.yaml')
  })

  it('does not echo the query of a base_url (it may carry a key)', () => {
    const error = configError(
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\ndeployments: {baseline: {api: chat, base_url: "http://x:8000/v1?key=sk-abc", model: m}, candidate: {api: chat, base_url: "http://x/v1", model: m}}'
    )
    expect(error.describe()).toContain('must not have a query')
    expect(error.describe()).toContain('x:8000')
    expect(error.describe()).not.toContain('sk-abc')
  })

  it('does not echo a secret-looking api_key_env value', () => {
    const error = configError(
      'runs: [{entry: a, metric: m, max_drop: 0.1}]\ndeployments: {baseline: {api: chat, base_url: "http://x/v1", model: m, api_key_env: "sk-secret value"}, candidate: {api: chat, base_url: "http://x/v1", model: m}}'
    )
    expect(error.describe()).not.toContain('sk-secret')
  })
})

describe('loadGateConfig', () => {
  it('reads a file and names it in errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gate-'))
    const file = join(dir, 'gate.yml')
    writeFileSync(file, FULL)
    expect((await loadGateConfig(file)).runs).toHaveLength(2)
    await expect(loadGateConfig(join(dir, 'missing.yml'))).rejects.toMatchObject({
      code: 'config.unreadable',
      location: { file: join(dir, 'missing.yml') }
    })
  })
})

describe('fingerprint', () => {
  const base = parseGateConfig(FULL, 'gate.yml')

  it('ignores thresholds and statistics settings', () => {
    const looser = parseGateConfig(FULL.replace('max_drop: 0.02', 'max_drop: 0.5').replace('seed: 7', 'seed: 8'), 'gate.yml')
    expect(fingerprint(looser)).toBe(fingerprint(base))
  })

  it.each([
    ['the HELM version', (t: string) => t.replace('version: 0.5.16', 'version: 0.5.15')],
    ['the instance budget', (t: string) => t.replace('max_eval_instances: 200', 'max_eval_instances: 201')],
    ['a run entry', (t: string) => t.replace('mode=pattern_match', 'mode=induction')],
    ['the baseline model', (t: string) => t.replace('model: llama-bf16', 'model: llama-bf16-v2')]
  ])('changes with %s', (_what, edit) => {
    expect(fingerprint(parseGateConfig(edit(FULL), 'gate.yml'))).not.toBe(fingerprint(base))
  })

  it('does not change with the candidate deployment', () => {
    const other = parseGateConfig(FULL.replace('model: llama-fp8', 'model: llama-int4'), 'gate.yml')
    expect(fingerprint(other)).toBe(fingerprint(base))
  })
})
