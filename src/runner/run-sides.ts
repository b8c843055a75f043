/**
 * Runs the gate's run entries against the baseline and candidate deployments with the real
 * helm-run: one process per side, at the same time unless asked otherwise, each with its own
 * generated prod_env, fresh suite and output path and cache disabled. Then checks that every
 * expected run directory is complete.
 *
 * The quality half is the first measurement (`QualityMeasurement`, src/model/measurement.ts): this file is
 * the order of things (check HELM, prepare, open the launcher, probe the servers already up, hand
 * the sides and the measurements, this one first, to the one holder of the sides
 * (src/launch/side-holder.ts), collect); the parts are prepare-run.ts,
 * produce-side.ts (how a side's run directories are made) and side-outcome.ts (what a side did).
 *
 * Problems found before anything runs (bad config, wrong HELM version) are thrown; problems of a
 * side (server not ready, helm-run failed, hung or left incomplete runs) are returned as errors
 * so the caller can still compare, report and upload the evidence. What each side did is returned
 * as its manifest record; runGate (pipeline/run-gate.ts) writes the manifest.
 */
import { counted } from '../words.js'
import { delimiter, resolve } from 'node:path'
import type { GateConfig, GatedRun } from '../config/types.js'
import { GateError } from '../errors.js'
import { endpointFor, makeRunPlan, requireKeys, type RunPlan } from '../plan/run-plan.js'
import { Launcher, type LaunchManifest } from '../launch/launcher.js'
import { scheduleNotes } from '../launch/notes.js'
import { trackedTempDir } from '../process/registry.js'
import { holdOnSchedule, type SideSeen } from '../launch/side-holder.js'
import type { SideRecord } from '../model/manifest.js'
import type { SideMeasurement } from '../model/measurement.js'
import type { Report } from '../model/report.js'
import { childProcessEnv } from '../secrets/child-env.js'
import { probeServer } from '../server/readiness.js'
import { checkPreparedMetricNames, refusalOf } from './metric-names.js'
import { checkHelmInstall, prepareRun, prepareSideFolders, stampOf, type PreparedRun } from './prepare-run.js'
import { produceSideRuns, type ProduceContext } from './produce-side.js'
import { emptyOutcome, finishSide, serverDied, sideRecord, type SideOutcome } from './side-outcome.js'
import { planStagedQuality, runStagedSides } from './staged-quality.js'
import type { StagePlan } from '../sequential/stages.js'
import type { StoppedCheck } from '../sequential/staged-gate.js'
import { ConfigError } from '../errors.js'
import { checkStoppingSchedule } from '../config/sequential-section.js'
import type { Side, SidePlan } from './side-plan.js'

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
   * For `runSides`: the measurements after the quality half, taken while launched sides are still
   * up after their helm-run, before they are stopped (a sequential schedule: each side alone;
   * concurrent: both together), in this order, by the one holder of the sides
   * (src/launch/side-holder.ts): afterwards they are gone.
   */
  measurements?: readonly SideMeasurement[]
  /**
   * The run plan (src/plan/run-plan.ts): each side's endpoint and key, the key names, the secrets,
   * the schedule and the fingerprint. runGate gives its own; made here when not given.
   */
  plan?: RunPlan
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
  /** A gate file's `sequential:` section: each check's stop (src/runner/staged-quality.ts); absent otherwise. */
  stopped?: StoppedCheck[]
}

export const DEFAULT_READINESS_TIMEOUT_MS = 120_000

/**
 * The quality half on its own (the runner's tests, a caller without other measurements): the
 * sides run with `opts.measurements` held after it on the same sides.
 */
export async function runSides(config: GateConfig, opts: RunSidesOptions): Promise<RunOutcome> {
  const quality = new QualityMeasurement(config, opts)
  return quality.run([quality, ...(opts.measurements ?? [])])
}

/** What the quality half holds while the sides run: made by its pre-flight, used by `hold`. */
interface Running {
  prepared: PreparedRun
  outcomes: Map<Side, SideOutcome>
  launcher: Launcher | null
  context: Omit<ProduceContext, 'deployment' | 'timeoutMs'>
  /** The stages of a gate file's `sequential:` section, null without one. */
  stages: StagePlan[] | null
}

/**
 * The quality half as the first measurement (src/model/measurement.ts): `run` is its pre-flight
 * (refusals thrown before anything is held: HELM's version, keys, an output folder in use; the
 * servers that are always up probed first), then the one holder of the sides with every
 * measurement, this one first, then each side's outcome. Its `hold` runs helm-run or the runner
 * command on the sides just brought up that it has not run yet (at once when several) and records
 * a launched server that died while it ran. Its part of the report is the run outcome `run`
 * returns (records, errors, notes), which runGate compares.
 */
export class QualityMeasurement implements SideMeasurement {
  readonly name = 'the quality half (helm-run or the runner command on each side)'
  readonly everySide = true
  private running: Running | null = null
  private readonly ran = new Set<Side>()
  private stopped: StoppedCheck[] | null = null

  constructor(
    private readonly config: GateConfig,
    private readonly opts: RunSidesOptions
  ) {}

  /** The sides run on the schedule with `measurements` (this quality half first), then collected. */
  async run(measurements: readonly SideMeasurement[]): Promise<RunOutcome> {
    if (measurements[0] !== this) throw new Error('the quality half must be the first measurement held')
    const { config, opts } = this
    const env = opts.env ?? process.env
    const cwd = opts.cwd ?? process.cwd()
    const log = opts.log ?? (() => {})
    const progress = opts.progress ?? log
    const started = new Date()
    const outDir = resolve(cwd, opts.outDir)
    const sides = [...new Set(opts.sides)]
    const install = await checkHelmInstall(config, env, cwd)
    const plan = opts.plan ?? (await makeRunPlan(config, { env, cwd, baseRef: opts.baseRef ?? null, sequential: opts.sequential }))

    // Holds each side's prod_env (credentials.conf) and the base commit's worktree.
    const temp = trackedTempDir()
    const schedule = plan.schedule
    let launcher: Launcher | null = null
    try {
      const { prepared, stages } = await this.preflight(install, plan, { outDir, tempDir: temp.path, started, cwd, env, progress })
      const outcomes = new Map<Side, SideOutcome>(prepared.plans.map(plan => [plan.side, emptyOutcome(plan)]))
      // A side about to run whose key variable is named but not set is refused before anything starts.
      requireKeys(plan, sides, config.source, opts.selfCheck)
      const { secrets, keyNames } = plan
      launcher = await Launcher.open({
        config,
        endpoints: plan.endpoints,
        cwd,
        env: childProcessEnv(env, keyNames),
        baseRef: opts.baseRef ?? null,
        outDir,
        selfCheck: opts.selfCheck,
        secrets,
        progress,
        echo: opts.log === undefined ? undefined : log,
        tempDir: temp.path
      })
      const opened = launcher
      await probeServersUp(prepared, outcomes, side => opened?.launches(side) ?? false, plan, opts, progress)

      if ([...outcomes.values()].every(outcome => outcome.errors.length === 0)) {
        const childEnv = {
          ...childProcessEnv(env, keyNames),
          PYTHONPATH: [install.pluginPath, env.PYTHONPATH].filter(Boolean).join(delimiter)
        }
        this.running = { prepared, outcomes, launcher, context: { env: childEnv, secrets, log, progress }, stages }
        const scheduled = prepared.plans.map(plan => ({ side: plan.side, output: plan.outputPath }))
        const seen = await holdOnSchedule(launcher, scheduled, schedule, measurements)
        // Each launched side's readiness, or its launch's own error (code and location), is its outcome's.
        for (const [side, saw] of Object.entries(seen) as [Side, SideSeen][]) {
          const outcome = outcomes.get(side) as SideOutcome
          if (saw.error) outcome.errors.push(saw.error)
          else outcome.server = saw.probe
        }
      }
      await launcher?.close()

      const ended = new Date()
      const collected = collectOutcome(prepared, outcomes, {
        outDir,
        fingerprint: plan.fingerprint,
        helmVersion: install.version,
        started,
        ended,
        schedule,
        launch: launcher?.manifest() ?? null
      })
      return this.stopped ? { ...collected, stopped: this.stopped } : collected
    } finally {
      this.running = null
      // Every path: a thrown error, a failed side. Stopping twice is harmless.
      await launcher?.close()
      // The local paths may hold a copy of the user's credentials.conf: never leave it behind. The
      // signal path shares this removal (src/process/registry.ts).
      await temp.remove()
    }
  }

  /**
   * The pre-flight before any server is held: the run prepared and each side's folders made, the
   * gated metric names checked (a refusal thrown here), and a sequential gate's stages planned.
   */
  private async preflight(
    install: Awaited<ReturnType<typeof checkHelmInstall>>,
    plan: RunPlan,
    where: { outDir: string; tempDir: string; started: Date; cwd: string; env: NodeJS.ProcessEnv; progress: (line: string) => void }
  ): Promise<{ prepared: PreparedRun; stages: StagePlan[] | null }> {
    const { config, opts } = this
    const { outDir, started, cwd, env, progress } = where
    const sides = [...new Set(opts.sides)]
    const prepared = await prepareRun(config, {
      outDir,
      sides,
      runs: opts.runs,
      selfCheck: opts.selfCheck,
      tempDir: where.tempDir,
      stamp: stampOf(started),
      command: install.helmRun,
      cwd
    })
    await prepareSideFolders(outDir, prepared.plans)
    // A gated metric no run spec declares is refused now, before any server or helm-run is
    // spent on it (docs/helm.md "Metric names before the run").
    const names = await checkPreparedMetricNames(prepared, { ...install, env, source: config.source })
    const refusal = refusalOf(names)
    if (refusal) throw refusal
    for (const line of names?.lines.filter(text => text.includes('not checked')) ?? []) progress(`helm-gate: metric names: ${line}`)
    const stages = config.stopping
      ? await stagedPreflight(config, prepared, install, env, { schedule: plan.schedule, sides, runs: opts.runs })
      : null
    return { prepared, stages }
  }

  /** helm-run or the runner command on the sides of `up` not run yet, at once when several. */
  async hold(up: Side[]): Promise<void> {
    const running = this.running
    if (!running) throw new Error('the quality half is held only by its own run')
    const plans = running.prepared.plans.filter(plan => up.includes(plan.side) && !this.ran.has(plan.side))
    for (const plan of plans) this.ran.add(plan.side)
    if (running.stages && plans.length > 0) return this.holdStaged(running, running.stages, plans)
    // Every side finishes before a thrown error (a bug, not a side's problem) is passed on.
    const settled = await Promise.allSettled(plans.map(plan => this.runOne(plan, running)))
    const thrown = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (thrown) throw thrown.reason
  }

  /** It runs every side while it is held: nothing is left for servers that are always up. */
  async holdAlwaysUp(): Promise<void> {}

  /** Its part is the run outcome (`run`), which runGate compares (compareOutputs) or reports failed. */
  attach(report: Report): Report {
    return report
  }

  /** A sequential gate's stages: both sides at once, each stage helm-run on both (src/runner/staged-quality.ts). */
  private async holdStaged(running: Running, stages: StagePlan[], plans: SidePlan[]): Promise<void> {
    const { prepared, outcomes, launcher, context } = running
    const settings = this.config.stopping
    if (!settings) throw new Error('staged without a sequential section')
    // The pre-flight refuses a schedule that holds one side at a time; a hold of one side is a bug.
    if (plans.length !== prepared.plans.length) throw new Error('a sequential gate holds both sides at once')
    this.stopped = await runStagedSides(this.config, settings, stages, prepared, outcomes, context)
    for (const plan of plans) {
      const died = launcher?.diedWhileUp(plan.side)
      if (died) serverDied(outcomes.get(plan.side) as SideOutcome, died)
    }
  }

  private async runOne(plan: SidePlan, running: Running): Promise<void> {
    const { prepared, outcomes, launcher, context } = running
    const outcome = outcomes.get(plan.side) as SideOutcome
    const deployment = prepared.deployments[plan.side]
    const timeoutMs = prepared.helm.timeoutMinutes * 60_000
    await runSide(plan, outcome, prepared, { ...context, deployment, timeoutMs })
    // A launched server that died is the cause; helm-run's "Connection refused" follows it.
    const died = launcher?.diedWhileUp(plan.side)
    if (died) serverDied(outcome, died)
  }
}

/** One side's run: its run directories made (produce-side.ts), then checked and recorded. */
async function runSide(plan: SidePlan, outcome: SideOutcome, prepared: PreparedRun, context: ProduceContext): Promise<void> {
  context.progress(
    `[${plan.side}] starting ${plan.runner ? 'the runner command' : 'helm-run'} (${counted(plan.entries.length, 'entry', 'entries')}, log: ${plan.logFile})`
  )
  const result = await produceSideRuns(plan, context)
  await finishSide(plan, result, outcome, prepared.runs, context.deployment)
  context.progress(
    `[${plan.side}] ${outcome.complete ? 'complete' : 'FAILED'} in ${Math.round((result.durationMs ?? 0) / 100) / 10} s, ${counted(result.requests, 'request')}`
  )
}

/**
 * A sequential gate's pre-flight: both sides at once, every entry, each entry's stages planned
 * from its counted instances (a look above them refused now, before any server starts).
 */
async function stagedPreflight(
  config: GateConfig,
  prepared: PreparedRun,
  install: { helmRun: string; pluginPath: string },
  env: NodeJS.ProcessEnv,
  how: { schedule: 'sequential' | 'concurrent'; sides: Side[]; runs?: GatedRun[] }
): Promise<StagePlan[]> {
  const refuse = (field: string, why: string, value?: unknown): never => {
    throw new ConfigError('sequential.cannot_stage', `the sequential section cannot stage ${why}`, { file: config.source, field, value })
  }
  checkStoppingSchedule(config.stopping, config.source, how.schedule)
  if (how.sides.length !== 2) refuse('sequential', 'one side alone: each stage pairs both sides', how.sides.join(', '))
  if (how.runs && how.runs.length !== config.runs.length) refuse('sequential', 'a share of the run entries (a shard)', how.runs.length)
  if (prepared.plans.some(plan => plan.runner)) refuse('deployments', 'a runner command (stages are helm-run arguments)')
  return planStagedQuality(config, config.stopping as NonNullable<GateConfig['stopping']>, prepared, install, env)
}

/**
 * Pre-flight: servers that are already up must answer before either side starts, so a dead one
 * costs seconds. Launched servers are probed when they are started (holdOnSchedule).
 */
async function probeServersUp(
  prepared: PreparedRun,
  outcomes: Map<Side, SideOutcome>,
  launched: (side: Side) => boolean,
  run: RunPlan,
  opts: RunSidesOptions,
  progress: (line: string) => void
): Promise<void> {
  await Promise.all(
    prepared.plans.map(async plan => {
      const outcome = outcomes.get(plan.side) as SideOutcome
      // The side's deployment as the runner has it: a self-check runs the baseline's on both sides.
      const endpoint = endpointFor(run, plan.side, opts.selfCheck)
      if (!endpoint || launched(plan.side)) return
      try {
        outcome.server = await probeServer({
          ...endpoint,
          timeoutMs: opts.readinessTimeoutMs ?? DEFAULT_READINESS_TIMEOUT_MS,
          timeoutHint: opts.readinessTimeoutHint,
          log: progress
        })
        progress(`[${plan.side}] server ready: ${outcome.server.url} lists ${endpoint.model}`)
      } catch (error) {
        if (!(error instanceof GateError)) throw error
        outcome.errors.push(error)
      }
    })
  )
}

/** The invocation's outcome from each side's: paths, records, errors and the schedule's caveats. */
function collectOutcome(
  prepared: PreparedRun,
  outcomes: Map<Side, SideOutcome>,
  run: {
    outDir: string
    fingerprint: string
    helmVersion: string
    started: Date
    ended: Date
    schedule: 'sequential' | 'concurrent'
    launch: LaunchManifest | null
  }
): RunOutcome {
  const all = [...outcomes.values()]
  return {
    paths: Object.fromEntries(prepared.plans.map(plan => [plan.side, plan.outputPath])),
    completed: all.filter(outcome => outcome.complete).map(outcome => outcome.side),
    errors: all.flatMap(outcome => outcome.errors),
    sides: Object.fromEntries(outcomes) as Partial<Record<Side, SideOutcome>>,
    records: Object.fromEntries(
      prepared.plans.map(plan => [
        plan.side,
        sideRecord(plan, outcomes.get(plan.side) as SideOutcome, prepared.deployments[plan.side], run.outDir)
      ])
    ) as Partial<Record<Side, SideRecord>>,
    fingerprint: run.fingerprint,
    helmVersion: run.helmVersion,
    startedAt: run.started.toISOString(),
    endedAt: run.ended.toISOString(),
    durationMs: run.ended.getTime() - run.started.getTime(),
    schedule: run.schedule,
    launch: run.launch,
    notes: scheduleNotes(run.schedule, run.launch)
  }
}
