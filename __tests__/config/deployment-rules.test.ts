/** The rules between the two deployments: one answer from loading the file and from `plan`. */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../src/cli/main.js'
import type { CliIo } from '../../src/cli/io.js'
import { checkComparableDeployments, checkDistinctDeployments } from '../../src/config/deployment-rules.js'
import { loadGateConfig } from '../../src/config/load.js'
import type { ServerDeployment } from '../../src/config/types.js'
import { ConfigError } from '../../src/errors.js'

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

const gate = (baseline: string, candidate: string): string => `version: 1
helm: { version: "0.5.16", max_eval_instances: 10 }
deployments:
  baseline: { api: chat, base_url: "http://127.0.0.1:8001/v1", model: served${baseline} }
  candidate: { api: chat, base_url: "http://127.0.0.1:8002/v1", model: served${candidate} }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
`

/** The error of loading the file, and what `helm-gate plan` prints and returns for it. */
async function bothAnswers(text: string): Promise<{ loaded: ConfigError | null; plan: { code: number; stderr: string } }> {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-rules-'))
  const file = join(dir, 'gate.yml')
  await writeFile(file, text)
  let loaded: ConfigError | null = null
  try {
    await loadGateConfig(file)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    loaded = error
  }
  let stderr = ''
  const io: CliIo = { stdout: () => undefined, stderr: s => (stderr += s), env: {}, cwd: dir }
  const code = await main(['plan', '--config', file, '--no-count'], io)
  return { loaded, plan: { code, stderr } }
}

describe('checkComparableDeployments', () => {
  it('refuses different tokenizers or lengths, naming the candidate field and its value', () => {
    expect(() => checkComparableDeployments(server(), server({ maxSequenceLength: 2048 }), 'gate.yml')).toThrow(ConfigError)
    expect(() => checkComparableDeployments(server(), server({ tokenizer: '/tok' }), 'gate.yml')).toThrow(/tokenizer/)
    expect(() => checkComparableDeployments(server(), server({ baseUrl: 'http://127.0.0.1:1/v1', api: 'completions' }), 'g')).not.toThrow()
  })
})

describe('checkDistinctDeployments', () => {
  it('refuses one deployment on both sides (the URL spelled with a trailing slash is the same one)', () => {
    expect(() => checkDistinctDeployments(server(), server({ baseUrl: 'http://127.0.0.1:8000/v1/' }), 'gate.yml')).toThrow(
      /same deployment/
    )
    expect(() => checkDistinctDeployments(server(), server({ model: 'other' }), 'gate.yml')).not.toThrow()
  })
})

describe('loading the gate file and plan give the same answer', () => {
  it.each([
    [
      'max_sequence_length',
      ', max_sequence_length: 8192',
      ', max_sequence_length: 4096',
      'deployments.candidate.max_sequence_length',
      '4096'
    ],
    [
      'max_sequence_length (one side left at the default 4096)',
      ', max_sequence_length: 8192',
      '',
      'deployments.candidate.max_sequence_length',
      '4096'
    ],
    ['tokenizer', ', tokenizer: simple/tokenizer1', ', tokenizer: ./tok', 'deployments.candidate.tokenizer', '"./tok"']
  ])('different %s: config.deployments_differ with file, field and value', async (_, baseline, candidate, field, value) => {
    const { loaded, plan } = await bothAnswers(gate(baseline, candidate))
    expect(loaded?.code).toBe('config.deployments_differ')
    const line = `helm-gate: error: ${loaded!.describe()} [config.deployments_differ]\n`
    expect(line).toContain(`field: ${field}, value: ${value}`)
    expect(line).toMatch(/\(file: \/.*gate\.yml, /)
    expect(plan).toEqual({ code: 2, stderr: line })
  })

  it('the same settings on both sides: loading and plan both accept the file', async () => {
    const { loaded, plan } = await bothAnswers(gate(', max_sequence_length: 8192', ', max_sequence_length: 8192'))
    expect(loaded).toBeNull()
    expect(plan).toEqual({ code: 0, stderr: '' })
  })
})
