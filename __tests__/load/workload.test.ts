import { describe, expect, test } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { requestBody, syntheticSource } from '../../src/load/workload.js'

const config = parseGateConfig(
  `version: 1
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
load:
  workload: { input_tokens: { mean: 100, stddev: 30, min: 20, max: 160 }, output_tokens: { mean: 64 } }
  concurrency: [4]
  requests_per_level: 12
`,
  'g.yml'
)

describe('synthetic workload', () => {
  test('the same seed gives the same prompts on both sides; each block has its own', () => {
    const a = syntheticSource(config.load!)
    const b = syntheticSource(config.load!)
    expect(a.item('block:0:1', 3)).toEqual(b.item('block:0:1', 3))
    expect(a.item('block:0:1', 3)).not.toEqual(a.item('block:0:2', 3))
  })

  test('token counts follow the configured distribution, clipped', () => {
    const source = syntheticSource(config.load!)
    const counts = Array.from({ length: 400 }, (_, i) => {
      const item = source.item('s', i)
      return item.kind === 'text' ? item.text.split(' ').length : 0
    })
    const mean = counts.reduce((x, y) => x + y) / counts.length
    expect(Math.abs(mean - 100)).toBeLessThan(5)
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(20)
    expect(Math.max(...counts)).toBeLessThanOrEqual(160)
  })

  test('request bodies stream with usage and ask to ignore EOS when the server accepts it', () => {
    const item = { kind: 'text' as const, text: 'a b c', maxTokens: 8 }
    expect(JSON.parse(requestBody(item, 'chat', 'm', true))).toEqual({
      messages: [{ role: 'user', content: 'a b c' }],
      model: 'm',
      max_tokens: 8,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
      ignore_eos: true,
      min_tokens: 8
    })
    const completion = JSON.parse(requestBody(item, 'completions', 'm', false))
    expect(completion.prompt).toBe('a b c')
    expect(completion.ignore_eos).toBeUndefined()
  })
})
