/**
 * What one side's helm-run invocation will be: its entries, argument array, directories and
 * environment. Pure, so `plan` can print exactly what `run` executes.
 */
import { join, resolve } from 'node:path'
import { expandRunnerCommand } from '../config/runner-command.js'
import type { CommandDeployment, GatedRun, HelmSettings } from '../config/types.js'
import type { ProdEnv } from './prod-env.js'

import type { Side } from '../model/report.js'

export type { Side }

export interface SidePlan {
  side: Side
  prodEnv: ProdEnv
  /** HELM `--local-path`: outside the uploaded output, removed after the run. */
  localPath: string
  /** HELM `--output-path`: fresh, one per side; runs land in `<outputPath>/runs/<suite>/`. */
  outputPath: string
  suite: string
  logFile: string
  /** Full run entries, each with the side's model arguments. */
  entries: string[]
  /** The helm-run executable and its arguments (never a shell string). */
  command: string
  args: string[]
  /**
   * A runner command side (config/runner-command.ts): one invocation per entry, run in `workDir`,
   * instead of `command`/`args` (which then show the first invocation). null for helm-run.
   */
  runner: RunnerInvocation[] | null
  /** A runner command's working directory: private, removed with the temporary folder. */
  workDir: string
}

export interface RunnerInvocation {
  entry: string
  command: string
  args: string[]
}

export interface SidePlanInput {
  side: Side
  prodEnv: ProdEnv
  helm: HelmSettings
  runs: GatedRun[]
  outDir: string
  /** A private temporary directory for this invocation. */
  tempDir: string
  /** Unique per invocation, e.g. a timestamp: suites are never reused (docs/helm.md "Exit codes and failed runs"). */
  stamp: string
  /** The resolved helm-run path (or helm.command for display). */
  command: string
  /** The directory relative `path=` values in entries are resolved against (as a tokenizer folder is). */
  cwd: string
  /** Set when the side is produced by a runner command instead of helm-run. */
  runner?: CommandDeployment
}

/** The module helm-run imports (`--plugins`) to mark each request for the stall watch. */
export const PROGRESS_PLUGIN = 'helm_gate_plugins.progress'

export function planSide(input: SidePlanInput): SidePlan {
  if (input.runner) return planRunnerSide(input, input.runner)
  const entries = uniqueEntries(input.runs).map(entry => withModel(resolveEntryPaths(entry, input.cwd), input.prodEnv.modelArgs))
  const suite = `${input.side}-${input.stamp}`
  const outputPath = join(input.outDir, input.side)
  const localPath = join(input.tempDir, input.side, 'prod_env')
  const args = [
    '--run-entries',
    ...entries,
    '--suite',
    suite,
    '--output-path',
    outputPath,
    '--local-path',
    localPath,
    '--max-eval-instances',
    String(input.helm.maxEvalInstances),
    '--num-train-trials',
    String(input.helm.numTrainTrials),
    '--num-threads',
    String(input.helm.numThreads),
    // Always: HELM's request cache keys ignore the server, so a cache could hand the candidate
    // the baseline's answers (docs/helm.md "The request cache").
    '--disable-cache',
    // Marks each request's start and end for the stall watch (docs/helm.md "A server that stops
    // answering"; python/helm_gate_plugins/progress.py).
    '--plugins',
    PROGRESS_PLUGIN
  ]
  return {
    side: input.side,
    prodEnv: input.prodEnv,
    localPath,
    outputPath,
    suite,
    logFile: join(input.outDir, 'logs', `${input.side}.log`),
    entries,
    command: input.command,
    args,
    runner: null,
    workDir: join(input.tempDir, input.side, 'work')
  }
}

/**
 * A runner command side: the command once per entry, its placeholders filled. `{output}` is the
 * suite folder helm-run would have made (`<outputPath>/runs/<suite>/`), so the run directories are
 * checked and compared the same way. A command with lm-eval output runs once for all entries and
 * writes into `<outputPath>` itself (lm-eval adds `<model>/results_<date>.json` below it). The command runs in a private working directory (FlexLLMGen
 * writes the scenario's data into `data/` there), so arguments starting with `./` or `../` are
 * resolved against the directory helm-gate runs in, as `path=` values in entries are.
 */
function planRunnerSide(input: SidePlanInput, runner: CommandDeployment): SidePlan {
  const suite = `${input.side}-${input.stamp}`
  const outputPath = join(input.outDir, input.side)
  const suiteDir = join(outputPath, 'runs', suite)
  const entries = uniqueEntries(input.runs).map(entry => resolveEntryPaths(entry, input.cwd))
  // lm-eval: one invocation for all the side's tasks (`--tasks a,b`), writing one run into the
  // side's output folder, which is what the comparison reads (a second invocation would write a
  // second results file there, and two runs on one side are refused as ambiguous).
  const lmEval = runner.output === 'lm-eval'
  const calls = lmEval ? [entries.join(',')] : entries
  const runnerCalls = calls.map(entry => {
    const [command, ...args] = expandRunnerCommand(runner.command, {
      entry,
      model: runner.model ?? '',
      output: lmEval ? outputPath : suiteDir,
      max_eval_instances: String(input.helm.maxEvalInstances),
      seed: String(runner.seed)
    }).map(arg => (isRelativePath(arg) ? resolve(input.cwd, arg) : arg))
    return { entry, command, args }
  })
  return {
    side: input.side,
    prodEnv: input.prodEnv,
    localPath: join(input.tempDir, input.side, 'prod_env'),
    outputPath,
    suite,
    logFile: join(input.outDir, 'logs', `${input.side}.log`),
    entries,
    command: runnerCalls[0]?.command ?? runner.command[0],
    args: runnerCalls[0]?.args ?? [],
    runner: runnerCalls,
    workDir: join(input.tempDir, input.side, 'work')
  }
}

/** Gate-file entries never name a model (the config loader refuses it); add this side's. */
export function withModel(entry: string, modelArgs: string): string {
  return entry.includes(':') ? `${entry},${modelArgs}` : `${entry}:${modelArgs}`
}

/**
 * `custom_mcqa:path=./data/gate.jsonl`: HELM joins a relative `path=` to its own output folder
 * (`<output>/scenarios/custom_mcqa/`), so a gate file could only name its data by an absolute
 * path, different on every machine and clone. A value that starts with `./` or `../` is resolved
 * here against the directory helm-gate runs in, as a local tokenizer folder is; the gate file
 * (and so the fingerprint) keeps the relative form, and run matching accepts either.
 */
export function resolveEntryPaths(entry: string, cwd: string): string {
  const colon = entry.indexOf(':')
  if (colon < 0) return entry
  const args = entry
    .slice(colon + 1)
    .split(',')
    .map(part => {
      const eq = part.indexOf('=')
      if (eq < 0 || part.slice(0, eq) !== 'path') return part
      const value = part.slice(eq + 1)
      return isRelativePath(value) ? `path=${resolve(cwd, value)}` : part
    })
  return `${entry.slice(0, colon)}:${args.join(',')}`
}

/** `./x` or `../x`: a path the gate file means relative to where helm-gate runs. */
export function isRelativePath(value: string): boolean {
  return value.startsWith('./') || value.startsWith('../')
}

/** Several gated comparisons may read the same run (different metrics): run it once. */
export function uniqueEntries(runs: GatedRun[]): string[] {
  return [...new Set(runs.map(run => run.entry))]
}

/** The command as one line for people to read or paste (arguments quoted when needed). */
export function displayCommand(command: string, args: string[], env: Record<string, string> = {}): string {
  const quote = (text: string): string => (/^[A-Za-z0-9_./:=,@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)
  const prefix = Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`)
  return [...prefix, quote(command), ...args.map(quote)].join(' ')
}
