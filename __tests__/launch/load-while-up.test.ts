/**
 * The load half of launched deployments (src/launch/load-while-up.ts) against real fake engines:
 * both held at once run A B B A; a side that was never up while the load half could run is an
 * error, never a pass.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { LoadWhileUp } from '../../src/launch/load-while-up.js'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { loadGate } from '../load/load-helpers.js'

const LOAD = `workload: { prompts: synthetic, input_tokens: { mean: 8, stddev: 0 }, output_tokens: { mean: 8, stddev: 0 } }
concurrency: [2]
requests_per_level: 12
warmup_requests: 0
repetitions: 3
checks:
  - { metric: error_rate, max: 0 }`

describe('LoadWhileUp', () => {
  let baseline: FakeEngine
  let candidate: FakeEngine
  beforeAll(async () => {
    ;[baseline, candidate] = await Promise.all([startEngine(), startEngine()])
  })
  afterAll(async () => {
    await Promise.all([baseline?.stop(), candidate?.stop()])
  })

  it('runs the ordinary A B B A when both sides are up at once', async () => {
    const load = new LoadWhileUp(loadGate(baseline.baseUrl, candidate.baseUrl, LOAD), { env: {} })
    await load.hold(['baseline', 'candidate'], {})
    const { report } = await load.result()
    expect(report.interleaved).toBe(true)
    expect(report.blocks.map(b => b.side)).toEqual(['baseline', 'candidate', 'candidate', 'baseline', 'baseline', 'candidate'])
  })

  it('a side never up while the load half could run (its launch failed) is an error', async () => {
    const down = 'http://127.0.0.1:9/v1'
    const load = new LoadWhileUp(loadGate(baseline.baseUrl, down, LOAD), { env: {} })
    const { report } = await load.result()
    expect(report.verdict).toBe('error')
    expect(report.errors).toHaveLength(1)
    expect(report.errors[0].message).toMatch(/^candidate: .*(not reachable|ECONNREFUSED)/)
  })
})
