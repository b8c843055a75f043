/**
 * The real stage runner of a sequential gate's quality half (src/sequential/staged-gate.ts's
 * `StageRunner`): stage k is helm-run on both sides at once, each with its side plan's arguments
 * for the entries still undecided, `--max-eval-instances` at the look and a suite of its own
 * (`stageArgs`), written below `<outDir>/stages/<side>/` so the side's own output folder holds
 * only what the final comparison reads. The stage's per-instance values are read by the
 * comparison's own reader (the HELM harness: its pairing, opening and split choice), so a stage
 * is read exactly as the report reads the last one. Any failure (helm-run exit, timeout, stall,
 * a comparison issue) is a StagedRunError: fail closed, never a decision.
 *
 * helm-run runs through runHelmProcess: its own process group, tracked by the cancel registry, so
 * a stop or a signal leaves none running.
 */
import { cp, mkdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { GateConfig, GatedRun } from '../config/types.js'
import { GateError } from '../errors.js'
import { resolveSplit } from '../gate/comparisons.js'
import { helmHarness } from '../gate/helm-harness.js'
import { runMatchesEntry } from '../gate/match.js'
import { IssueLog } from '../model/issue-log.js'
import type { Side } from '../model/report.js'
import type { StageReading, StageSideValues, StageRunner } from '../sequential/staged-gate.js'
import { stageArgs, StagedRunError, type HelmStage } from '../sequential/stages.js'
import { runHelmProcess, type HelmProcessResult } from './helm-process.js'
import { uniqueEntries, type SidePlan } from './side-plan.js'

export interface StagedRunsSettings {
  config: GateConfig
  /** Both sides' plans (src/runner/side-plan.ts), helm-run only. */
  plans: Record<Side, SidePlan>
  /** The stages of the schedule, the same for every entry. */
  stages: readonly HelmStage[]
  env: NodeJS.ProcessEnv
  secrets: string[]
  /** The whole side's limit (helm.timeout_minutes), shared by its stages. */
  timeoutMs: number
  /** Each side's stall limit (src/runner/produce-side.ts), null: no stall watch. */
  stallMs: Record<Side, number | null>
  log?: (line: string) => void
  progress?: (line: string) => void
}

/** The check key of a gated run: its place in the gate file. */
export function checkKey(config: GateConfig, run: GatedRun): string {
  return `runs[${config.runs.indexOf(run)}]`
}

/** Where stage k of a side is written: its own output folder and suite. */
export function stageOutput(plan: SidePlan, stage: HelmStage): { outputPath: string; suiteDir: string } {
  const outputPath = join(dirname(plan.outputPath), 'stages', plan.side)
  return { outputPath, suiteDir: join(outputPath, 'runs', `${plan.suite}-stage${stage.index}`) }
}

/**
 * The side's helm-run arguments for stage `stage` over `entries` (gate-file entries): the run
 * entries cut to those, the output folder the stage's, then `stageArgs`.
 */
export function stagedSideArgs(plan: SidePlan, config: GateConfig, entries: readonly string[], stage: HelmStage): string[] {
  const gateEntries = uniqueEntries(config.runs)
  const full = plan.entries.filter((_, i) => entries.includes(gateEntries[i]))
  const args: string[] = []
  for (let i = 0; i < plan.args.length; i++) {
    const arg = plan.args[i]
    if (arg === '--run-entries') {
      args.push(arg, ...full)
      while (i + 1 < plan.args.length && !plan.args[i + 1].startsWith('--')) i++
    } else if (arg === '--output-path' && i + 1 < plan.args.length) {
      args.push(arg, stageOutput(plan, stage).outputPath)
      i++
    } else args.push(arg)
  }
  return stageArgs(args, stage)
}

/** The StageRunner over real helm-run. `results` collects each side's helm-run results, stage by stage. */
export function helmStageRunner(settings: StagedRunsSettings, results: Record<Side, HelmProcessResult[]>): StageRunner {
  const { config, plans, stages } = settings
  const started = Date.now()
  return async (index, entries) => {
    const stage = stages[index - 1]
    settings.progress?.(`helm-gate: sequential stage ${index}/${stages.length}: ${entries.length} entries at n = ${stage.look}`)
    const sides = ['baseline', 'candidate'] as const
    const ran = await Promise.all(
      sides.map(side =>
        runHelmProcess({
          side: side,
          command: plans[side].command,
          args: stagedSideArgs(plans[side], config, entries, stage),
          env: settings.env,
          logFile: plans[side].logFile,
          // The stages share the side's one limit: a later stage gets what the earlier left.
          timeoutMs: Math.max(settings.timeoutMs - (Date.now() - started), 1),
          expectedRuns: entries.length,
          log: settings.log,
          progress: settings.progress,
          secrets: settings.secrets,
          stallMs: settings.stallMs[side]
        })
      )
    )
    sides.forEach((side, i) => {
      results[side].push(ran[i])
      const result = ran[i]
      if (result.spawnError || result.timedOut || result.stalled || result.exitCode !== 0 || result.failedRuns.length > 0)
        throw new StagedRunError(
          'sequential.stage_failed',
          `Stage ${index} (n = ${stage.look}): helm-run on the ${side} ${result.spawnError ? `could not start: ${result.spawnError}` : result.timedOut ? 'timed out' : result.stalled ? 'stalled' : `exited with ${result.exitCode ?? result.signal}`}.`,
          { file: plans[side].logFile }
        )
    })
    return readStage(config, entries, {
      baseline: stageOutput(plans.baseline, stage).suiteDir,
      candidate: stageOutput(plans.candidate, stage).suiteDir
    })
  }
}

/**
 * A stage's per-instance values of every gated check of `entries`, read as the comparison reads
 * them (the HELM harness's pairing, opening and split choice); an issue it logs is a refusal.
 */
export async function readStage(config: GateConfig, entries: readonly string[], dirs: Record<Side, string>): Promise<StageReading> {
  const runs = config.runs.filter(run => entries.includes(run.entry))
  const log = new IssueLog()
  const out = new Map<string, { baseline: StageSideValues; candidate: StageSideValues }>()
  try {
    const [baseline, candidate] = await Promise.all([helmHarness.read(dirs.baseline), helmHarness.read(dirs.candidate)])
    for (const unit of await helmHarness.pair(baseline, candidate, { ...config, runs }, null, log)) {
      const opened = await unit.open(log)
      if (!opened) continue
      const split = resolveSplit(unit.name, unit.gated, opened.baseline, opened.candidate, log)
      if (split === undefined) continue
      const key = checkKey(config, unit.gated)
      const entry = out.get(unit.gated.entry) ?? { baseline: emptySide(), candidate: emptySide() }
      for (const side of ['baseline', 'candidate'] as const) {
        const clean = opened[side].values(unit.gated.metric, split).filter(v => v.perturbation === null && v.trainTrialIndex === 0)
        const values = new Map<string, number>()
        for (const v of clean) if (v.value !== null) values.set(v.instanceId, v.value)
        const ids = [...new Set(clean.map(v => v.instanceId))]
        entry[side] = { ids, values: new Map([...entry[side].values, [key, values]]) }
      }
      out.set(unit.gated.entry, entry)
    }
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    log.fromError(error)
  }
  const first = log.errors[0]
  if (first)
    throw new StagedRunError('sequential.stage_unreadable', `A stage's runs cannot be compared: ${first.message}`, {
      file: first.file ?? dirs.baseline,
      value: first.code
    })
  return out
}

function emptySide(): StageSideValues {
  return { ids: [], values: new Map() }
}

/**
 * Each entry's last stage's run directories copied into the side's own suite folder
 * (`<outputPath>/runs/<suite>/`), where the final comparison and the run checks read them.
 */
export async function keepLastStages(
  plan: SidePlan,
  config: GateConfig,
  last: ReadonlyMap<string, number>,
  stages: readonly HelmStage[]
): Promise<void> {
  const target = join(plan.outputPath, 'runs', plan.suite)
  await mkdir(target, { recursive: true })
  const byStage = new Map<number, string[]>()
  for (const [entry, k] of last) byStage.set(k, [...(byStage.get(k) ?? []), entry])
  for (const [k, entries] of byStage) {
    const source = stageOutput(plan, stages[k - 1]).suiteDir
    const side = await helmHarness.read(source)
    for (const run of side.runs) {
      const wanted = config.runs.some(gated => entries.includes(gated.entry) && runMatchesEntry(run, gated))
      if (wanted) await cp(run.path, join(target, basename(run.path)), { recursive: true })
    }
  }
}
