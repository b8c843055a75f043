/** What is decided before anything runs: the two sides' deployments are checked against each other. */
import { describe, expect, it } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'
import { prepareRun } from '../../src/runner/prepare-run.js'

describe('prepareRun', () => {
  const gate = (candidate: string): string => `version: 1
helm: { version: "0.5.16", max_eval_instances: 10 }
deployments:
  baseline: { api: chat, base_url: "http://127.0.0.1:8000/v1", model: served }
  candidate: ${candidate}
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
`
  const options = { outDir: '/out', tempDir: '/tmp/x', stamp: 'T' }

  it('refuses to run both sides against one and the same deployment: the candidate would never be measured', async () => {
    const config = parseGateConfig(
      gate('{ api: chat, base_url: "http://127.0.0.1:8000/v1/", model: served, api_key_env: OTHER }'),
      'gate.yml'
    )
    await expect(prepareRun(config, { ...options, sides: ['baseline', 'candidate'] })).rejects.toThrow(ConfigError)
    await expect(prepareRun(config, { ...options, sides: ['baseline', 'candidate'] })).rejects.toThrow(/same deployment/)
    // A self-check does that on purpose; an archived baseline leaves only the candidate to run.
    await expect(prepareRun(config, { ...options, sides: ['baseline', 'candidate'], selfCheck: true })).resolves.toBeDefined()
    await expect(prepareRun(config, { ...options, sides: ['candidate'] })).resolves.toBeDefined()
  })

  it('accepts two models on one server and one model on two servers', async () => {
    for (const candidate of [
      '{ api: chat, base_url: "http://127.0.0.1:8000/v1", model: served-fp8 }',
      '{ api: chat, base_url: "http://127.0.0.1:8001/v1", model: served }'
    ]) {
      const config = parseGateConfig(gate(candidate), 'gate.yml')
      await expect(prepareRun(config, { ...options, sides: ['baseline', 'candidate'] })).resolves.toBeDefined()
    }
  })
})
