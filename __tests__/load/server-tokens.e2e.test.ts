/**
 * Synthetic prompts sized in the server's tokens (src/load/server-tokens.ts), against the fake
 * OpenAI server's vLLM-shaped /tokenize and /detokenize, whose tokenizer here cuts words into
 * pieces of 3 characters: a word is several tokens, as on the real-engine example's vocabulary.
 * Both sides get the same texts, each exactly the drawn count by the server's own tokenizer; a
 * server without /tokenize keeps one word per token, and the report says which.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { runLoad } from '../../src/load/run-load.js'
import { syntheticSource } from '../../src/load/workload.js'
import type { LoadSettings } from '../../src/config/load-types.js'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { startFakeServer, type FakeServer } from '../../test-support/fake-openai/harness.js'
import { gateText } from './load-helpers.js'

const ENGINE = { maxNumSeqs: 16, prefillBaseMs: 0.1, prefillPerTokenMs: 0, decodeBaseMs: 1, decodePerSeqMs: 0 }
const LOAD = `workload:
  prompts: synthetic
  input_tokens: { mean: 24, stddev: 6, min: 10, max: 40 }
  output_tokens: { mean: 4, stddev: 0 }
concurrency: [2]
requests_per_level: 12
warmup_requests: 2
repetitions: 3
checks:
  - { metric: error_rate, max: 0 }`

let stops: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(stops.map(stop => stop()))
  stops = []
})

async function tokenCount(baseUrl: string, text: string): Promise<number> {
  const answer = await fetch(baseUrl.replace(/\/v1$/, '/tokenize'), { method: 'POST', body: JSON.stringify({ prompt: text }) })
  return ((await answer.json()) as { tokens: number[] }).tokens.length
}

describe('synthetic prompts sized in the server tokens', () => {
  test('with /tokenize: every prompt is the drawn count of the baseline tokenizer, where words would not be', async () => {
    const servers: FakeServer[] = []
    for (let i = 0; i < 2; i++) {
      const server = await startFakeServer({ answerKeys: [], models: ['engine-model'], tokenChars: 3, streamEngine: ENGINE })
      stops.push(() => server.stop())
      servers.push(server)
    }
    const config = parseGateConfig(gateText(servers[0].baseUrl, servers[1].baseUrl, LOAD), 'gate.yml')
    const { report } = await runLoad(config, { env: {} })
    expect(report.errors).toEqual([])
    const p = report.prompt_tokens
    expect(p?.sized_by).toBe('server')
    expect(p?.tokenizer).toBe('vllm /tokenize of the baseline')
    // 2 warm-up prompts and 3 blocks of 4 at the one level.
    expect(p?.prompts).toBe(14)
    expect(p?.realized_mean).toBeCloseTo(p?.requested_mean ?? NaN, 10)
    expect(p?.realized_min).toBeGreaterThanOrEqual(10)
    expect(p?.realized_max).toBeLessThanOrEqual(40)
    expect(report.notes.some(note => note.startsWith('Synthetic prompts sized with the vllm /tokenize of the baseline'))).toBe(true)
    // The same draws as words would have been several times longer in this tokenizer.
    const words = syntheticSource(config.load as LoadSettings).item('block:0:0', 0)
    const asked = words.kind === 'text' ? words.text.split(' ').length : 0
    expect(await tokenCount(servers[0].baseUrl, words.kind === 'text' ? words.text : '')).toBeGreaterThan(1.5 * asked)
  }, 60_000)

  test('without /tokenize: one word per token, and the report says so', async () => {
    const engines: FakeEngine[] = []
    for (let i = 0; i < 2; i++) {
      const engine = await startEngine(ENGINE)
      stops.push(() => engine.stop())
      engines.push(engine)
    }
    const config = parseGateConfig(gateText(engines[0].baseUrl, engines[1].baseUrl, LOAD), 'gate.yml')
    const { report } = await runLoad(config, { env: {} })
    expect(report.errors).toEqual([])
    expect(report.prompt_tokens?.sized_by).toBe('words')
    expect(
      report.notes.some(note => note.startsWith('Synthetic prompts sized at one word per token (the baseline serves no /tokenize)'))
    ).toBe(true)
  }, 60_000)
})
