/** plan asks a server that is always up which fidelity route it supports (the run's own detection). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import type { FidelitySettings } from '../../src/config/fidelity.js'
import { fidelityPlanLines } from '../../src/fidelity/fidelity-plan-lines.js'
import { startFakeServer, type FakeServer } from '../../test-support/fake-openai/harness.js'

let vllmLike: FakeServer
let llamaLike: FakeServer

beforeAll(async () => {
  ;[vllmLike, llamaLike] = await Promise.all([
    startFakeServer({ answerKeys: [] }),
    startFakeServer({ answerKeys: [], llamaCpp: { ftype: 'Q4_0' } })
  ])
}, 30_000)

afterAll(async () => {
  await Promise.all([vllmLike?.stop(), llamaLike?.stop()])
})

describe('fidelityPlanLines', () => {
  it('names each always-up side route: llama-server forced by grammar; a server without prompt_logprobs the greedy prefix', async () => {
    const config = parseGateConfig(
      `version: 1
deployments:
  baseline: { api: chat, base_url: "${llamaLike.baseUrl}", model: gate-model }
  candidate: { api: chat, base_url: "${vllmLike.baseUrl}", model: gate-model }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.02 }
fidelity:
  instances: 30
  checks: [{ metric: kld_mean, max: 0.05 }]
`,
      '/tmp/gate.yml'
    )
    const lines = await fidelityPlanLines(config as typeof config & { fidelity: FidelitySettings }, {})
    expect(lines[0]).toMatch(/first 30 prompts .* top-20 .* an A\/A floor .* checks: kld_mean <= 0.05$/)
    expect(lines[1]).toBe(`# fidelity baseline: llamacpp-forced-grammar (asked ${llamaLike.baseUrl} now)`)
    // The fake answers /version like vLLM but returns no prompt_logprobs: the probe says so.
    expect(lines[2]).toBe(`# fidelity candidate: greedy-prefix (asked ${vllmLike.baseUrl} now)`)
  }, 30_000)
})
