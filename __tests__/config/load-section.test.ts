import { describe, expect, test } from '@jest/globals'
import { fingerprint } from '../../src/config/fingerprint.js'
import { parseGateConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'

const BASE = `version: 1
deployments:
  baseline: { api: chat, base_url: http://127.0.0.1:8000/v1, model: m }
  candidate: { api: chat, base_url: http://127.0.0.1:8001/v1, model: m }
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
`

const withLoad = (load: string): string =>
  `${BASE}load:\n${load
    .trim()
    .split('\n')
    .map(l => `  ${l}`)
    .join('\n')}\n`

const ISSUE_EXAMPLE = `
workload:
  prompts: synthetic
  input_tokens:  { mean: 512, stddev: 128, min: 16, max: 4096 }
  output_tokens: { mean: 256, stddev: 0 }
concurrency: [1, 16, 64]
requests_per_level: 300
warmup_requests: 20
repetitions: 3
timeout_seconds: 120
slo: { ttft_ms: { p99: 2000 }, itl_ms: { p99: 80 } }
checks:
  - { metric: output_tokens_per_second, concurrency: 64, min_ratio: 1.3 }
  - { metric: ttft_p99, max_ratio: 1.10 }
  - { metric: goodput, min_ratio: 1.0 }
  - { metric: error_rate, max: 0 }
`

function errorOf(text: string): ConfigError {
  try {
    parseGateConfig(text, 'gate.yml')
  } catch (error) {
    return error as ConfigError
  }
  throw new Error('no error')
}

describe('gate file load: section', () => {
  test("the issue's example parses into typed settings", () => {
    const config = parseGateConfig(withLoad(ISSUE_EXAMPLE), 'gate.yml')
    const load = config.load!
    expect(load.mode).toBe('concurrency')
    expect(load.levels).toEqual([1, 16, 64])
    expect(load.workload.inputTokens).toEqual({ mean: 512, stddev: 128, min: 16, max: 4096 })
    expect(load.workload.outputTokens).toEqual({ mean: 256, stddev: 0, min: 256, max: 256 })
    expect(load.slo).toEqual([
      { metric: 'ttft', percentile: 99, maxMs: 2000 },
      { metric: 'itl', percentile: 99, maxMs: 80 }
    ])
    expect(load.checks).toEqual([
      { metric: 'output_tokens_per_second', level: 64, minRatio: 1.3, maxRatio: null, min: null, max: null },
      { metric: 'ttft_p99', level: null, minRatio: null, maxRatio: 1.1, min: null, max: null },
      { metric: 'goodput', level: null, minRatio: 1, maxRatio: null, min: null, max: null },
      { metric: 'error_rate', level: null, minRatio: null, maxRatio: null, min: null, max: 0 }
    ])
    expect(load.baseline).toBe('required')
  })

  test('without load: nothing changes', () => {
    expect(parseGateConfig(BASE, 'gate.yml').load).toBeNull()
  })

  test('the fingerprint does not include load:', () => {
    expect(fingerprint(parseGateConfig(withLoad(ISSUE_EXAMPLE), 'g.yml'))).toBe(fingerprint(parseGateConfig(BASE, 'g.yml')))
  })

  test('open loop: rate levels with an arrival process', () => {
    const load = parseGateConfig(
      withLoad('rate: [2, 8]\narrival: constant\nduration_seconds: 30\nchecks:\n  - { metric: error_rate, rate: 8, max: 0.01 }'),
      'g'
    ).load!
    expect([load.mode, load.levels, load.arrival, load.durationSeconds, load.checks[0].level]).toEqual(['rate', [2, 8], 'constant', 30, 8])
  })

  test.each([
    ['concurrency: [1]\nrequests_per_level: 30\nchecks: []\nfoo: 1', 'load.foo', 'config.unknown_key'],
    ['concurrency: [1, 0]\nrequests_per_level: 30', 'load.concurrency', 'config.invalid'],
    ['concurrency: [1]\nrate: [2]\nrequests_per_level: 30', 'load.rate', 'config.invalid'],
    ['requests_per_level: 30', 'load.concurrency', 'config.invalid'],
    ['concurrency: [1]', 'load.requests_per_level', 'config.invalid'],
    ['concurrency: [1]\nrequests_per_level: 30\nrepetitions: 2', 'load.repetitions', 'config.invalid'],
    [
      'concurrency: [1]\nrequests_per_level: 30\nchecks:\n  - { metric: ttft_p99, concurrency: 64, max_ratio: 1.1 }',
      'load.checks[0].concurrency',
      'config.invalid'
    ],
    [
      'concurrency: [1]\nrequests_per_level: 30\nchecks:\n  - { metric: ttft_p98, max_ratio: 1.1 }',
      'load.checks[0].metric',
      'config.invalid'
    ],
    ['concurrency: [1]\nrequests_per_level: 30\nchecks:\n  - { metric: ttft_p99 }', 'load.checks[0].metric', 'config.invalid'],
    [
      'concurrency: [1]\nrequests_per_level: 30\nchecks:\n  - { metric: error_rate, max_ratio: 1.1 }',
      'load.checks[0].max_ratio',
      'config.invalid'
    ],
    ['concurrency: [1]\nrequests_per_level: 30\nchecks:\n  - { metric: goodput, min_ratio: 1 }', 'load.slo', 'config.invalid'],
    ['concurrency: [1]\nrequests_per_level: 30\nslo: { itl_ms: { p101: 5 } }', 'load.slo.itl_ms.p101', 'config.invalid'],
    ['concurrency: [1]\nrequests_per_level: 30\nworkload: { prompts: file }', 'load.workload.file', 'config.invalid'],
    [
      'concurrency: [1]\nrequests_per_level: 30\nworkload: { input_tokens: { mean: 10, min: 20 } }',
      'load.workload.input_tokens.min',
      'config.invalid'
    ],
    ['concurrency: [1]\nrequests_per_level: 30\nbaseline: maybe', 'load.baseline', 'config.invalid'],
    ['concurrency: [1]\nrequests_per_level: 30\nworkload: { prompts: traffic }', 'load.workload.file', 'config.invalid'],
    ['concurrency: [1]\nrequests_per_level: 30\nworkload: { prompts: traffic, file: traffic.yml }', 'load.workload.file', 'config.invalid'],
    [
      'concurrency: [1]\nrequests_per_level: 30\nworkload: { prompts: traffic, file: t.jsonl, input_tokens: { mean: 9 } }',
      'load.workload.input_tokens',
      'config.invalid'
    ],
    ['rate: [2]\narrival: traffic\nrequests_per_level: 30', 'load.arrival', 'config.invalid'],
    [
      'concurrency: [2]\narrival: traffic\nrequests_per_level: 30\nworkload: { prompts: traffic, file: t.jsonl }',
      'load.arrival',
      'config.invalid'
    ]
  ])('%s -> an error naming %s', (load, field, code) => {
    const error = errorOf(withLoad(load))
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.location.field).toBe(field)
    expect(error.code).toBe(code)
    expect(error.location.file).toBe('gate.yml')
  })
})
