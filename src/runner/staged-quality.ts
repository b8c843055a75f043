/**
 * The quality half of a sequential gate (gate file `sequential:`, docs/gate-file.md "Sequential
 * verdicts"): its pre-flight (each entry's instances counted by a dry run, the stages planned, a
 * look above an entry's instances refused before any server starts), the stages on both sides
 * (src/runner/staged-runs.ts under src/sequential/staged-gate.ts), each entry's last stage kept
 * where the comparison reads it, and the rows' verdicts set to the sequence's decisions.
 */
import type { StoppingSettings } from '../config/sequential-section.js'
import type { GateConfig } from '../config/types.js'
import { ConfigError, GateError } from '../errors.js'
import { qualityHeadline, qualityVerdict } from '../gate/compare.js'
import type { Report } from '../model/report.js'
import { runStagedGate, type StoppedCheck } from '../sequential/staged-gate.js'
import { planStages, type StagePlan } from '../sequential/stages.js'
import type { HelmProcessResult } from './helm-process.js'
import { countInstances } from './instance-count.js'
import type { PreparedRun } from './prepare-run.js'
import { stallLimitMs } from './produce-side.js'
import { finishSide, type SideOutcome } from './side-outcome.js'
import type { Side, SidePlan } from './side-plan.js'
import { checkKey, helmStageRunner, keepLastStages } from './staged-runs.js'

// The dry run counts the whole set HELM draws from, not the fixed design's cap: the sequence's
// finite population is every instance the nested subsets are cut from.
const UNCAPPED = '100000000'

/** Each entry's stages, from a dry run's counts; refusals name the gate file and `sequential.*`. */
export async function planStagedQuality(
  config: GateConfig,
  settings: StoppingSettings,
  prepared: PreparedRun,
  install: { helmRun: string; pluginPath: string },
  env: NodeJS.ProcessEnv
): Promise<StagePlan[]> {
  const plan = prepared.plans[0]
  const args = plan.args.map((arg, i) => (plan.args[i - 1] === '--max-eval-instances' ? UNCAPPED : arg))
  const counted = await countInstances({ ...plan, args }, config.runs, { ...install, env })
  if (!counted.ok)
    throw new ConfigError('sequential.unknown_population', `the sequential section needs each entry's instance count: ${counted.problem}`, {
      file: config.source,
      field: 'sequential'
    })
  const plans = new Map<string, StagePlan>()
  for (const count of counted.counts) {
    if (plans.has(count.run.entry)) continue
    const evalInstances = count.counts ? Object.values(count.counts.clean).reduce((a, b) => a + b, 0) : null
    plans.set(
      count.run.entry,
      planStages(
        { entry: count.run.entry, evalInstances, comparedInstances: count.n },
        { looks: settings.looks, budget: settings.budget },
        { file: config.source, field: 'sequential' }
      )
    )
  }
  return [...plans.values()]
}

export interface StagedSidesContext {
  env: NodeJS.ProcessEnv
  secrets: string[]
  log: (line: string) => void
  progress: (line: string) => void
}

/**
 * The stages on both sides, then each side finished as one run of its last stages. A stage that
 * fails or cannot be read is an error of both sides' outcomes (an error verdict); null then.
 */
export async function runStagedSides(
  config: GateConfig,
  settings: StoppingSettings,
  stagePlans: StagePlan[],
  prepared: PreparedRun,
  outcomes: Map<Side, SideOutcome>,
  context: StagedSidesContext
): Promise<StoppedCheck[] | null> {
  const plans = Object.fromEntries(prepared.plans.map(plan => [plan.side, plan])) as Record<Side, SidePlan>
  const results: Record<Side, HelmProcessResult[]> = { baseline: [], candidate: [] }
  const stages = stagePlans[0]?.stages ?? []
  const runStage = helmStageRunner(
    {
      config,
      plans,
      stages,
      env: context.env,
      secrets: context.secrets,
      timeoutMs: prepared.helm.timeoutMinutes * 60_000,
      stallMs: { baseline: stallLimitMs(prepared.deployments.baseline), candidate: stallLimitMs(prepared.deployments.candidate) },
      log: context.log,
      progress: context.progress
    },
    results
  )
  const checks = config.runs.map(run => ({
    key: checkKey(config, run),
    entry: run.entry,
    metric: run.metric,
    margin: run.maxDrop ?? 0,
    direction: run.direction
  }))
  let stopped: StoppedCheck[] | null = null
  let failure: GateError | null = null
  try {
    const outcome = await runStagedGate({
      plans: stagePlans,
      checks,
      alpha: settings.alpha,
      seed: settings.seed ?? config.statistics.seed,
      runStage
    })
    for (const plan of prepared.plans) await keepLastStages(plan, config, outcome.lastStage, stages)
    stopped = outcome.checks
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    failure = error
  }
  for (const plan of prepared.plans) {
    const outcome = outcomes.get(plan.side) as SideOutcome
    if (failure) {
      outcome.errors.push(failure)
      continue
    }
    await finishSide(plan, joined(results[plan.side]), outcome, prepared.runs, prepared.deployments[plan.side])
  }
  return stopped
}

/** A side's stages as one helm-run result: every request counted, from the first start to the last end. */
function joined(results: HelmProcessResult[]): HelmProcessResult {
  const first = results[0]
  const last = results[results.length - 1]
  return {
    ...last,
    startedAt: first.startedAt,
    durationMs: results.reduce((a, r) => a + r.durationMs, 0),
    requests: results.reduce((a, r) => a + r.requests, 0),
    runsStarted: [...new Set(results.flatMap(r => r.runsStarted))],
    failedRuns: [...new Set(results.flatMap(r => r.failedRuns))]
  }
}

/**
 * The sequence's decisions on the report's rows: each gated clean row of a check takes the
 * decision and its `sequential` record, and the quality verdict and headline follow from them.
 */
export function applyStoppedChecks(report: Report, config: GateConfig, checks: readonly StoppedCheck[]): Report {
  for (const check of checks) {
    const run = config.runs[Number(/\d+/.exec(check.key)?.[0])]
    const row = report.comparisons.find(c => c.gated && c.perturbation === null && c.entry === run.entry && c.metric === run.metric)
    if (!row) continue
    row.verdict = check.decision
    row.reason = `${row.reason} The verdict is the confidence sequence's (docs/method.md "Sequential verdicts"), not this interval's.`
    row.sequential = {
      stopped_at: check.stoppedAt,
      budget: check.budget,
      decision: check.decision,
      certain: check.certain,
      looks: check.looks,
      requests_spent: check.requestsSpent,
      requests_fixed: check.requestsFixed
    }
  }
  // Fail closed: in a sequential gate a gated row without the sequence's decision would keep the
  // fixed-n interval at the stop, the peeking the study shows is invalid (a check with no stage
  // outcome, a row no stage decided).
  for (const row of report.comparisons.filter(c => c.gated && !c.sequential)) {
    report.errors.push({
      code: 'sequential.row_undecided',
      message: `${row.run} ${row.metric}: no confidence-sequence decision reached this gated row, so its fixed-n interval cannot stand as a sequential verdict`,
      field: 'sequential'
    })
  }
  const others = [...(report.answer_lengths ?? []), ...(report.calibrations ?? [])]
  report.verdict = qualityVerdict(report.comparisons, report.errors.length, others)
  report.headline = qualityHeadline(report.verdict, report.comparisons, report.errors.length, others)
  return report
}
