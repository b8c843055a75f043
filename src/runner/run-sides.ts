/**
 * Runs the gate's run entries against the baseline and candidate deployments with the real
 * helm-run: one process per side, at the same time unless asked otherwise, each with its own
 * generated prod_env, fresh suite and output path and cache disabled. Then checks that every
 * expected run directory is complete.
 *
 * Problems found before anything runs (bad config, wrong HELM version) are thrown; problems of a
 * side (server not ready, helm-run failed, hung or left incomplete runs) are returned as errors
 * so the caller can still compare, report and upload the evidence. What each side did is returned
 * as its manifest record; runGate (pipeline/run-gate.ts) writes the manifest.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { delimiter, dirname, join, resolve } from 'node:path'
import { gateFingerprint } from '../launch/gate-fingerprint.js'
import { Launcher, type LaunchManifest } from '../launch/launcher.js'
import { withLaunchedSides } from '../launch/launched-sides.js'
import { launchesDiffer, scheduleNotes } from '../launch/notes.js'
import { trackedTempDir } from '../launch/registry.js'
import type { Deployment, GateConfig, GatedRun, HelmSettings } from '../config/types.js'
import { ConfigError, GateError, HelmRunError } from '../errors.js'
import { runHelmProcess, type HelmProcessResult } from './helm-process.js'
import { assertPinnedVersion, installedHelmVersion, pluginPythonPath, pythonFor, resolveHelmRun } from './helm-install.js'
import { assertComparableDeployments, assertDistinctDeployments, PROD_ENV_FILES, prodEnvFor, redactedFiles } from './prod-env.js'
import { probeServer, type ProbeResult } from '../server/readiness.js'
import { manifestPath, type SideRecord } from '../model/manifest.js'
import { explainSideErrors } from './root-cause.js'
import { redactUrl, redactUrlsIn } from '../secrets/redact.js'
import { apiKeyNames, apiKeyOf, requiredApiKey } from '../secrets/api-keys.js'
import { planSide, type Side, type SidePlan } from './side-plan.js'
import { verifySideOutput } from './verify.js'

export type { Side } from './side-plan.js'

export interface RunSidesOptions {
  /** Output folder: `<outDir>/<side>/` (HELM output), `<outDir>/logs/<side>.log`. */
  outDir: string
  sides: Side[]
  /** The gated runs to execute (a shard); all of config.runs by default. */
  runs?: GatedRun[]
  /** Every helm-run output line, prefixed with its side. */
  log?: (line: string) => void
  /** Short progress lines (defaults to `log`). */
  progress?: (line: string) => void
  /** Run the baseline deployment on both sides: the flip rate is this server's noise floor. */
  selfCheck?: boolean
  /** One side after the other instead of both at once (overrides the gate file's schedule). */
  sequential?: boolean
  /**
   * The commit `checkout: base` launches and `fingerprint_paths` are read from: the pull
   * request's base, or `--baseline-ref` (default HEAD for fingerprint_paths).
   */
  baseRef?: string | null
  /**
   * Launched servers only: called while sides are still up after their helm-run, before they are
   * stopped (a sequential schedule: each side alone; concurrent: both together), with every side
   * up at that moment (the launched ones held, plus sides that are not launched: always up) and
   * the HELM output folders. The load half measures launched deployments here (src/launch/
   * load-while-up.ts), since afterwards they are gone.
   */
  whileUp?: (sides: Side[], outputs: Partial<Record<Side, string>>) => Promise<void>
  /** How long to wait for each server's GET /models before giving up (default 120 s). */
  readinessTimeoutMs?: number
  /**
   * Where that timeout is set, for the message when it runs out (default `run --ready-timeout
   * SEC`); null when nothing sets it (the action). Launched servers have their own
   * (ready_timeout_seconds).
   */
  readinessTimeoutHint?: string | null
  env?: NodeJS.ProcessEnv
  cwd?: string
}

export interface SideOutcome {
  side: Side
  /** HELM `--output-path` (absolute). */
  outputPath: string
  suite: string
  logFile: string
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  startedAt: string | null
  endedAt: string | null
  durationMs: number | null
  requests: number
  server: ProbeResult | null
  complete: boolean
  errors: GateError[]
}

export interface RunOutcome {
  /** Each side's HELM output path (absolute) for the sides that were attempted. */
  paths: Partial<Record<Side, string>>
  /** Sides whose every expected run completed. */
  completed: Side[]
  /** Everything that went wrong, each naming its side (and run, when known). */
  errors: GateError[]
  sides: Partial<Record<Side, SideOutcome>>
  /** Each side's manifest record, paths relative to outDir. */
  records: Partial<Record<Side, SideRecord>>
  fingerprint: string
  helmVersion: string
  startedAt: string
  endedAt: string
  /** Wall time of the whole invocation, probes included. */
  durationMs: number
  /** sequential: one side after the other; concurrent: both at once. */
  schedule: 'sequential' | 'concurrent'
  /** The launched servers (src/launch), null when nothing was launched. */
  launch: LaunchManifest | null
  /** Caveats for the report (e.g. what a sequential schedule cannot cancel). */
  notes: string[]
}

export const DEFAULT_READINESS_TIMEOUT_MS = 120_000

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
  if (!config.helm)
    throw new ConfigError('config.missing', 'the gate file needs a helm section to run HELM', { file: config.source, field: 'helm' })
  if (!config.deployments) {
    throw new ConfigError('config.missing', 'the gate file needs deployments.baseline and deployments.candidate to run HELM', {
      file: config.source,
      field: 'deployments'
    })
  }
  const helm = config.helm
  const runs = opts.runs ?? config.runs
  if (runs.length === 0) throw new ConfigError('config.missing', 'there are no runs to execute', { file: config.source, field: 'runs' })
  if (opts.sides.length === 0) throw new ConfigError('config.missing', 'no side to run', { file: config.source })
  const deployments: Record<Side, Deployment> = {
    baseline: config.deployments.baseline,
    candidate: opts.selfCheck ? config.deployments.baseline : config.deployments.candidate
  }
  assertComparableDeployments(deployments.baseline, deployments.candidate, config.source)
  if (!opts.selfCheck && opts.sides.includes('baseline') && opts.sides.includes('candidate') && !launchesDiffer(config)) {
    assertDistinctDeployments(deployments.baseline, deployments.candidate, config.source)
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
        cwd: opts.cwd ?? process.cwd()
      })
    )
  }
  return { helm, runs, plans, deployments }
}

export async function runSides(config: GateConfig, opts: RunSidesOptions): Promise<RunOutcome> {
  const env = opts.env ?? process.env
  const cwd = opts.cwd ?? process.cwd()
  const log = opts.log ?? (() => {})
  const progress = opts.progress ?? log
  const started = new Date()
  const outDir = resolve(cwd, opts.outDir)
  const sides = [...new Set(opts.sides)]

  if (!config.helm)
    throw new ConfigError('config.missing', 'the gate file needs a helm section to run HELM', { file: config.source, field: 'helm' })
  const helmRun = await resolveHelmRun(config.helm.command, env, cwd)
  const helmVersion = await installedHelmVersion(await pythonFor(helmRun), env)
  assertPinnedVersion(helmVersion, config.helm.version, config.source)
  const pluginPath = await pluginPythonPath(env)

  // Holds each side's prod_env (credentials.conf) and the base commit's worktree.
  const temp = trackedTempDir()
  const tempDir = temp.path
  const schedule = opts.sequential ? 'sequential' : (config.launch?.schedule ?? 'concurrent')
  let launcher: Launcher | null = null
  try {
    const prepared = await prepareRun(config, {
      outDir,
      sides,
      runs: opts.runs,
      selfCheck: opts.selfCheck,
      tempDir,
      stamp: stampOf(started),
      command: helmRun,
      cwd
    })
    await mkdir(outDir, { recursive: true })
    for (const plan of prepared.plans) await prepareDirectories(plan)

    const outcomes = new Map<Side, SideOutcome>()
    for (const plan of prepared.plans) outcomes.set(plan.side, emptyOutcome(plan))

    const secrets: string[] = []
    for (const plan of prepared.plans) {
      const deployment = prepared.deployments[plan.side]
      if (deployment.kind !== 'server') continue
      const apiKey = requiredApiKey(deployment, env, config.source, plan.side)
      if (apiKey) secrets.push(apiKey)
      secrets.push(...urlSecrets(deployment.baseUrl))
    }
    const keyNames = apiKeyNames(Object.values(prepared.deployments))
    launcher = await Launcher.open({
      config,
      cwd,
      env: helmRunEnv(env, keyNames),
      baseRef: opts.baseRef ?? null,
      outDir,
      selfCheck: opts.selfCheck,
      secrets,
      progress,
      echo: opts.log === undefined ? undefined : log,
      tempDir
    })
    const launched = (side: Side): boolean => launcher?.launches(side) ?? false

    // Pre-flight: servers that are already up must answer before either side starts, so a dead
    // one costs seconds. Launched servers are probed when they are started (schedule below).
    await Promise.all(
      prepared.plans.map(async plan => {
        const outcome = outcomes.get(plan.side) as SideOutcome
        const deployment = prepared.deployments[plan.side]
        if (deployment.kind !== 'server' || launched(plan.side)) return
        try {
          outcome.server = await probeServer({
            side: plan.side,
            baseUrl: deployment.baseUrl,
            model: deployment.model,
            apiKey: apiKeyOf(deployment, env),
            timeoutMs: opts.readinessTimeoutMs ?? DEFAULT_READINESS_TIMEOUT_MS,
            timeoutHint: opts.readinessTimeoutHint,
            log: progress
          })
          progress(`[${plan.side}] server ready: ${outcome.server.url} lists ${deployment.model}`)
        } catch (error) {
          if (!(error instanceof GateError)) throw error
          outcome.errors.push(error)
        }
      })
    )

    const ready = [...outcomes.values()].every(outcome => outcome.errors.length === 0)
    if (ready) {
      const childEnv = { ...helmRunEnv(env, keyNames), PYTHONPATH: [pluginPath, env.PYTHONPATH].filter(Boolean).join(delimiter) }
      const runOne = async (plan: SidePlan): Promise<void> => {
        const outcome = outcomes.get(plan.side) as SideOutcome
        progress(`[${plan.side}] starting helm-run (${plan.entries.length} entries, log: ${plan.logFile})`)
        const result = await runHelmProcess({
          side: plan.side,
          command: plan.command,
          args: plan.args,
          env: childEnv,
          logFile: plan.logFile,
          timeoutMs: prepared.helm.timeoutMinutes * 60_000,
          expectedRuns: plan.entries.length,
          log,
          progress,
          secrets,
          stallMs: stallLimitMs(prepared.deployments[plan.side])
        })
        await finishSide(plan, result, outcome, prepared.runs, prepared.deployments[plan.side])
        progress(
          `[${plan.side}] ${outcome.complete ? 'complete' : 'FAILED'} in ${Math.round((result.durationMs ?? 0) / 100) / 10} s, ${result.requests} requests`
        )
      }
      await withLaunchedSides(launcher, prepared.plans, schedule, {
        side: plan => plan.side,
        measure: runOne,
        ready: (plan, probe) => void ((outcomes.get(plan.side) as SideOutcome).server = probe),
        failed: (plan, error) => void (outcomes.get(plan.side) as SideOutcome).errors.push(error),
        whileUp: async up => {
          await opts.whileUp?.(up, Object.fromEntries(prepared.plans.map(plan => [plan.side, plan.outputPath])))
        }
      })
    }
    await launcher?.close()

    const ended = new Date()
    const print = await gateFingerprint(config, cwd, opts.baseRef ?? null, env)
    const launchManifest = launcher?.manifest() ?? null
    const records = Object.fromEntries(
      prepared.plans.map(plan => [
        plan.side,
        sideRecord(plan, outcomes.get(plan.side) as SideOutcome, prepared.deployments[plan.side], outDir)
      ])
    ) as Partial<Record<Side, SideRecord>>
    const sideOutcomes = Object.fromEntries(outcomes) as Partial<Record<Side, SideOutcome>>
    return {
      paths: Object.fromEntries(prepared.plans.map(plan => [plan.side, plan.outputPath])),
      completed: [...outcomes.values()].filter(outcome => outcome.complete).map(outcome => outcome.side),
      errors: [...outcomes.values()].flatMap(outcome => outcome.errors),
      sides: sideOutcomes,
      records,
      fingerprint: print,
      helmVersion,
      startedAt: started.toISOString(),
      endedAt: ended.toISOString(),
      durationMs: ended.getTime() - started.getTime(),
      schedule,
      launch: launchManifest,
      notes: scheduleNotes(schedule, launchManifest)
    }
  } finally {
    // Every path: a thrown error, a failed side. Stopping twice is harmless.
    await launcher?.close()
    // The local paths may hold a copy of the user's credentials.conf: never leave it behind. The
    // signal path shares this removal (src/launch/registry.ts).
    await temp.remove()
  }
}

/** Slack over one request attempt's timeout before a side with requests waiting counts as stalled. */
const STALL_SLACK_SECONDS = 30
/** A prod_env deployment's client and timeouts are HELM's own (HELM retries 5 times, 10-80 s apart). */
const PROD_ENV_STALL_SECONDS = 600

/**
 * How long helm-run may go without completing a request while some wait before it is stopped:
 * one attempt's timeout (request_timeout_seconds; the plugin client's SDK retries each attempt
 * twice more) plus 30 s, or 10 minutes for a prod_env deployment. A server that answers at all
 * completes one request of several waiting within one timeout; one that answers none has stopped.
 */
export function stallLimitMs(deployment: Deployment): number {
  return (deployment.kind === 'server' ? deployment.requestTimeoutSeconds + STALL_SLACK_SECONDS : PROD_ENV_STALL_SECONDS) * 1000
}

async function prepareDirectories(plan: SidePlan): Promise<void> {
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

async function finishSide(
  plan: SidePlan,
  result: HelmProcessResult,
  outcome: SideOutcome,
  runs: GatedRun[],
  deployment: Deployment
): Promise<void> {
  outcome.exitCode = result.exitCode
  outcome.signal = result.signal
  outcome.timedOut = result.timedOut
  outcome.startedAt = result.startedAt
  outcome.endedAt = result.endedAt
  outcome.durationMs = result.durationMs
  outcome.requests = result.requests
  const where = { file: plan.logFile }
  if (result.spawnError) {
    outcome.errors.push(
      new HelmRunError('runner.spawn', `${plan.side}: could not start helm-run: ${result.spawnError}`, { ...where, value: plan.command })
    )
    return
  }
  if (result.stalled) {
    const { idleMs, waiting } = result.stalled
    outcome.errors.push(
      new HelmRunError(
        'runner.stalled',
        `${plan.side}: the ${plan.side} server stopped answering: no request completed for ${Math.round(idleMs / 1000)} s while ${waiting} waited, so helm-run was stopped (the limit is ${Math.round(stallLimitMs(deployment) / 1000)} s; docs/helm.md "A server that stops answering")`,
        where
      )
    )
  } else if (result.timedOut) {
    const at = result.runsStarted.at(-1)
    outcome.errors.push(
      new HelmRunError(
        'runner.timeout',
        `${plan.side}: helm-run hung and was killed after ${Math.round(result.durationMs / 1000)} s${at ? ` during run ${at}` : ''} (helm.timeout_minutes)`,
        where
      )
    )
  } else if (result.exitCode !== 0) {
    const runsNamed = result.failedRuns.length ? `; failed runs: ${result.failedRuns.join(', ')}` : ''
    outcome.errors.push(
      new HelmRunError(
        'runner.exit',
        `${plan.side}: helm-run exited with ${result.exitCode ?? result.signal}${runsNamed}; see the ${plan.side} log`,
        { ...where, value: result.failedRuns[0] }
      )
    )
  }
  const verification = await verifySideOutput(plan.side, plan.outputPath, plan.suite, runs)
  outcome.errors.push(...verification.errors)
  outcome.complete = outcome.errors.length === 0
  outcome.errors = await explainSideErrors(outcome.errors, plan.logFile, dirname(plan.outputPath))
}

function emptyOutcome(plan: SidePlan): SideOutcome {
  return {
    side: plan.side,
    outputPath: plan.outputPath,
    suite: plan.suite,
    logFile: plan.logFile,
    exitCode: null,
    signal: null,
    timedOut: false,
    startedAt: null,
    endedAt: null,
    durationMs: null,
    requests: 0,
    server: null,
    complete: false,
    errors: []
  }
}

function sideRecord(plan: SidePlan, outcome: SideOutcome, deployment: Deployment, outDir: string): SideRecord {
  const described: Record<string, unknown> =
    deployment.kind === 'server'
      ? {
          kind: 'server',
          api: deployment.api,
          base_url: redactUrl(deployment.baseUrl),
          model: deployment.model,
          tokenizer: deployment.tokenizer,
          max_sequence_length: deployment.maxSequenceLength,
          api_key_env: deployment.apiKeyEnv,
          request_timeout_seconds: deployment.requestTimeoutSeconds
        }
      : { kind: 'prod_env', prod_env: deployment.localPath, deployment: deployment.deployment }
  // The manifest is uploaded as evidence: no credential, not even inside a URL or an error.
  return {
    source: 'run',
    helm_deployment: plan.prodEnv.deployment,
    deployment: described,
    server: outcome.server,
    output_path: manifestPath(outDir, plan.outputPath),
    suite: plan.suite,
    log_file: manifestPath(outDir, plan.logFile) ?? plan.logFile,
    entries: plan.entries,
    command: [plan.command, ...plan.args],
    prod_env: redactedFiles(plan.prodEnv),
    started_at: outcome.startedAt,
    ended_at: outcome.endedAt,
    duration_ms: outcome.durationMs,
    exit_code: outcome.exitCode,
    signal: outcome.signal,
    timed_out: outcome.timedOut,
    requests: outcome.requests,
    complete: outcome.complete,
    errors: outcome.errors.map(error => ({ code: error.code, message: redactUrlsIn(error.message) }))
  }
}

/**
 * helm-run needs the environment (PATH, the API key variables, HF and NLTK settings) but none of
 * the runner's own credentials: the action inputs (INPUT_GITHUB-TOKEN), the artifact service's
 * runtime token and the OIDC request token. It runs third-party code; it gets no more than it needs.
 */
const RUNNER_SECRETS =
  /^(INPUT_.*|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL|GITHUB_TOKEN|GH_TOKEN)$/

export function helmRunEnv(env: NodeJS.ProcessEnv, apiKeyNames: string[] = []): NodeJS.ProcessEnv {
  // A variable the gate file names as an API key stays, whatever its name.
  return Object.fromEntries(Object.entries(env).filter(([name]) => apiKeyNames.includes(name) || !RUNNER_SECRETS.test(name)))
}

/** Userinfo and query values of a base URL: masked in helm-run's log like API keys. */
function urlSecrets(baseUrl: string): string[] {
  try {
    const url = new URL(baseUrl)
    return [url.username, url.password, ...url.searchParams.values()].filter(value => value.length >= 4)
  } catch {
    return []
  }
}

function stampOf(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
}
