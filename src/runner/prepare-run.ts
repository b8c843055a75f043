/**
 * Everything about a run of the sides that is decided before anything runs: the checked helm-run
 * install, the deployments and each side's plan (`plan` prints these), and each side's fresh
 * output and prod_env folders.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { checkDistinctDeployments } from '../config/deployment-rules.js'
import type { CommandDeployment, Deployment, GateConfig, GatedRun, HelmSettings } from '../config/types.js'
import { ConfigError, HelmRunError } from '../errors.js'
import { launchesDiffer } from '../launch/notes.js'
import { assertPinnedVersion, installedHelmVersion, pluginPythonPath, pythonFor, resolveHelmRun } from './helm-install.js'
import { PROD_ENV_FILES, prodEnvFor } from './prod-env.js'
import { planSide, type Side, type SidePlan } from './side-plan.js'

export interface PreparedRun {
  helm: HelmSettings
  runs: GatedRun[]
  plans: SidePlan[]
  deployments: Record<Side, Deployment>
}

/** Everything about the invocation that can be decided without running anything (used by `plan`). */
export async function prepareRun(
  config: GateConfig,
  opts: {
    outDir: string
    sides: Side[]
    runs?: GatedRun[]
    selfCheck?: boolean
    tempDir: string
    stamp: string
    command?: string
    /** Where helm-run will run (relative `path=` values resolve against it); default: here. */
    cwd?: string
  }
): Promise<PreparedRun> {
  const helm = helmSection(config)
  if (!config.deployments) {
    throw new ConfigError('config.missing', 'the gate file needs deployments.baseline and deployments.candidate to run HELM', {
      file: config.source,
      field: 'deployments'
    })
  }
  const runs = opts.runs ?? config.runs
  if (runs.length === 0) throw new ConfigError('config.missing', 'there are no runs to execute', { file: config.source, field: 'runs' })
  if (opts.sides.length === 0) throw new ConfigError('config.missing', 'no side to run', { file: config.source })
  const deployments: Record<Side, Deployment> = {
    baseline: config.deployments.baseline,
    candidate: opts.selfCheck ? config.deployments.baseline : config.deployments.candidate
  }
  if (!opts.selfCheck && opts.sides.includes('baseline') && opts.sides.includes('candidate') && !launchesDiffer(config)) {
    checkDistinctDeployments(deployments.baseline, deployments.candidate, config.source)
  }
  const plans: SidePlan[] = []
  for (const side of opts.sides) {
    plans.push(
      planSide({
        side,
        prodEnv: await prodEnvFor(deployments[side]),
        helm,
        runs,
        outDir: resolve(opts.outDir),
        tempDir: opts.tempDir,
        stamp: opts.stamp,
        command: opts.command ?? helm.command,
        cwd: opts.cwd ?? process.cwd(),
        runner: deployments[side].kind === 'command' ? (deployments[side] as CommandDeployment) : undefined
      })
    )
  }
  return { helm, runs, plans, deployments }
}

/** What the manifest says for the HELM version of sides made by runner commands. */
export const RUNNER_COMMAND_VERSION = 'runner command'

export interface HelmInstall {
  /** The resolved helm-run executable. */
  helmRun: string
  /** The installed crfm-helm version (checked against helm.version). */
  version: string
  /** Where helm-gate's HELM plugins are, for helm-run's PYTHONPATH. */
  pluginPath: string
}

/**
 * The helm-run the gate file names, refused unless it is the pinned HELM version. Not looked for
 * when every side is a runner command: those bring their own HELM (FlexLLMGen calls 0.2.1's API).
 */
export async function checkHelmInstall(config: GateConfig, env: NodeJS.ProcessEnv, cwd: string): Promise<HelmInstall> {
  const helm = helmSection(config)
  const deployments = config.deployments ? [config.deployments.baseline, config.deployments.candidate] : []
  if (deployments.length > 0 && deployments.every(d => d.kind === 'command')) {
    return { helmRun: helm.command, version: RUNNER_COMMAND_VERSION, pluginPath: '' }
  }
  const helmRun = await resolveHelmRun(helm.command, env, cwd)
  const version = await installedHelmVersion(await pythonFor(helmRun), env)
  assertPinnedVersion(version, helm.version, config.source)
  return { helmRun, version, pluginPath: await pluginPythonPath(env) }
}

function helmSection(config: GateConfig): HelmSettings {
  if (!config.helm)
    throw new ConfigError('config.missing', 'the gate file needs a helm section to run HELM', { file: config.source, field: 'helm' })
  return config.helm
}

/** Each side's output folder (fresh) and prod_env folder (with the side's files), before anything runs. */
export async function prepareSideFolders(outDir: string, plans: SidePlan[]): Promise<void> {
  await mkdir(outDir, { recursive: true })
  for (const plan of plans) await prepareSideFolder(plan)
}

async function prepareSideFolder(plan: SidePlan): Promise<void> {
  // A fresh output path per invocation: stale files from an earlier run must never be compared.
  let existing: string[]
  try {
    existing = await readdir(plan.outputPath)
  } catch {
    existing = []
  }
  if (existing.length > 0) {
    throw new HelmRunError('runner.output_exists', `the ${plan.side} output directory is not empty; choose a new output folder`, {
      file: plan.outputPath
    })
  }
  await mkdir(plan.outputPath, { recursive: true })
  // Not recursive: once the temporary folder is removed (helm-gate is being cancelled) this fails
  // instead of making it again and writing credentials.conf into a folder nothing would remove.
  await mkdir(dirname(plan.localPath))
  await mkdir(plan.localPath)
  for (const name of PROD_ENV_FILES) {
    await writeFile(join(plan.localPath, name), plan.prodEnv.files[name], { mode: 0o600 })
  }
}

/** A suite name's unique part: the invocation's start, to the second (suites are never reused). */
export function stampOf(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
}
