/**
 * src/plan/run-plan.ts: the run plan made once from the gate file and the environment: each
 * side's endpoint with its key, the keys' names and the values to mask, the schedule, and the
 * fingerprint (computed, or the adapter's when it has one).
 */
import { describe, expect, it } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { gateFingerprint } from '../../src/identity/gate-fingerprint.js'
import { ConfigError } from '../../src/errors.js'
import { endpointFor, makeRunPlan, planSides, requireKeys, scheduleOf } from '../../src/plan/run-plan.js'

const gate = (schedule = '') =>
  parseGateConfig(
    `
version: 1
deployments:
  baseline: { api: chat, base_url: http://127.0.0.1:8001/v1, model: a, api_key_env: BASE_KEY }
  candidate: { api: completions, base_url: http://127.0.0.1:8002/v1, model: b, api_key_env: CAND_KEY }
runs: [{ entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }]
${schedule}
`,
    'gate.yml'
  )

describe('makeRunPlan', () => {
  it('resolves each side once: endpoint, key, the key names and every value to mask', async () => {
    const env = { BASE_KEY: 'sk-base-0123456789', CAND_KEY: '' }
    const plan = await makeRunPlan(gate(), { env, cwd: process.cwd(), baseRef: null })
    expect(plan.endpoints).toEqual({
      baseline: {
        side: 'baseline',
        baseUrl: 'http://127.0.0.1:8001/v1',
        model: 'a',
        api: 'chat',
        apiKey: 'sk-base-0123456789'
      },
      candidate: { side: 'candidate', baseUrl: 'http://127.0.0.1:8002/v1', model: 'b', api: 'completions', apiKey: null }
    })
    expect(plan.keyNames).toEqual(['BASE_KEY', 'CAND_KEY'])
    expect(plan.secrets).toEqual(['sk-base-0123456789'])
    expect(plan.schedule).toBe('concurrent')
    expect(plan.fingerprint).toBe(await gateFingerprint(gate(), process.cwd(), null, env))
  })

  it("takes the adapter's fingerprint instead of computing it again", async () => {
    const plan = await makeRunPlan(gate(), { env: {}, cwd: process.cwd(), baseRef: null, fingerprint: 'sha256:given' })
    expect(plan.fingerprint).toBe('sha256:given')
  })
})

describe('scheduleOf', () => {
  it("is the gate file's schedule, concurrent by default, and --sequential overrides it", () => {
    expect(scheduleOf(gate().launch, undefined)).toBe('concurrent')
    expect(scheduleOf(gate().launch, true)).toBe('sequential')
    expect(scheduleOf({ schedule: 'sequential' }, undefined)).toBe('sequential')
    expect(scheduleOf({ schedule: 'concurrent' }, true)).toBe('sequential')
  })
})

describe('planSides', () => {
  it("names each side's key variable, and a self-check takes the baseline's endpoint for the candidate", () => {
    const sides = planSides(gate(), { BASE_KEY: 'sk-base-0123456789' })
    expect(sides.keyVariables).toEqual({ baseline: 'BASE_KEY', candidate: 'CAND_KEY' })
    expect(endpointFor(sides, 'candidate')).toMatchObject({ side: 'candidate', model: 'b', apiKey: null })
    expect(endpointFor(sides, 'candidate', true)).toMatchObject({ side: 'candidate', model: 'a', apiKey: 'sk-base-0123456789' })
  })

  it('requireKeys refuses a side about to run whose named key is not set, naming the variable and the field', () => {
    const sides = planSides(gate(), { BASE_KEY: 'sk-base-0123456789' })
    expect(() => requireKeys(sides, ['baseline'], 'gate.yml')).not.toThrow()
    // A self-check runs the baseline's deployment (and key) on both sides.
    expect(() => requireKeys(sides, ['baseline', 'candidate'], 'gate.yml', true)).not.toThrow()
    let refused: unknown
    try {
      requireKeys(sides, ['baseline', 'candidate'], 'gate.yml')
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(ConfigError)
    expect((refused as ConfigError).code).toBe('config.api_key_missing')
    expect((refused as ConfigError).location).toEqual({ file: 'gate.yml', field: 'deployments.candidate.api_key_env', value: 'CAND_KEY' })
  })
})
