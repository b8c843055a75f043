/** `plan` and `power` run nothing: they read the gate file (and a pilot report) only. */
import { describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { planCommand } from '../../src/cli/commands/plan.js'
import { powerCommand } from '../../src/cli/commands/power.js'
import type { CliIo } from '../../src/cli/io.js'

const GATE = `version: 1
helm: { version: "0.5.16", max_eval_instances: 100, command: helm-run }
deployments:
  baseline: { api: chat, base_url: "http://127.0.0.1:8001/v1", model: served, api_key_env: BASE_KEY }
  candidate: { api: completions, base_url: "http://127.0.0.1:8002/v1", model: served }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
`

async function setup(): Promise<{ dir: string; io: CliIo; out: () => string }> {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-cli-'))
  await writeFile(join(dir, 'gate.yml'), GATE)
  let text = ''
  return { dir, io: { stdout: s => (text += s), stderr: s => (text += s), env: { BASE_KEY: 'sk-very-secret' }, cwd: dir }, out: () => text }
}

describe('helm-gate plan', () => {
  it('prints both prod_envs and the exact commands without the key', async () => {
    const { io, out } = await setup()
    expect(await planCommand(['--config', 'gate.yml'], io)).toBe(0)
    const text = out()
    expect(text).toContain('## baseline: HELM deployment helm-gate/gated-model')
    expect(text).toContain('helm_gate_plugins.clients.GateChatClient')
    expect(text).toContain('helm_gate_plugins.clients.GateCompletionsClient')
    expect(text).toContain('api_key_env: BASE_KEY')
    expect(text).toMatch(/helm-run --run-entries simple_mcqa:model=helm-gate\/gated-model --suite baseline-/)
    expect(text.match(/--disable-cache/g)).toHaveLength(2)
    expect(text).not.toContain('sk-very-secret')
  })
})

describe('helm-gate plan with a user prod_env', () => {
  it('never prints a credential, whatever the layout of credentials.conf', async () => {
    const { dir, io, out } = await setup()
    await mkdir(join(dir, 'prod_env'))
    await writeFile(
      join(dir, 'prod_env', 'model_deployments.yaml'),
      'model_deployments:\n  - {name: acme/base, model_name: acme/m}\n  - {name: acme/fp8, model_name: acme/m}\n'
    )
    await writeFile(join(dir, 'prod_env', 'credentials.conf'), '{"acmeApiKey": "sk-json-secret"}\n')
    await writeFile(
      join(dir, 'user.yml'),
      GATE.replace(
        / {2}baseline: .*\n {2}candidate: .*\n/,
        `  baseline: {prod_env: ${JSON.stringify(join(dir, 'prod_env'))}, deployment: acme/base}\n` +
          `  candidate: {prod_env: ${JSON.stringify(join(dir, 'prod_env'))}, deployment: acme/fp8}\n`
      )
    )
    expect(await planCommand(['--config', 'user.yml'], io)).toBe(0)
    expect(out()).toContain('### credentials.conf')
    expect(out()).not.toContain('sk-json-secret')
  })
})

describe('helm-gate power', () => {
  it('plans from an assumed discordance rate', async () => {
    const { io, out } = await setup()
    expect(await powerCommand(['--config', 'gate.yml', '--discordance', '0.1'], io)).toBe(0)
    expect(out()).toContain('simple_mcqa exact_match: max_drop 0.05, sd 0.3162 -> 154 (raise max_eval_instances)')
  })

  it('plans from a pilot report', async () => {
    const { dir, io, out } = await setup()
    const comparison = {
      run: 'simple_mcqa:model=x',
      entry: 'simple_mcqa',
      metric: 'exact_match',
      perturbation: null,
      gated: true,
      direction: 'higher',
      binary: true,
      n: 40,
      pairs: 40,
      delta: 0,
      wins: 2,
      losses: 2,
      max_drop: 0.05,
      ci: { level: 0.95, low: -0.1, high: 0.1, method: 'newcombe' }
    }
    await writeFile(join(dir, 'report.json'), JSON.stringify({ schema_version: 1, comparisons: [comparison] }))
    expect(await powerCommand(['--config', 'gate.yml', '--pilot', dir], io)).toBe(0)
    // discordance 4/40 = 0.1 -> the same 154 as above.
    expect(out()).toContain('-> 154')
    expect(out()).toContain('pilot n=40, 4 changed')
  })

  it('needs exactly one source', async () => {
    const { io } = await setup()
    await expect(powerCommand(['--config', 'gate.yml'], io)).rejects.toThrow(/exactly one/)
  })
})
