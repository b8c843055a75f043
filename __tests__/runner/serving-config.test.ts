/**
 * The serving configuration in the identity (issue 28): the chat template and the sampling
 * defaults a server reports, probed from real loopback servers (the fake OpenAI server answers
 * llama.cpp's /props and vLLM's /tokenizer_info), compared once, and shown in every report header
 * with the row marked when the sides differ. The real llama-server is probed in
 * __tests__/e2e/real-engine-serving.serial.test.ts.
 */
import { afterAll, describe, expect, test } from '@jest/globals'
import type { Manifest } from '../../src/model/manifest.js'
import { compareServing, type ServingConfig } from '../../src/model/side-identity.js'
import { renderConsole } from '../../src/report/console.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { attachIdentity } from '../../src/runner/engine-identity.js'
import { probeServingConfig, servingFromProps, servingFromTokenizerInfo } from '../../src/server/engine-version.js'
import { probeServer, type ProbeResult } from '../../src/server/readiness.js'
import { startFakeServer, type FakeServer } from '../../test-support/fake-openai/harness.js'
import { makeReport } from '../report/make-report.js'

const started: FakeServer[] = []
afterAll(async () => {
  await Promise.all(started.map(s => s.stop()))
})
const start = async (options: Parameters<typeof startFakeServer>[0]): Promise<FakeServer> => {
  const server = await startFakeServer(options)
  started.push(server)
  return server
}

function manifestOf(baseline: ProbeResult, candidate: ProbeResult): Manifest {
  const side = (server: ProbeResult, port: number) => ({
    source: 'run',
    output_path: 'x',
    complete: true,
    deployment: { kind: 'server', api: 'chat', base_url: `http://127.0.0.1:${port}/v1`, model: 'm1' },
    server
  })
  return {
    fingerprint: 'f'.repeat(64),
    helm_version: '0.5.16',
    schedule: 'sequential',
    baseline_origin: null,
    sides: { baseline: side(baseline, 1), candidate: side(candidate, 2) }
  } as unknown as Manifest
}

describe('the serving configuration from two llama.cpp servers, one with --chat-template chatml', () => {
  test('is probed, compared, and shown with the differing rows marked in markdown and the console', async () => {
    const baseline = await start({ answerKeys: [], models: ['m1'], llamaCpp: { ftype: 'F16' } })
    const candidate = await start({
      answerKeys: [],
      models: ['m1'],
      llamaCpp: { ftype: 'F16', defaultTemperature: 0.2 },
      chatTemplate: 'chatml'
    })
    const probe = (server: FakeServer, side: string) =>
      probeServer({ side, baseUrl: server.baseUrl, model: 'm1', apiKey: null, timeoutMs: 5_000 })
    const b = await probe(baseline, 'baseline')
    const c = await probe(candidate, 'candidate')
    expect(b.serving_config?.source).toBe('llama.cpp GET /props')
    expect(b.serving_config?.chat_template?.name).toBeNull()
    expect(c.serving_config?.chat_template).toMatchObject({ name: 'chatml', length: 6 })
    // float32 as llama.cpp prints it (0.949999988079071), shown to 6 significant digits.
    expect(b.serving_config?.sampling).toMatchObject({ temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05, n_ctx: 2048 })

    const report = makeReport()
    attachIdentity(report, manifestOf(b, c))
    const serving = report.context?.serving
    expect(serving?.chat_template?.differs).toBe(true)
    expect(serving?.chat_template?.candidate).toMatch(/^chatml · sha256 [0-9a-f]{12} · 6 chars$/)
    expect(serving?.sampling).toEqual({ baseline: 'temperature 0.8', candidate: 'temperature 0.2', differs: true })

    const markdown = renderMarkdown(report, { maxLength: 65_000, marker: '<!-- helm-gate -->' })
    expect(markdown).toMatch(
      /\| Chat template \*\*\(differs\)\*\* \| sha256 [0-9a-f]{12} · \d+ chars \| chatml · sha256 [0-9a-f]{12} · 6 chars \|/
    )
    expect(markdown).toContain('| Sampling (server defaults) **(differs)** | temperature 0.8 | temperature 0.2 |')
    const console = renderConsole(report, { color: false })
    expect(console).toMatch(
      /chat template: baseline sha256 [0-9a-f]{12} · \d+ chars; candidate chatml · sha256 [0-9a-f]{12} · 6 chars {2}\(differs\)/
    )
  }, 60_000)

  test('the same configuration on both sides is shown unmarked, by its core settings', async () => {
    const one = await start({ answerKeys: [], models: ['m1'], llamaCpp: { ftype: 'F16' } })
    const b = await probeServer({ side: 'baseline', baseUrl: one.baseUrl, model: 'm1', apiKey: null, timeoutMs: 5_000 })
    const report = makeReport()
    attachIdentity(report, manifestOf(b, b))
    expect(report.context?.serving?.chat_template?.differs).toBe(false)
    expect(report.context?.serving?.sampling).toEqual({
      baseline: 'temperature 0.8 · top_k 40 · top_p 0.95 · min_p 0.05 · seed 4294967295 · n_ctx 2048',
      candidate: 'temperature 0.8 · top_k 40 · top_p 0.95 · min_p 0.05 · seed 4294967295 · n_ctx 2048',
      differs: false
    })
    const markdown = renderMarkdown(report, { maxLength: 65_000, marker: '<!-- helm-gate -->' })
    expect(markdown).toMatch(/\| Chat template \| sha256 /)
    expect(markdown).not.toContain('(differs)')
  }, 60_000)

  test("vLLM's template from /tokenizer_info; a server that serves neither route has none, and that is no error", async () => {
    const vllm = await start({ answerKeys: [], models: ['m1'], chatTemplate: '{{ messages[0].content }}' })
    expect(await probeServingConfig(vllm.baseUrl, null)).toEqual({
      source: 'vLLM GET /tokenizer_info',
      chat_template: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), name: null, length: 25 },
      sampling: null
    })
    const plain = await start({ answerKeys: [], models: ['m1'] })
    expect(await probeServingConfig(plain.baseUrl, null)).toBeNull()
    expect(await probeServingConfig('not a url', null)).toBeNull()
  }, 60_000)
})

describe('reading and comparing serving configurations (pure)', () => {
  test("llama.cpp's older /props shape (settings without params) and odd values", () => {
    const config = servingFromProps({
      chat_template: '',
      default_generation_settings: {
        n_ctx: 512,
        temperature: 0.699999988079071,
        samplers: ['top_k', 'temperature'],
        grammar: '',
        logit_bias: [[1, 2]]
      }
    })
    expect(config).toEqual({
      source: 'llama.cpp GET /props',
      chat_template: null,
      sampling: { temperature: 0.7, samplers: 'top_k,temperature', n_ctx: 512 }
    })
    expect(servingFromProps({ build_info: 'b1' })).toBeNull()
    expect(servingFromProps([1])).toBeNull()
    expect(servingFromTokenizerInfo({ tokenizer_class: 'X' })).toBeNull()
  })

  test('only values both sides report are compared; a side that reports nothing is not a change', () => {
    const config = (template: string | null, sampling: ServingConfig['sampling']): ServingConfig => ({
      source: 'llama.cpp GET /props',
      chat_template: template ? { sha256: template.repeat(64).slice(0, 64), name: null, length: 10 } : null,
      sampling
    })
    expect(compareServing(config('a', { temperature: 0.8 }), null)).toEqual({
      chat_template: { baseline: 'sha256 aaaaaaaaaaaa · 10 chars', candidate: '', differs: false },
      sampling: { baseline: 'temperature 0.8', candidate: '', differs: false }
    })
    expect(compareServing(config('a', { temperature: 0.8, top_k: 40 }), config('b', { top_k: 40 }))).toEqual({
      chat_template: { baseline: 'sha256 aaaaaaaaaaaa · 10 chars', candidate: 'sha256 bbbbbbbbbbbb · 10 chars', differs: true },
      sampling: { baseline: 'temperature 0.8', candidate: 'temperature (unset)', differs: true }
    })
    expect(compareServing(null, undefined)).toBeNull()
  })
})
