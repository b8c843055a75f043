/** `helm-gate plan` and the gate file's validation for sides made by a runner command (FlexLLMGen). */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { planCommand } from '../../src/cli/commands/plan.js'
import type { CliIo } from '../../src/cli/io.js'
import { parseGateConfig } from '../../src/config/load.js'
import { expandRunnerCommand } from '../../src/config/runner-command.js'
import { ConfigError } from '../../src/errors.js'

const EXAMPLE = resolve('examples/flexllmgen/gate.yml')
const LM_EVAL_EXAMPLE = resolve('examples/lm-eval/run-gate.yml')

async function plan(file: string): Promise<{ code: number; text: string }> {
  let text = ''
  const io: CliIo = { stdout: s => (text += s), stderr: s => (text += s), env: {}, cwd: resolve('.') }
  const code = await planCommand(['--config', file], io)
  return { code, text }
}

describe('plan with examples/flexllmgen/gate.yml', () => {
  it('validates the example and shows each side once per entry, placeholders filled, one after the other', async () => {
    const { code, text } = await plan(EXAMPLE)
    expect(code).toBe(0)
    expect(text).toContain('# schedule: sequential')
    expect(text).toContain('# baseline and candidate: made by a runner command, once per entry')
    expect(text).toContain('## baseline: runner command, 2 entries')
    expect(text).toContain('### mmlu:subject=philosophy')
    expect(text).toMatch(/python -m flexllmgen\.apps\.helm_run --description mmlu:subject=philosophy,model=text --model facebook\/opt-30b /)
    expect(text).toMatch(
      /--max-eval-instances 200 --run-path \S+\/helm-gate-runs\/TIMESTAMP\/candidate\/runs\/candidate-TIMESTAMP --percent 0 100 0 100 0 100 --compress-weight/
    )
    expect(text).not.toContain('{')
    // No helm-run is involved: no dry-run count and no prod_env.
    expect(text).toContain('not counted')
    expect(text).not.toContain('credentials.conf')
  })
})

describe('plan with examples/lm-eval/run-gate.yml', () => {
  it('validates the example and shows lm_eval once per side, with every task and the side folder as {output}', async () => {
    const { code, text } = await plan(LM_EVAL_EXAMPLE)
    expect(code).toBe(0)
    expect(text).toContain(
      '# baseline and candidate: made by a runner command writing lm-eval output (command_output: lm-eval), once per side'
    )
    expect(text).toContain('## baseline: runner command, lm-eval output, 1 entry in one invocation')
    expect(text).toMatch(
      /lm_eval --model local-chat-completions --model_args base_url=http:\/\/127\.0\.0\.1:8001\/v1\/chat\/completions,model=meta-llama\/Llama-3\.1-8B-Instruct,num_concurrent=8,max_retries=3 --apply_chat_template --tasks gsm8k --log_samples --output_path \S+\/helm-gate-runs\/TIMESTAMP\/candidate --limit 500 --seed 0/
    )
    expect(text).not.toContain('{')
    const config = parseGateConfig(await readFile(LM_EVAL_EXAMPLE, 'utf8'), LM_EVAL_EXAMPLE)
    expect(config.deployments?.candidate).toMatchObject({ kind: 'command', output: 'lm-eval' })
  })
})

describe('deployments.<side>.command validation', () => {
  const gate = (side: string): string => `version: 1
helm: { version: "0.5.16", max_eval_instances: 10 }
deployments:
  baseline:
${side}
  candidate:
    command: [run, "{entry}", "{output}", --b]
runs:
  - { entry: "synthetic_reasoning:mode=pattern_match", metric: exact_match, max_drop: 0.1 }
`
  const refused = (side: string): ConfigError => {
    try {
      parseGateConfig(gate(side), 'gate.yml')
    } catch (error) {
      if (error instanceof ConfigError) return error
      throw error
    }
    throw new Error('accepted')
  }

  it.each([
    [
      'an unknown placeholder',
      '    command: [run, "{entry}", "{output}", "{suite}"]',
      /unknown placeholder \{suite\}/,
      'deployments.baseline.command'
    ],
    ['an empty command', '    command: []', /must list the program and its arguments/, 'deployments.baseline.command'],
    [
      'an empty argument',
      '    command: [run, "", "{entry}", "{output}"]',
      /command\[1\] must be a non-empty string/,
      'deployments.baseline.command'
    ],
    ['no {output}', '    command: [run, "{entry}"]', /must pass \{output\}/, 'deployments.baseline.command'],
    ['no {entry}', '    command: [run, "{output}"]', /must pass \{entry\}/, 'deployments.baseline.command'],
    [
      'a placeholder as the program',
      '    command: ["{model}", "{entry}", "{output}"]\n    model: m',
      /\[0\] is the program/,
      'deployments.baseline.command'
    ],
    [
      '{model} without model',
      '    command: [run, "{entry}", "{output}", "{model}"]',
      /model is required: the command uses \{model\}/,
      'deployments.baseline.model'
    ],
    [
      'a launch section',
      '    command: [run, "{entry}", "{output}"]\n    launch: { command: [x] }',
      /cannot be combined with command/,
      'deployments.baseline.launch'
    ],
    ['a server field', '    command: [run, "{entry}", "{output}"]\n    base_url: http://x/v1', /base_url/, 'deployments.baseline.base_url'],
    [
      'an unknown command_output',
      '    command: [run, "{entry}", "{output}"]\n    command_output: csv',
      /command_output must be one of helm, lm-eval/,
      'deployments.baseline.command_output'
    ],
    [
      'lm-eval output on one side only',
      '    command: [run, "{entry}", "{output}"]\n    command_output: lm-eval',
      /baseline is a runner command with command_output: lm-eval and deployments\.candidate a runner command with command_output: helm; both sides must write the same kind of output/,
      'deployments.candidate'
    ],
    [
      'command_output on a server side',
      '    api: chat\n    base_url: http://127.0.0.1:1/v1\n    model: m\n    command_output: lm-eval',
      /command_output applies only to a side made by a runner command/,
      'deployments.baseline.command_output'
    ]
  ])('refuses %s, naming the file, field and value', (_name, side, message, field) => {
    const error = refused(side)
    expect(error.message).toMatch(message)
    expect(error.location.file).toBe('gate.yml')
    expect(error.location.field).toBe(field)
  })

  it('refuses the same command on both sides (the candidate would never be measured)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-runner-'))
    try {
      await writeFile(join(dir, 'gate.yml'), gate('    command: [run, "{entry}", "{output}", --b]'))
      await expect(plan(join(dir, 'gate.yml'))).rejects.toThrow(/same deployment/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('expands every placeholder inside arguments and leaves ${VAR} alone', () => {
    const args = expandRunnerCommand(['x', '{entry},model=text', '--seed={seed}', '${HOME}/{model}', '{output}', '{max_eval_instances}'], {
      entry: 'mmlu:subject=philosophy',
      model: 'opt',
      output: '/o',
      max_eval_instances: '7',
      seed: '3'
    })
    expect(args).toEqual(['x', 'mmlu:subject=philosophy,model=text', '--seed=3', '${HOME}/opt', '/o', '7'])
  })

  it('keeps the example a valid gate file', async () => {
    const config = parseGateConfig(await readFile(EXAMPLE, 'utf8'), EXAMPLE)
    expect(config.deployments?.baseline.kind).toBe('command')
    expect(config.launch?.schedule).toBe('sequential')
  })
})
