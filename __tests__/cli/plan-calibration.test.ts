/**
 * `helm-gate plan` names each run entry's calibration check (docs/gate-file.md "Calibration"), and
 * refuses one on a chat deployment before any instance is spent.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { planCommand } from '../../src/cli/commands/plan.js'
import type { CliIo } from '../../src/cli/io.js'
import { ConfigError } from '../../src/errors.js'

async function plan(runs: Record<string, unknown>[], api = 'completions'): Promise<{ code: number; text: string }> {
  const side = (port: number) => ({
    api,
    base_url: `http://127.0.0.1:${port}/v1`,
    model: 'm',
    tokenizer: 'simple/tokenizer1',
    max_sequence_length: 4096
  })
  const gate = stringify({
    version: 1,
    helm: { version: '0.5.16', command: 'helm-run', max_eval_instances: 10 },
    deployments: { baseline: side(1), candidate: side(2) },
    runs
  })
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-calibration-'))
  await writeFile(join(dir, 'gate.yml'), gate)
  let text = ''
  const io: CliIo = { stdout: s => (text += s), stderr: s => (text += s), env: { ...process.env }, cwd: dir }
  const code = await planCommand(['--config', 'gate.yml', '--no-count'], io)
  return { code, text }
}

describe('helm-gate plan: calibration checks', () => {
  it('names the entries that gate calibration, with the metric and the tolerated rise', async () => {
    const { code, text } = await plan([
      { entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05, calibration: { metric: 'ece', max_increase: 0.02 } },
      { entry: 'dyck_language:num_parenthesis_pairs=3', metric: 'exact_match', max_drop: 0.05 }
    ])
    expect({ code, text: code === 0 ? '' : text }).toEqual({ code: 0, text: '' })
    expect(text).toContain(
      '# calibration (candidate minus baseline, paired over instances; needs max_prob from log-probabilities): simple_mcqa ece rise <= 0.02'
    )
    expect(text).not.toContain('dyck_language:num_parenthesis_pairs=3 ece')
  })

  it('refuses a calibration check on chat deployments, naming the file, field and value', async () => {
    // planCommand throws the expected error; the CLI's top level prints it (code, message, location).
    const error = await plan(
      [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05, calibration: { max_increase: 0.02 } }],
      'chat'
    ).then(
      () => null,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(ConfigError)
    const e = error as ConfigError
    expect(e.code).toBe('config.calibration_needs_logprobs')
    expect(e.message).toMatch(/^runs\[0\]\.calibration needs log-probabilities/)
    expect(e.location).toMatchObject({ field: 'deployments.baseline.api', value: 'chat' })
    expect(e.location.file).toMatch(/gate\.yml$/)
  })
})
