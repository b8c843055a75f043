/**
 * `helm-gate plan` lists the holistic grid's required families (docs/gate-file.md "Required
 * cells") and refuses one the gate file cannot gate, before any instance is spent.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { planCommand } from '../../src/cli/commands/plan.js'
import type { CliIo } from '../../src/cli/io.js'
import { ConfigError } from '../../src/errors.js'

async function plan(require: string[]): Promise<{ code: number; text: string }> {
  const side = (port: number) => ({
    api: 'completions',
    base_url: `http://127.0.0.1:${port}/v1`,
    model: 'm',
    tokenizer: 'simple/tokenizer1',
    max_sequence_length: 4096
  })
  const gate = stringify({
    version: 1,
    helm: { version: '0.5.16', command: 'helm-run', max_eval_instances: 10 },
    deployments: { baseline: side(1), candidate: side(2) },
    runs: [
      {
        entry: 'simple_mcqa:data_augmentation=robustness',
        metric: 'exact_match',
        max_drop: 0.05,
        perturbations: 'gate',
        calibration: { max_increase: 0.02 }
      }
    ],
    require
  })
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-holistic-'))
  await writeFile(join(dir, 'gate.yml'), gate)
  let text = ''
  const io: CliIo = { stdout: s => (text += s), stderr: s => (text += s), env: { ...process.env }, cwd: dir }
  const code = await planCommand(['--config', 'gate.yml', '--no-count'], io)
  return { code, text }
}

describe('helm-gate plan: required cells of the holistic grid', () => {
  it('lists the required families when every entry gates them', async () => {
    const { code, text } = await plan(['calibration', 'robustness'])
    expect({ code, text: code === 0 ? '' : text }).toEqual({ code: 0, text: '' })
    expect(text).toContain('# holistic grid: required (gated for every entry, blank is an error): calibration, robustness')
  })

  it('refuses a family no entry can gate, naming the file, field and value', async () => {
    const error = await plan(['accuracy', 'fairness']).then(
      () => null,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(ConfigError)
    const e = error as ConfigError
    expect(e.code).toBe('config.required_unmeasurable')
    expect(e.location).toMatchObject({ field: 'require[1]', value: 'fairness' })
    expect(e.location.file).toMatch(/gate\.yml$/)
    expect(e.message).toContain('adds no fairness perturbation')
  })
})
