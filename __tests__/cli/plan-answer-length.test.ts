/**
 * `helm-gate plan` names each run entry's answer-length band (docs/gate-file.md "Answer length"),
 * so a reviewer of the gate file sees before the run which entries gate the ratio of answer lengths.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { planCommand } from '../../src/cli/commands/plan.js'
import type { CliIo } from '../../src/cli/io.js'

async function plan(runs: Record<string, unknown>[]): Promise<{ code: number; text: string }> {
  const side = (port: number) => ({
    api: 'chat',
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
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-length-'))
  await writeFile(join(dir, 'gate.yml'), gate)
  let text = ''
  const io: CliIo = { stdout: s => (text += s), stderr: s => (text += s), env: { ...process.env }, cwd: dir }
  const code = await planCommand(['--config', 'gate.yml', '--no-count'], io)
  return { code, text }
}

describe('helm-gate plan: answer-length bands', () => {
  it('names the entries that gate the answer-length ratio, with their bounds', async () => {
    const { code, text } = await plan([
      { entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05, answer_length_ratio: { min: 0.8, max: 1.25 } },
      { entry: 'synthetic_reasoning:mode=pattern_match', metric: 'exact_match', max_drop: 0.05, answer_length_ratio: { max: 1.5 } },
      { entry: 'dyck_language:num_parenthesis_pairs=3', metric: 'exact_match', max_drop: 0.05 }
    ])
    expect({ code, text: code === 0 ? '' : text }).toEqual({ code: 0, text: '' })
    expect(text).toContain(
      '# answer_length_ratio (candidate/baseline mean answer length): simple_mcqa gated >= 0.8 and <= 1.25; synthetic_reasoning:mode=pattern_match gated <= 1.5'
    )
    expect(text).not.toContain('dyck_language:num_parenthesis_pairs=3 gated')
  })

  it('says nothing of answer length when no entry gates it', async () => {
    const { code, text } = await plan([{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }])
    expect(code).toBe(0)
    expect(text).not.toContain('answer_length_ratio')
  })
})
