import { describe, expect, it } from '@jest/globals'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import type { ServerDeployment } from '../../src/config/types.js'
import { GATED_MODEL, redactCredentials, redactedFiles, serverProdEnv, userProdEnv } from '../../src/runner/prod-env.js'

const server = (over: Partial<ServerDeployment> = {}): ServerDeployment => ({
  kind: 'server',
  api: 'chat',
  baseUrl: 'http://127.0.0.1:8000/v1',
  model: 'served',
  tokenizer: 'simple/tokenizer1',
  maxSequenceLength: 4096,
  apiKeyEnv: null,
  requestTimeoutSeconds: 30,
  ...over
})

describe('serverProdEnv', () => {
  it('uses the plugin clients, the same HELM name on every side and no secret', () => {
    const chat = serverProdEnv(server({ apiKeyEnv: 'MY_KEY' }))
    const completions = serverProdEnv(server({ api: 'completions', baseUrl: 'http://127.0.0.1:9000/v1' }))
    const chatDeployment = parse(chat.files['model_deployments.yaml']).model_deployments[0]
    const completionsDeployment = parse(completions.files['model_deployments.yaml']).model_deployments[0]
    expect(chatDeployment.client_spec.class_name).toBe('helm_gate_plugins.clients.GateChatClient')
    expect(completionsDeployment.client_spec.class_name).toBe('helm_gate_plugins.clients.GateCompletionsClient')
    expect(chatDeployment.client_spec.args).toEqual({
      base_url: 'http://127.0.0.1:8000/v1',
      served_model_name: 'served',
      timeout: 30,
      max_retries: 2,
      api_key_env: 'MY_KEY'
    })
    expect(chatDeployment.name).toBe(GATED_MODEL)
    expect(completionsDeployment.name).toBe(GATED_MODEL)
    expect(chatDeployment.tokenizer_name).toBe('simple/tokenizer1')
    expect(chatDeployment.max_sequence_length).toBe(4096)
    expect(chat.files['model_metadata.yaml']).toBe(completions.files['model_metadata.yaml'])
    expect(chat.files['model_metadata.yaml']).toMatch(/release_date: 2024-01-01\n/)
    expect(chat.files['credentials.conf'].split('\n').filter(line => line.trim() && !line.startsWith('#'))).toEqual([])
    expect(chat.modelArgs).toBe(`model=${GATED_MODEL}`)
  })

  it('declares a local Hugging Face tokenizer directory', () => {
    const env = serverProdEnv(server({ tokenizer: '/models/tok' }))
    const tokenizer = parse(env.files['tokenizer_configs.yaml']).tokenizer_configs[0]
    expect(tokenizer.tokenizer_spec.args.pretrained_model_name_or_path).toBe('/models/tok')
    expect(parse(env.files['model_deployments.yaml']).model_deployments[0].tokenizer_name).toBe(tokenizer.name)
  })
})

describe('userProdEnv', () => {
  it('names model and deployment explicitly and redacts copied credentials', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-prodenv-'))
    await writeFile(
      join(dir, 'model_deployments.yaml'),
      'model_deployments:\n  - name: acme/fp8\n    model_name: acme/base-model\n    client_spec: {class_name: x}\n'
    )
    await writeFile(join(dir, 'credentials.conf'), 'acmeApiKey: "sk-secret-value"\n')
    const env = await userProdEnv(dir, 'acme/fp8')
    expect(env.modelArgs).toBe('model=acme/base-model,model_deployment=acme/fp8')
    expect(env.credentialsAreSecret).toBe(true)
    expect(redactedFiles(env)['credentials.conf']).not.toContain('sk-secret-value')
    await expect(userProdEnv(dir, 'acme/missing')).rejects.toThrow(/acme\/missing/)
  })

  it('redacts every value and every comment but keeps the keys', () => {
    expect(redactCredentials('a: "x"\ndeployments {\n  "o/m": "secret"\n}\n# note: y')).toBe(
      'a: "***"\ndeployments {\n  "o/m": "***"\n}\n# (comment hidden)'
    )
  })

  it('hides values that are not alone on a "key: value" line (JSON, inline objects, multi-line strings)', () => {
    const text = [
      '{"openaiApiKey": "sk-one", "anthropicApiKey": "sk-two"}',
      'deployments { "o/m": "sk-three" }',
      'longKey = """',
      'sk-four',
      '"""',
      'plain: "sk-five"'
    ].join('\n')
    const redacted = redactCredentials(text)
    for (const secret of ['sk-one', 'sk-two', 'sk-three', 'sk-four', 'sk-five']) expect(redacted).not.toContain(secret)
    expect(redacted).toContain('plain: "***"')
  })
})
