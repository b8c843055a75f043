import { describe, expect, it } from '@jest/globals'
import type { ActionDeps } from '../../src/action/deps.js'
import { deriveEvent } from '../../src/action/event.js'
import { readSettings } from '../../src/action/inputs.js'
import type { Session } from '../../src/action/session.js'
import { loadGateFile } from '../../src/action/steps.js'

const GATE = `version: 1
helm: { version: "0.5.16", max_eval_instances: 10 }
deployments:
  baseline: { api: chat, base_url: "http://127.0.0.1:8001/v1", model: served, api_key_env: BASE_KEY }
  candidate: { api: chat, base_url: "http://127.0.0.1:8002/v1", model: served, api_key_env: CAND_KEY }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
`

describe('loadGateFile', () => {
  it('masks the API keys the gate file names, so no log line of the job can show them', async () => {
    const masked: string[] = []
    const env = { GITHUB_REPOSITORY: 'acme/serving', GITHUB_RUN_ID: '5', BASE_KEY: 'sk-base-value', CAND_KEY: 'sk-candidate-value' }
    const deps = {
      io: { setSecret: (value: string) => masked.push(value), info: () => undefined },
      env,
      readTextFile: async () => GATE
    } as unknown as ActionDeps
    const session = {
      deps,
      settings: readSettings(name => ({ 'github-token': 't', 'frozen-config': 'false' })[name] ?? ''),
      event: deriveEvent('push', {}, env),
      configFile: '/ws/.github/helm-gate.yml',
      repoPath: '.github/helm-gate.yml'
    } as unknown as Session
    await loadGateFile(session)
    expect(masked.sort()).toEqual(['sk-base-value', 'sk-candidate-value'])
  })
})
