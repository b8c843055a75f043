/**
 * A side produced by a runner command instead of helm-run against a server
 * (`deployments.<side>.command`, docs/gate-file.md "Runner command"): an argument array run once
 * per gate entry, which must write HELM run directories into `{output}`. FlexLLMGen's benchmark
 * script is the model: it calls HELM's Python API in-process and writes the five run files itself.
 *
 * Placeholders are whole names in braces, replaced in any argument (`"{entry},model=text"`):
 *   {entry}               the gate entry (`runs[].entry`, no model part)
 *   {model}               the deployment's `model` (a label the command may want, e.g. weights)
 *   {output}              the folder the command must write its run directories into
 *   {max_eval_instances}  helm.max_eval_instances
 *   {seed}                the deployment's `seed` (default 0), the same on both sides unless set
 * `${VAR}` is not a placeholder (environment expansion is a launch feature, not this one).
 *
 * `command_output` says what the command writes into `{output}`: `helm` (the default) is HELM run
 * directories in `{output}` = `<side>/runs/<suite>/`, one command per entry; `lm-eval` is one
 * `lm_eval --log_samples --output_path {output}` run per side, `{entry}` being every entry joined
 * by commas (lm_eval's `--tasks a,b`), because the comparison reads one lm-eval run per side and
 * lm-eval writes one results file per invocation.
 */
import type { Fields } from './validate.js'

export const RUNNER_PLACEHOLDERS = ['entry', 'model', 'output', 'max_eval_instances', 'seed'] as const
export type RunnerPlaceholder = (typeof RUNNER_PLACEHOLDERS)[number]

export const COMMAND_OUTPUTS = ['helm', 'lm-eval'] as const
/** What a runner command writes: HELM run directories, or lm-eval's `--log_samples` output. */
export type CommandOutput = (typeof COMMAND_OUTPUTS)[number]

export interface CommandDeployment {
  kind: 'command'
  /** Program and arguments, placeholders unexpanded; never a shell string. */
  command: string[]
  /** What `{model}` becomes; null when the command does not use it. */
  model: string | null
  /** What `{seed}` becomes. */
  seed: number
  /** `command_output`: how the side's output is verified and read. */
  output: CommandOutput
}

const PLACEHOLDER = /(\$?)\{([^{}]*)\}/g

/** Reads `deployments.<side>` with a `command`; every problem names the field and value. */
export function parseCommandDeployment(f: Fields): CommandDeployment {
  if (f.has('launch')) f.fail('launch', `${f.at('launch')} cannot be combined with command: a runner command side serves nothing to launch`)
  f.allow(['command', 'model', 'seed', 'command_output'])
  const list = f.list('command')
  if (list === null || list.length === 0) {
    f.fail('command', `${f.at('command')} must list the program and its arguments, e.g. [python, -m, flexllmgen.apps.helm_run, ...]`, list)
  }
  const used = new Set<string>()
  const command = list.map((item, i) => {
    if (typeof item === 'number' && Number.isFinite(item)) return String(item)
    if (typeof item !== 'string' || item === '') {
      f.fail('command', `${f.at('command')}[${i}] must be a non-empty string (one argument; no shell is involved)`, item)
    }
    for (const match of item.matchAll(PLACEHOLDER)) {
      if (match[1] === '$') continue
      const name = match[2]
      if (!(RUNNER_PLACEHOLDERS as readonly string[]).includes(name)) {
        f.fail(
          'command',
          `${f.at('command')}[${i}] has an unknown placeholder {${name}}; known: ${RUNNER_PLACEHOLDERS.map(p => `{${p}}`).join(', ')}`,
          item
        )
      }
      used.add(name)
    }
    return item
  })
  if (used.has('output') === false) {
    f.fail('command', `${f.at('command')} must pass {output}, the folder its run directories are read from`, command.join(' '))
  }
  if (used.has('entry') === false) {
    f.fail('command', `${f.at('command')} must pass {entry}: the command runs once per gate entry`, command.join(' '))
  }
  if (command[0].includes('{')) f.fail('command', `${f.at('command')}[0] is the program and cannot be a placeholder`, command[0])
  const model = f.string('model', null)
  if (used.has('model') && model === null) f.fail('model', `${f.at('model')} is required: the command uses {model}`, null)
  const seed = f.integer('seed', 0, 0)
  const output = f.choice('command_output', COMMAND_OUTPUTS, 'helm')
  f.done()
  return { kind: 'command', command, model, seed, output }
}

/** Only a runner command side has an output kind to declare; elsewhere the key is a mistake worth naming. */
export function refuseCommandOutput(f: Fields): void {
  if (f.has('command_output')) {
    f.fail('command_output', `${f.at('command_output')} applies only to a side made by a runner command (deployments.<side>.command)`)
  }
}

interface SideKind {
  kind: string
  output?: CommandOutput
}

/**
 * Both sides must write the same kind of output: HELM's and lm-eval's prompts, metrics and scoring
 * differ, so a HELM side against an lm-eval side could only ever be an error, found here before
 * anything runs rather than after both sides have.
 */
export function checkCommandOutputsAgree(f: Fields, baseline: SideKind, candidate: SideKind): void {
  const kindOf = (d: SideKind): string => (d.kind === 'command' ? (d.output ?? 'helm') : 'helm')
  const b = kindOf(baseline)
  const c = kindOf(candidate)
  if (b === c) return
  const describe = (d: SideKind): string =>
    d.kind === 'command' ? `a runner command with command_output: ${kindOf(d)}` : `a ${d.kind} side, which helm-run makes HELM output for`
  f.fail(
    'candidate',
    `deployments.baseline is ${describe(baseline)} and deployments.candidate ${describe(candidate)}; both sides must write the same kind of output (set command_output alike on both)`,
    { baseline: b, candidate: c }
  )
}

/** Programs that run a script or module named by a later argument. */
const INTERPRETER = /^(?:python[\d.]*|pypy[\d.]*|node|deno|bun|uv|uvx|env|bash|sh|zsh)$/

/**
 * The name messages give a runner command (never "helm-run"): its program's file name, or for an
 * interpreter the module (`python -m flexllmgen.apps.helm_run`) or script it runs; an inline
 * script (`sh -c ...`) is named by its interpreter.
 */
export function runnerCommandName(command: readonly string[]): string {
  const base = (arg: string): string => arg.replace(/\/+$/, '').split('/').pop() || arg
  const program = base(command[0] ?? 'command')
  if (!INTERPRETER.test(program)) return program
  for (let i = 1; i < command.length; i++) {
    const arg = command[i]
    if (arg === '-c' || arg === '-e') return program
    if (arg === '-m' || arg === 'run') {
      if (command[i + 1] !== undefined && !command[i + 1].startsWith('-')) return command[i + 1]
      continue
    }
    if (arg.startsWith('-') || arg.includes('=')) continue
    return base(arg)
  }
  return program
}

/** The command's arguments for one entry, every placeholder replaced (pure). */
export function expandRunnerCommand(command: string[], values: Record<RunnerPlaceholder, string>): string[] {
  return command.map(arg =>
    arg.replace(PLACEHOLDER, (whole: string, dollar: string, name: string) =>
      dollar === '' && name in values ? values[name as RunnerPlaceholder] : whole
    )
  )
}
