/**
 * Secrets never printed or stored: config errors, prod_env files shown by plan and kept in the
 * manifest, URLs. Each class with several inputs.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { ConfigError, GateError, showValue } from '../../src/errors.js'
import { redactedFiles, serverProdEnv, userProdEnv } from '../../src/runner/prod-env.js'
import { isCredentialKey, looksLikeSecret, redactUrl, redactText } from '../../src/secrets/redact.js'

const KEYS = [
  'sk-proj-abcdef0123456789ABCDEF',
  'ghp_0123456789abcdefABCDEF0123456789',
  'Bearer abcdefgh12345678',
  'xoxb-1234-5678-abcdefgh',
  'hf_AbCdEf0123456789GhIjKl',
  'Zx8Qw2Lp9Rt4Yu7Io3Pa6Sd1Fg5Hj0Kl'
]

const GATE = (deployment: string): string => `version: 1
deployments:
  baseline:
${deployment}
  candidate: { api: chat, base_url: "http://127.0.0.1:2/v1", model: m }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
`

function configError(text: string): ConfigError {
  try {
    parseGateConfig(text, 'gate.yml')
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('no error')
}

describe('8. config errors never print a credential', () => {
  const placements: [string, (key: string) => string][] = [
    ['api_key instead of api_key_env', key => `    { api: chat, base_url: "http://127.0.0.1:1/v1", model: m, api_key: "${key}" }`],
    ['a list-typed api_key_env', key => `    { api: chat, base_url: "http://127.0.0.1:1/v1", model: m, api_key_env: ["${key}"] }`],
    ['a key in api_key_env', key => `    { api: chat, base_url: "http://127.0.0.1:1/v1", model: m, api_key_env: "${key}" }`],
    ['a nested token', key => `    { api: chat, base_url: "http://127.0.0.1:1/v1", model: m, auth: { token: "${key}" } }`],
    ['a key under an innocent name', key => `    { api: chat, base_url: "http://127.0.0.1:1/v1", model: m, extra: "${key}" }`],
    ['a password as the model', key => `    { api: chat, base_url: "http://127.0.0.1:1/v1", model: 7, password: "${key}" }`]
  ]
  const cases = placements.flatMap(([label, place]) => KEYS.map(key => ({ label, key, text: GATE(place(key)) })))
  it.each(cases)('$label: $key', ({ key, text }) => {
    const error = configError(text)
    const line = error.describe()
    expect(line).not.toContain(key)
    expect(line).not.toContain(key.slice(4, 16))
    expect(line).toContain('gate.yml')
    expect(line).toMatch(/deployments\.baseline\.\w+/)
    if (/api_key|token|password|auth/.test(error.location.field ?? '')) expect(line).toContain('hidden')
  })

  it('still shows ordinary values', () => {
    const error = configError(GATE('    { api: chat, base_url: "http://127.0.0.1:1/v1", model: m, colour: blue }'))
    expect(error.describe()).toContain('"blue"')
  })

  it.each([
    ['api_key', true],
    ['client_spec.args.api_key', true],
    ['openaiApiKey', true],
    ['HF_TOKEN', true],
    ['clientSecret', true],
    ['password', true],
    ['credentials', true],
    ['tokenizer', false],
    ['max_tokens', false],
    ['tokenizer_name', false],
    ['base_url', false]
  ])('isCredentialKey(%s) = %s', (name, expected) => {
    expect(isCredentialKey(name)).toBe(expected)
  })

  it.each([
    ...KEYS.map(k => [k, true] as const),
    ['simple/tokenizer1', false],
    ['llama-3-8b-instruct', false],
    ['0.5.16', false],
    ['/data/gate/support.jsonl', false]
  ])('looksLikeSecret(%s) = %s', (text, expected) => {
    expect(looksLikeSecret(text)).toBe(expected)
  })

  // Temporary folders end in a random suffix (mkdtemp): whether it happens to hold an upper-case
  // letter and a digit must not make the folder a key in the logs (a launch test's server log lost
  // its `serving from <folder>` line to the redactor this way).
  it.each([
    'serving from /tmp/helm-gate-launch-repo-XTM7GJ',
    '--pid-file /tmp/helm-gate-run-Ab3dE9/out/.pids/candidate.pid',
    'checkout in /tmp/helm-gate-base-Q7xYz2/serving',
    'wrote helm-gate-launch-repo-XTM7GJ9aZ'
  ])('a folder named by words with a random suffix is shown: %s', text => {
    expect(redactText(text)).toBe(text)
  })

  it('a key with one word in it is still hidden', () => {
    const key = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq9Lm3Tk2x'
    expect(redactText(`token=${key}`)).not.toContain(key)
    expect(redactText(`the value ${key} appeared`)).not.toContain(key)
  })

  it('showValue hides key-shaped strings anywhere and survives a 100,000-deep array', () => {
    let deep: unknown = []
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(() => showValue(deep)).not.toThrow()
    expect(showValue(deep).length).toBeLessThanOrEqual(120)
    expect(showValue({ header: 'Bearer abcdefgh12345678' })).not.toContain('abcdefgh')
    // The redactor's own patterns, not an older copy: `sk_` (Stripe-style) and AWS access keys,
    // and a random high-entropy token with no known prefix.
    for (const key of ['sk_abcdefgh12345678', 'AKIAABCDEFGHIJKLMNOP', 'Zq8rT2vLx9WmPk4sNc7yHd3b']) {
      expect(looksLikeSecret(key)).toBe(true)
      expect(showValue(key)).toBe('"(hidden)"')
      expect(new GateError('x.y', 'm', { value: { nested: [key] } }).describe()).not.toContain(key)
    }
    expect(new GateError('x.y', 'm', { value: deep }).describe()).toContain('value:')
  })
})

describe('12. every YAML parse error names the file', () => {
  const bomb = [
    'a: &a [x, x, x, x, x, x, x, x, x]',
    'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
    'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
    'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
    'version: 1'
  ].join('\n')
  it.each([
    ['an alias bomb', bomb, /cannot be loaded: Excessive alias count/],
    ['a duplicate key', 'version: 1\nversion: 1\n', /not valid YAML \(line 2\)/],
    ['a tab indent', 'version: 1\nruns:\n\t- x\n', /not valid YAML/],
    ['an unclosed flow sequence', 'runs: [\n', /not valid YAML/],
    ['a 100,000-deep flow sequence', `runs: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`, /not valid YAML|nests too deeply/],
    ['a 3,000-deep block sequence', `runs:\n${'  - '.repeat(3000)}x\n`, /not valid YAML|nests too deeply/],
    ['a file over 1 MiB', `version: 1\n# ${'x'.repeat(1_100_000)}\n`, /larger than/]
  ])('%s', (_label, text, message) => {
    const error = configError(text)
    expect(error.code).toBe('config.yaml')
    expect(error.location.file).toBe('gate.yml')
    expect(error.message).toMatch(message)
  })

  it('a broken model_deployments.yaml in a user prod_env names that file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-prodenv-'))
    await writeFile(join(dir, 'model_deployments.yaml'), 'model_deployments:\n  - name: a\n  - name: [\n')
    await expect(userProdEnv(dir, 'a')).rejects.toMatchObject({
      code: 'config.yaml',
      location: { file: join(dir, 'model_deployments.yaml') }
    })
  })
})

describe('9 and 10. prod_env files as shown by plan and stored in run-manifest.json', () => {
  async function prodEnv(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-prodenv-'))
    await mkdir(dir, { recursive: true })
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
    return dir
  }
  const deployments = (args: string): string => `# old key: sk-commented-out-0123456789
model_deployments:
  - name: acme/m
    model_name: acme/m
    tokenizer_name: simple/tokenizer1
    max_sequence_length: 4096
    client_spec:
      class_name: helm.clients.openai_client.OpenAIClient
      args:
${args}
`
  it.each([
    ['api_key', '        api_key: plain-looking-value-123', 'plain-looking-value-123'],
    ['apiKey', '        apiKey: "another value"', 'another value'],
    ['a nested token', '        headers: { X-Auth-Token: tok123456 }', 'tok123456'],
    ['a key under an innocent name', '        org: sk-innocentname0123456789', 'sk-innocentname0123456789'],
    ['a base_url query key', '        base_url: "https://h.example/v1?api-key=querysecret99&x=1"', 'querysecret99'],
    ['a base_url userinfo', '        base_url: "https://user:passw0rdsecret@h.example/v1"', 'passw0rdsecret']
  ])('model_deployments.yaml with %s', async (_label, args, secret) => {
    const dir = await prodEnv({
      'model_deployments.yaml': deployments(args),
      'credentials.conf': '# openaiApiKey: sk-oldcommentkey0123456789\nopenaiApiKey: "sk-live0123456789abcdef"\n'
    })
    const shown = redactedFiles(await userProdEnv(dir, 'acme/m'))
    const all = Object.values(shown).join('\n')
    for (const leak of [secret, 'sk-commented-out', 'sk-oldcommentkey', 'sk-live0123']) expect(all).not.toContain(leak)
    expect(shown['model_deployments.yaml']).toContain('acme/m')
    expect(shown['credentials.conf']).toContain('openaiApiKey: "***"')
    expect(shown['credentials.conf']).toContain('# (comment hidden)')
  })

  it('a generated prod_env keeps the api_key_env name and hides a query key in base_url', () => {
    const env = serverProdEnv({
      kind: 'server',
      api: 'chat',
      baseUrl: 'https://h.example/v1?key=generatedsecret1',
      model: 'm',
      tokenizer: 'simple/tokenizer1',
      maxSequenceLength: 4096,
      apiKeyEnv: 'BASE_KEY',
      requestTimeoutSeconds: 60
    })
    const shown = redactedFiles(env)['model_deployments.yaml']
    expect(shown).toContain('api_key_env: BASE_KEY')
    expect(shown).toContain('https://h.example/v1?key=***')
    expect(shown).not.toContain('generatedsecret1')
  })

  it.each([
    ['https://u:p4ss@h.example/v1', 'https://***:***@h.example/v1'],
    ['http://127.0.0.1:8000/v1?api_key=abc&b=2', 'http://127.0.0.1:8000/v1?api_key=***&b=***'],
    ['http://127.0.0.1:8000/v1', 'http://127.0.0.1:8000/v1'],
    ['not a url', 'not a url']
  ])('redactUrl(%s)', (url, expected) => {
    expect(redactUrl(url)).toBe(expected)
  })

  it('redacts every URL in a message', () => {
    expect(redactText('connect ECONNREFUSED https://a:b@h/v1?k=s3cret and http://x/y?t=1')).toBe(
      'connect ECONNREFUSED https://***:***@h/v1?k=*** and http://x/y?t=***'
    )
  })
})
