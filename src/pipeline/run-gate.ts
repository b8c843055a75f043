/**
 * The pipeline, on one screen: run the sides that are not given, record how they were made,
 * compare, and load-test both deployments while they are up. `helm-gate run` and every action
 * mode go through here; each is a short adapter that says where the sides come from (helm-run, an
 * archived baseline, shard artifacts), whether the load half runs, and where the results go
 * (files, a PR comment, an artifact).
 *
 *   gate file ─► runGate: runSides (helm-run per side; the load half while launched servers are up)
 *            ─► manifest.json ─► compareOutputs ─► the load half (unless measured already) ─► report
 *
 * runLoadOnlyGate is the performance half alone (`helm-gate load`, `run --only load`).
 *
 * Problems of a side (server not ready, helm-run failed, incomplete output) never throw: they
 * become errors of the report, so a verdict (error) and the evidence always come out. A refusal
 * before anything runs is thrown (a GateError), for the adapter to report.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { GateConfig, GatedRun } from '../config/types.js'
import { GateError } from '../errors.js'
import { compareOutputs } from '../gate/compare.js'
import { loadTimelineOf, manifestPath, writeManifest, type BaselineOrigin, type Manifest, type SideRecord } from '../model/manifest.js'
import { SIDES, type ChangedExample, type Report, type Side } from '../model/report.js'
import { sidesFailedReport } from '../runner/failed-report.js'
import { attachIdentity } from '../runner/engine-identity.js'
import { gateFingerprint } from '../launch/gate-fingerprint.js'
import { runSides, type RunOutcome } from '../runner/run-sides.js'
import { HELM_GATE_VERSION } from '../version.js'
import { runReport } from '../model/error-report.js'
import { attachLoad, loadOnlyReport } from '../load/combine.js'
import { runLoadHalf } from '../load/run-half.js'
import type { LoadOutcome } from '../load/run-load.js'
import { launchesAny, LoadWhileUp } from '../launch/load-while-up.js'
import { holdsOneAtATime } from '../launch/side-holder.js'
import { launchedLoadFor, runLaunchedLoad, type LaunchedLoadOptions } from '../launch/launched-load.js'
import { trafficReplayFor } from '../replay/run-traffic.js'
import { fidelityRunFor } from '../fidelity/run-fidelity.js'

export interface GivenSide {
  /** The side's HELM output directory (a suite or output path). */
  path: string
  source: 'archived' | 'artifact' | 'given'
}

export interface GateSettings {
  config: GateConfig
  /** Output folder: `<side>/` (HELM output), `logs/`, manifest.json. Reports are the adapter's. */
  outDir: string
  /** The sides this invocation produces (default both); mode baseline makes only the baseline. */
  sides?: Side[]
  /** Sides taken as they are instead of run: an archived baseline, merged shards. */
  given?: Partial<Record<Side, GivenSide>>
  /** The gated runs to execute (a shard's share); all of config.runs by default. */
  runs?: GatedRun[]
  /** false: run and record only (a shard, an archive); the report then says whether the runs completed. */
  compare?: boolean
  selfCheck?: boolean
  /** One side after the other (overrides the gate file's schedule). */
  sequential?: boolean
  /** The commit `checkout: base` launches and `fingerprint_paths` are read from. */
  baseRef?: string | null
  readinessTimeoutMs?: number
  /**
   * Run the load half (docs/load.md) after the quality half: the adapter decides whether (the gate
   * file's `load:`, `--only`, the action's `load` input). Only with a comparison (`compare` not false).
   */
  load?: LoadHalf | null
  examples?: number
  /** Receives every changed answer per comparison, for report.html. */
  changedAnswers?: Map<string, ChangedExample[]>
  /** Errors found before the pipeline (an unusable archive under require-archived, incomplete shards). */
  priorErrors?: GateError[]
  /** For the manifest: who ran it and where the gate file and the baseline came from. */
  mode: string
  configSource?: string
  baselineOrigin?: BaselineOrigin | null
  shard?: { index: number; count: number } | null
  event?: Manifest['event']
  env?: NodeJS.ProcessEnv
  /** Where a relative helm.command is resolved. */
  cwd?: string
  /** Every helm-run output line, prefixed with its side, as it comes (both sides interleaved). */
  log?: (line: string) => void
  /** Short progress lines. */
  progress?: (line: string) => void
  /**
   * Whether each error found by the runner is also announced through `progress` as it happens
   * (the action's job log). The CLI says false: its summary lists the errors, once.
   */
  announceErrors?: boolean
  /**
   * Called once the sides have run (launched servers stopped), before the comparison, with each
   * side's complete log file: the action shows each in a job-log group of its own.
   */
  sidesDone?: (logs: SideLog[]) => Promise<void>
}

/**
 * How the load half runs. Where it is measured is runGate's: a gate that launches its servers is
 * measured while they are up (inside runSides); when the quality half did not leave both up (an
 * archived baseline, shards that ran in other jobs) both are launched again for the load half
 * alone; servers that are always up are measured after the quality half.
 */
export interface LoadHalf {
  /** Runs the load half under a heading of its own (the action's job-log group). */
  section?: <T>(run: () => Promise<T>) => Promise<T>
  /** Called before the servers are launched again for the load half alone: the action's fork rule. */
  beforeRelaunch?: () => void
}

/** A log file one side wrote while it ran: helm-run's output, or a launched server's. */
export interface SideLog {
  title: string
  /** Put before every line when the log is shown, e.g. `[candidate]`. */
  prefix: string
  file: string
}

export interface GateResult {
  report: Report
  manifest: Manifest
  /** Each side's HELM output directory (absolute), run here or given. */
  paths: Record<Side, string>
}

export async function runGate(settings: GateSettings): Promise<GateResult> {
  const { config } = settings
  const started = new Date()
  const outDir = path.resolve(settings.cwd ?? process.cwd(), settings.outDir)
  const wanted = settings.sides ?? [...SIDES]
  const given = settings.given ?? {}
  const toRun = wanted.filter(side => !given[side])
  const errors: GateError[] = [...(settings.priorErrors ?? [])]
  await mkdir(outDir, { recursive: true })

  // The performance half runs after the quality half, never at the same time (docs/load.md);
  // launched servers are gone after the quality half, so their load half runs while they are up.
  const load = settings.compare === false ? null : (settings.load ?? null)
  // Launched sides up one at a time are swapped between load blocks after the quality half
  // (src/launch/side-holder.ts): measuring each while it is up for helm-run would not interleave.
  const launchedLoad =
    load && launchesAny(config) && !holdsOneAtATime(config, settings.sequential) && SIDES.every(side => toRun.includes(side))
      ? new LoadWhileUp(config, { env: settings.env ?? process.env, progress: settings.progress ?? (() => {}) })
      : null
  // The traffic set is replayed on each side while it is up, before the load half (src/traffic/).
  const traffic = trafficReplayFor(config, settings.compare !== false, {
    outDir,
    env: settings.env ?? process.env,
    progress: settings.progress ?? (() => {})
  })
  // Token-level fidelity: each side's pass while it is up, after the traffic replay (src/fidelity/).
  const fidelity = fidelityRunFor(config, settings.compare !== false, {
    env: settings.env ?? process.env,
    progress: settings.progress ?? (() => {})
  })
  const whileUp =
    traffic || launchedLoad || fidelity
      ? async (up: Side[], outputs: Partial<Record<Side, string>>): Promise<void> => {
          await traffic?.hold(up)
          await fidelity?.hold(up, outputs)
          await launchedLoad?.hold(up, outputs)
        }
      : undefined
  let outcome: RunOutcome | null = null
  if (toRun.length > 0) {
    // Refusals before anything runs (HELM version, same deployment, missing key, an output folder
    // in use) are thrown: there is nothing to record or compare, and stale files must not be.
    outcome = await runSides(config, {
      outDir,
      sides: toRun,
      runs: settings.runs,
      selfCheck: settings.selfCheck,
      sequential: settings.sequential,
      baseRef: settings.baseRef,
      readinessTimeoutMs: settings.readinessTimeoutMs,
      // Only the command line can change it (--ready-timeout); the action has no such input.
      readinessTimeoutHint: settings.mode.startsWith('cli') ? undefined : null,
      whileUp,
      log: settings.log,
      progress: settings.progress,
      env: settings.env,
      cwd: settings.cwd
    })
    errors.push(...outcome.errors)
    await settings.sidesDone?.(sideLogs(outcome, outDir))
  }
  await traffic?.replayAlwaysUp()

  if (settings.announceErrors !== false) {
    for (const error of errors.slice(settings.priorErrors?.length ?? 0)) settings.progress?.(`helm-gate: ${error.describe()}`)
  }

  const sides: Partial<Record<Side, SideRecord>> = { ...outcome?.records }
  for (const side of wanted) {
    const taken = given[side]
    if (taken) sides[side] = { source: taken.source, output_path: manifestPath(outDir, taken.path), complete: true }
  }
  const complete = wanted.every(side => sides[side]?.complete === true) && errors.length === 0
  const manifest: Manifest = {
    schema: 'helm-gate-manifest/1',
    tool_version: HELM_GATE_VERSION,
    mode: settings.mode,
    config_source: settings.configSource ?? config.source,
    // No side run (merged shards): the same fingerprint runSides records, fingerprint_paths included.
    fingerprint:
      outcome?.fingerprint ?? (await gateFingerprint(config, settings.cwd ?? process.cwd(), settings.baseRef ?? null, settings.env)),
    helm_version: outcome?.helmVersion ?? config.helm?.version ?? null,
    entries: [...new Set((settings.runs ?? config.runs).map(run => run.entry))],
    self_check: Boolean(settings.selfCheck),
    concurrent: (outcome?.schedule ?? 'concurrent') === 'concurrent',
    schedule: outcome?.schedule ?? 'concurrent',
    launch: outcome?.launch ?? null,
    started_at: started.toISOString(),
    ended_at: new Date().toISOString(),
    sides,
    complete,
    baseline_origin: settings.baselineOrigin ?? null,
    shard: settings.shard ?? null,
    event: settings.event ?? null
  }
  await writeManifest(outDir, manifest)

  const sidePath = (side: Side): string => given[side]?.path ?? outcome?.paths[side] ?? path.join(outDir, side)
  const paths = { baseline: sidePath('baseline'), candidate: sidePath('candidate') }
  await fidelity?.holdAlwaysUp(paths)
  if (settings.compare === false) return { report: runReport(wanted, complete, errors, config.statistics), manifest, paths }
  // One cause, one error: a side that did not complete has already said why; reading its output
  // would only add symptoms (and a healthy side that never started would look empty).
  const quality =
    (outcome?.errors.length ?? 0) > 0
      ? sidesFailedReport(errors, config.statistics, paths.baseline, paths.candidate)
      : await compareOutputs(paths.baseline, paths.candidate, config, {
          priorErrors: errors,
          examples: settings.examples,
          changedAnswers: settings.changedAnswers
        })
  const replayed = traffic ? traffic.attach(quality, settings.changedAnswers, settings.examples) : quality
  const report = fidelity ? fidelity.attach(replayed) : replayed
  report.notes.push(...(outcome?.notes ?? []))
  attachIdentity(report, manifest)
  if (!load) return { report, manifest, paths }
  const joined = await loadHalf(settings, load, report, outDir, paths.baseline, launchedLoad)
  // The load half's blocks and the periods its sides were up, beside the launch records.
  const timeline = loadTimelineOf(joined.load)
  if (timeline) {
    manifest.load_timeline = timeline
    await writeManifest(outDir, manifest)
  }
  return { report: joined, manifest, paths }
}

/**
 * The performance half alone (`helm-gate load`, `run --only load`): launched servers are started,
 * load-tested while up and stopped (src/launch/launched-load.ts); servers that are always up are
 * load-tested as they are. The report says the quality half did not run.
 */
export async function runLoadOnlyGate(config: GateConfig, options: LaunchedLoadOptions): Promise<Report> {
  const measured = launchedLoadFor(config, options)
  const outcome = await runLoadHalf(config, options.outDir, {
    env: options.env,
    progress: options.progress,
    gateSetOutput: null,
    measured
  })
  return loadOnlyReport(config, outcome.report)
}

/** The load half joined to the quality half's report: measured already, or measured now. */
async function loadHalf(
  settings: GateSettings,
  load: LoadHalf,
  report: Report,
  outDir: string,
  gateSetOutput: string,
  launched: LoadWhileUp | null
): Promise<Report> {
  const { config } = settings
  const env = settings.env ?? process.env
  const progress = settings.progress ?? (() => {})
  // A launched gate whose quality half did not leave both servers up: launch them for the load half alone.
  const relaunch = !launched && launchesAny(config)
  if (relaunch) load.beforeRelaunch?.()
  const run = async (): Promise<Report> => {
    if (!launched) progress('helm-gate: quality half done; the load half starts (docs/load.md)')
    if (relaunch) {
      progress(
        holdsOneAtATime(config, settings.sequential)
          ? 'helm-gate: the launched servers are up one at a time (sequential schedule): the load half swaps them between blocks A B B A'
          : 'helm-gate: the servers the gate file launches are not up after the quality half: launching both for the load half'
      )
    }
    const measured: (() => Promise<LoadOutcome>) | undefined = launched
      ? () => launched.result()
      : relaunch
        ? () =>
            runLaunchedLoad(config, {
              // Server logs append to the output folder's logs/<side>-server.log, after the quality half's.
              outDir,
              cwd: settings.cwd ?? process.cwd(),
              env,
              progress,
              baseRef: settings.baseRef ?? null,
              sequential: settings.sequential
            })
        : undefined
    const loaded = await runLoadHalf(config, outDir, { env, progress, gateSetOutput, measured })
    return attachLoad(report, loaded.report)
  }
  return load.section ? load.section(run) : run()
}

function sideLogs(outcome: RunOutcome, outDir: string): SideLog[] {
  const logs: SideLog[] = []
  for (const side of SIDES) {
    const ran = outcome.sides[side]
    if (ran) logs.push({ title: `${side} helm-run output`, prefix: `[${side}]`, file: ran.logFile })
  }
  for (const [side, record] of Object.entries(outcome.launch?.sides ?? {})) {
    if (record) logs.push({ title: `${side} server output`, prefix: `[${side} server]`, file: path.resolve(outDir, record.log_file) })
  }
  return logs
}
