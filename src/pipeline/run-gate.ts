/**
 * The pipeline, on one screen: run the sides that are not given, record how they were made,
 * compare, and load-test both deployments while they are up. `helm-gate run` and every action
 * mode go through here; each is a short adapter that says where the sides come from (helm-run, an
 * archived baseline, shard artifacts), whether the load half runs, and where the results go
 * (files, a PR comment, an artifact).
 *
 *   gate file ─► runGate: the run plan ─► the sides held on the schedule with every measurement
 *            (the quality half first: helm-run per side; then traffic, fidelity, the load half)
 *            ─► the measurements on servers always up ─► manifest.json ─► compareOutputs
 *            ─► each measurement joins its part (traffic, fidelity, the load half) ─► report
 *
 * The measurements (src/pipeline/measurements.ts) share one interface (src/model/measurement.ts);
 * where the load half is measured (while launched servers are up, on servers launched again for
 * it alone, or after the quality half) is its own decision (src/launch/load-measurement.ts).
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
import type { SideMeasurement } from '../model/measurement.js'
import { SIDES, type ChangedExample, type Report, type Side } from '../model/report.js'
import { sidesFailedReport } from '../runner/failed-report.js'
import { attachIdentity } from '../runner/engine-identity.js'
import { QualityMeasurement, type RunOutcome } from '../runner/run-sides.js'
import { HELM_GATE_VERSION } from '../version.js'
import { runReport } from '../model/error-report.js'
import { loadOnlyReport } from '../load/combine.js'
import { runLoadHalf } from '../load/run-half.js'
import type { LoadHalf } from '../launch/load-measurement.js'
import { launchedLoadFor, type LaunchedLoadOptions } from '../launch/launched-load.js'
import { makeRunPlan, planSides, type RunPlan } from '../plan/run-plan.js'
import { withHolisticGrid } from '../holistic/grid.js'
import { measurementsFor } from './measurements.js'
import { applyStoppedChecks } from '../runner/staged-quality.js'

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
  /**
   * The gate set's fingerprint when the adapter computed it already (the one an archived baseline
   * or the shards were looked up by): the run plan takes it instead of computing it again.
   */
  fingerprint?: string
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
  await mkdir(outDir, { recursive: true })
  const run = await measureSides(settings, outDir, wanted)
  const manifest = manifestOf(settings, { outDir, wanted, started, run })
  await writeManifest(outDir, manifest)

  const { errors, paths } = run
  if (settings.compare === false) return { report: runReport(wanted, manifest.complete, errors, config.statistics), manifest, paths }
  const report = await measuredReport(settings, run, manifest)
  // The load half's blocks and the periods its sides were up, beside the launch records.
  const timeline = loadTimelineOf(report.load)
  if (timeline) {
    manifest.load_timeline = timeline
    await writeManifest(outDir, manifest)
  }
  return { report, manifest, paths }
}

/** What the sides' run leaves for the manifest and the comparison. */
interface SidesRun {
  plan: RunPlan
  /** Every measurement, the quality half first. */
  measurements: SideMeasurement[]
  /** The quality half's outcome; null when every side is given. */
  outcome: RunOutcome | null
  /** Each side's HELM output directory (absolute), run here or given. */
  paths: Record<Side, string>
  /** The adapter's prior errors, then the runner's. */
  errors: GateError[]
}

/**
 * The run plan, then the sides not given run on the schedule with every measurement held while
 * they are up (each side's log then handed to `sidesDone`), then the measurements on servers
 * always up. Problems of a side become errors of the run, announced unless `announceErrors` is
 * false; only the refusals before anything runs throw.
 */
async function measureSides(settings: GateSettings, outDir: string, wanted: Side[]): Promise<SidesRun> {
  const { config } = settings
  const given = settings.given ?? {}
  const toRun = wanted.filter(side => !given[side])
  const errors: GateError[] = [...(settings.priorErrors ?? [])]
  // Made once, before anything runs (src/plan/run-plan.ts): the fingerprint the manifest records.
  const plan = await makeRunPlan(config, {
    env: settings.env ?? process.env,
    cwd: settings.cwd ?? process.cwd(),
    baseRef: settings.baseRef ?? null,
    sequential: settings.sequential,
    fingerprint: settings.fingerprint
  })

  // Refusals before anything runs (HELM version, same deployment, missing key, an output folder
  // in use) are thrown by the quality half's run: there is nothing to record or compare, and stale
  // files must not be.
  const quality =
    toRun.length > 0
      ? new QualityMeasurement(config, {
          outDir,
          sides: toRun,
          runs: settings.runs,
          selfCheck: settings.selfCheck,
          sequential: settings.sequential,
          plan,
          baseRef: settings.baseRef,
          readinessTimeoutMs: settings.readinessTimeoutMs,
          // Only the command line can change it (--ready-timeout); the action has no such input.
          readinessTimeoutHint: settings.mode.startsWith('cli') ? undefined : null,
          log: settings.log,
          progress: settings.progress,
          env: settings.env,
          cwd: settings.cwd
        })
      : null
  // Every measurement, the quality half first, each run while its sides are up and joining its own
  // part of the report (src/pipeline/measurements.ts).
  const measurements = measurementsFor(config, {
    compare: settings.compare !== false,
    load: settings.load ?? null,
    outDir,
    cwd: settings.cwd ?? process.cwd(),
    env: settings.env ?? process.env,
    progress: settings.progress ?? (() => {}),
    baseRef: settings.baseRef ?? null,
    sequential: settings.sequential,
    toRun,
    plan,
    quality
  })
  let outcome: RunOutcome | null = null
  if (quality) {
    outcome = await quality.run(measurements)
    errors.push(...outcome.errors)
    await settings.sidesDone?.(sideLogs(outcome, outDir))
  }
  const sidePath = (side: Side): string => given[side]?.path ?? outcome?.paths[side] ?? path.join(outDir, side)
  const paths = { baseline: sidePath('baseline'), candidate: sidePath('candidate') }
  // The sides no launch brings up are servers that are always up: measured now.
  for (const measurement of measurements) await measurement.holdAlwaysUp(paths)

  if (settings.announceErrors !== false) {
    for (const error of errors.slice(settings.priorErrors?.length ?? 0)) settings.progress?.(`helm-gate: ${error.describe()}`)
  }
  return { plan, measurements, outcome, paths, errors }
}

/** manifest.json: how each side was made (or where it was taken from) and what the gate set is. */
function manifestOf(
  settings: GateSettings,
  { outDir, wanted, started, run }: { outDir: string; wanted: Side[]; started: Date; run: SidesRun }
): Manifest {
  const { config } = settings
  const { outcome } = run
  const given = settings.given ?? {}
  const sides: Partial<Record<Side, SideRecord>> = { ...outcome?.records }
  for (const side of wanted) {
    const taken = given[side]
    if (taken) sides[side] = { source: taken.source, output_path: manifestPath(outDir, taken.path), complete: true }
  }
  const complete = wanted.every(side => sides[side]?.complete === true) && run.errors.length === 0
  return {
    schema: 'helm-gate-manifest/1',
    tool_version: HELM_GATE_VERSION,
    mode: settings.mode,
    config_source: settings.configSource ?? config.source,
    // The run plan's, fingerprint_paths included, whether or not a side ran here (merged shards).
    fingerprint: run.plan.fingerprint,
    helm_version: outcome?.helmVersion ?? config.helm?.version ?? null,
    entries: [...new Set((settings.runs ?? config.runs).map(gated => gated.entry))],
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
}

/** The comparison of the two sides' outputs, with every measurement's part joined, then the identity and the grid. */
async function measuredReport(settings: GateSettings, run: SidesRun, manifest: Manifest): Promise<Report> {
  const { config } = settings
  const { outcome, errors, paths } = run
  // One cause, one error: a side that did not complete has already said why; reading its output
  // would only add symptoms (and a healthy side that never started would look empty).
  const compared =
    (outcome?.errors.length ?? 0) > 0
      ? sidesFailedReport(errors, config.statistics, paths.baseline, paths.candidate)
      : await compareOutputs(paths.baseline, paths.candidate, config, {
          priorErrors: errors,
          examples: settings.examples,
          changedAnswers: settings.changedAnswers
        })
  // A sequential gate's rows take the confidence sequence's decisions (docs/method.md "Sequential verdicts").
  // With the section and no stage outcome (nothing decided), every gated row is an error.
  let report = config.stopping ? applyStoppedChecks(compared, config, outcome?.stopped ?? []) : compared
  for (const measurement of run.measurements) {
    report = await measurement.attach(report, { paths, changedAnswers: settings.changedAnswers, examples: settings.examples })
  }
  report.notes.push(...(outcome?.notes ?? []))
  attachIdentity(report, manifest)
  // Last, once every measurement has joined its rows: the grid reads them all.
  return withHolisticGrid(report, config)
}

/**
 * The performance half alone (`helm-gate load`, `run --only load`): launched servers are started,
 * load-tested while up and stopped (src/launch/launched-load.ts); servers that are always up are
 * load-tested as they are. The report says the quality half did not run.
 */
export async function runLoadOnlyGate(config: GateConfig, options: LaunchedLoadOptions): Promise<Report> {
  // The plan's sides, made once (no fingerprint: nothing is recorded for the load half alone).
  const plan = options.plan ?? planSides(config, options.env)
  const measured = launchedLoadFor(config, { ...options, plan })
  const outcome = await runLoadHalf(config, options.outDir, {
    env: options.env,
    progress: options.progress,
    gateSetOutput: null,
    endpoints: plan.endpoints,
    measured
  })
  return loadOnlyReport(config, outcome.report)
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
