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

describe('loadGateFile with a traffic set', () => {
  it("in a pull request reads the set at the base commit (base64, or raw bytes past 1 MB), never the work tree's", async () => {
    const line = (id: string, content: string): string =>
      JSON.stringify({
        id,
        stratum: 'all/short',
        tag: null,
        request: { messages: [{ role: 'user', content }] },
        reference: null,
        logged_response: null,
        arrival_ms: null
      })
    const baseSet = `${line('t-1', 'from the base commit')}\n`
    const gate = `${GATE}traffic:\n  set: traffic.jsonl\n`
    const env = { GITHUB_REPOSITORY: 'acme/serving', GITHUB_RUN_ID: '5', BASE_KEY: 'k1', CAND_KEY: 'k2' }
    const event = deriveEvent(
      'pull_request',
      {
        repository: { id: 1, default_branch: 'main' },
        pull_request: { number: 3, head: { sha: 'h', repo: { id: 1 } }, base: { sha: 'base123', repo: { id: 1 } } }
      },
      env
    )
    for (const large of [false, true]) {
      const asked: string[] = []
      const files: Record<string, string> = { '.github/helm-gate.yml': gate, '.github/traffic.jsonl': baseSet }
      const client = {
        rest: {
          repos: {
            getContent: async (params: { path: string; ref: string; mediaType?: { format: string } }) => {
              asked.push(`${params.path}@${params.ref}${params.mediaType ? ' raw' : ''}`)
              const text = files[params.path]
              if (params.mediaType) return { data: text }
              // Past 1 MB GitHub sends no content (encoding none) and the file is asked for raw.
              if (large && params.path.endsWith('.jsonl')) return { data: { type: 'file', encoding: 'none', content: '' } }
              return { data: { type: 'file', encoding: 'base64', content: Buffer.from(text).toString('base64') } }
            }
          }
        }
      }
      const session = {
        deps: { io: { setSecret: () => undefined, info: () => undefined }, env, readTextFile: async () => gate } as unknown as ActionDeps,
        client,
        repo: { owner: 'acme', repo: 'serving' },
        settings: readSettings(name => ({ 'github-token': 't', 'frozen-config': 'true' })[name] ?? ''),
        event,
        configFile: '/nowhere/.github/helm-gate.yml',
        repoPath: '.github/helm-gate.yml'
      } as unknown as Session
      const { config } = await loadGateFile(session)
      expect(config.traffic?.instances.map(i => i.request.messages[0].content)).toEqual(['from the base commit'])
      expect(asked).toContain(`.github/traffic.jsonl@base123${large ? ' raw' : ''}`)
    }
  })
})
