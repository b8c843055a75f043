/**
 * The stop-or-continue loop of a sequential gate's quality half over helm-run stages
 * (docs/method.md "Sequential verdicts", docs/helm.md "Staged runs (sequential verdicts)"): stage
 * k runs every run entry that still has an undecided gated check, the stage's instances are
 * checked and ordered (`stageOrder`), each undecided check's paired differences go through the
 * confidence sequence at the looks so far, and an entry whose every check is decided runs no more
 * stages. Undecided at the budget is inconclusive.
 *
 * Pure: the process running is the caller's (`runStage`), so the loop is tested without helm-run.
 * A stage the caller could not run or read is thrown (a StagedRunError or the caller's own
 * error), never turned into a decision: the caller reports it as an error verdict.
 */
import { isFiniteNumber } from '../stats/math.js'
import { runSequentialGate, type LookDecision } from './sequential-verdict.js'
import { stageOrder, StagedRunError, type StagePlan } from './stages.js'

/** One gated check of a run entry, decided by its own sequence. */
export interface StagedCheck {
  /** Unique among the checks, e.g. the gate file's `runs[0]`. */
  key: string
  entry: string
  metric: string
  /** The tolerated drop, in the metric's units (0 to 1). */
  margin: number
  /** `lower`: a rise is the harm, so the difference taken is baseline - candidate. */
  direction: 'higher' | 'lower'
}

/** What one side's runs of one entry hold after a stage. */
export interface StageSideValues {
  /** The compared split's unperturbed instance ids. */
  ids: readonly string[]
  /** Per check key: each instance's value of the check's metric. */
  values: ReadonlyMap<string, ReadonlyMap<string, number>>
}

/** Per run entry: what each side's runs hold after the stage. */
export type StageReading = ReadonlyMap<string, { baseline: StageSideValues; candidate: StageSideValues }>

/** Runs stage `index` (1 first) on both sides for `entries` and reads what they hold. */
export type StageRunner = (index: number, entries: readonly string[]) => Promise<StageReading>

export interface StagedGateInput {
  /** One plan per run entry (planStages), all with the same looks. */
  plans: readonly StagePlan[]
  checks: readonly StagedCheck[]
  /** Two-sided error of each check's sequence. */
  alpha: number
  /** The seed of the order the instances of each stage are taken in. */
  seed: number
  runStage: StageRunner
}

export interface StoppedLook {
  n: number
  low: number
  high: number
  decision: LookDecision
}

/** A check's sequential outcome: what report.json records per row. */
export interface StoppedCheck {
  key: string
  entry: string
  metric: string
  decision: 'pass' | 'fail' | 'inconclusive'
  /** Decided (pass or fail) by the sequence, at the stop or before the budget. */
  certain: boolean
  stoppedAt: number
  budget: number
  looks: StoppedLook[]
  /**
   * Instance requests spent on both sides over the stages the entry ran: with the cache disabled
   * every stage asks its first instances again (docs/helm.md "The request cache").
   */
  requestsSpent: number
  /** What the fixed design (one run at the budget) spends on both sides. */
  requestsFixed: number
}

export interface StagedGateOutcome {
  checks: StoppedCheck[]
  /** The last stage each entry ran (1 first): its run directories are what the report compares. */
  lastStage: Map<string, number>
}

/** Runs the stages until every check is decided or the budget is spent. */
export async function runStagedGate(input: StagedGateInput): Promise<StagedGateOutcome> {
  const { plans, checks, alpha, seed, runStage } = input
  const stageCount = plans[0]?.stages.length ?? 0
  for (const plan of plans)
    if (plan.stages.length !== stageCount || plan.stages.some((stage, i) => stage.look !== plans[0].stages[i].look))
      throw new StagedRunError('sequential.plans_differ', `Run entry ${plan.entry} has other looks than run entry ${plans[0].entry}.`, {
        field: 'looks',
        value: plan.stages.map(stage => stage.look)
      })
  const byEntry = new Map(plans.map(plan => [plan.entry, plan]))
  for (const check of checks)
    if (!byEntry.has(check.entry))
      throw new StagedRunError('sequential.no_plan', `Check ${check.key} names run entry ${check.entry}, which has no stage plan.`, {
        field: check.key,
        value: check.entry
      })
  const seen = new Map(plans.map(plan => [plan.entry, { baseline: [] as string[][], candidate: [] as string[][] }]))
  const stopped = new Map<string, StoppedCheck>()
  const lastStage = new Map<string, number>()
  for (let k = 1; k <= stageCount; k++) {
    const active = plans.filter(plan => checks.some(check => check.entry === plan.entry && !stopped.has(check.key))).map(p => p.entry)
    if (active.length === 0) break
    const reading = await runStage(k, active)
    for (const entry of active) {
      const plan = byEntry.get(entry) as StagePlan
      const read = reading.get(entry)
      if (!read)
        throw new StagedRunError('sequential.stage_unread', `Stage ${k} of run entry ${entry} gave no values.`, {
          field: `stages[${k - 1}]`
        })
      const sides = seen.get(entry) as { baseline: string[][]; candidate: string[][] }
      sides.baseline.push([...read.baseline.ids])
      sides.candidate.push([...read.candidate.ids])
      lastStage.set(entry, k)
      const order = stageOrder(plan, sides, seed)
      for (const check of checks.filter(c => c.entry === entry && !stopped.has(c.key))) {
        const outcome = decideCheck(check, plan, k, pairedDiffs(check, k, order, read), alpha)
        if (outcome) stopped.set(check.key, outcome)
      }
    }
  }
  return { checks: checks.map(check => stopped.get(check.key) as StoppedCheck), lastStage }
}

/** The check's outcome after stage k, or null to go on to the next stage. */
function decideCheck(check: StagedCheck, plan: StagePlan, k: number, diffs: number[], alpha: number): StoppedCheck | null {
  const looks = plan.stages.slice(0, k).map(stage => stage.look)
  const n = looks[looks.length - 1]
  const atBudget = k === plan.stages.length
  // The looks so far as a schedule that ends here; the bets stay tuned for the real budget, so
  // each earlier look's capital is the one it had then (bets use only the values before them).
  const outcome = runSequentialGate(diffs, { looks, budget: n }, check.margin, {
    alpha,
    population: plan.population,
    horizon: plan.schedule.budget,
    trace: true
  })
  if (outcome.verdict === 'inconclusive' && !atBudget) return null
  const spent = 2 * looks.reduce((a, b) => a + b, 0)
  return {
    key: check.key,
    entry: check.entry,
    metric: check.metric,
    decision: outcome.verdict,
    certain: outcome.verdict !== 'inconclusive',
    stoppedAt: n,
    budget: plan.schedule.budget,
    looks: outcome.looks.map(look => ({
      n: look.n,
      low: look.interval?.low ?? -1,
      high: look.interval?.high ?? 1,
      decision: look.n === n ? outcome.verdict : 'continue'
    })),
    requestsSpent: spent,
    requestsFixed: 2 * plan.schedule.budget
  }
}

/**
 * The check's paired differences in the stage order, each in [-1, 1]: a value outside [0, 1] on
 * either side (a metric that is not 0/1-bounded per instance) or a missing one is refused.
 */
function pairedDiffs(
  check: StagedCheck,
  k: number,
  order: readonly string[],
  read: { baseline: StageSideValues; candidate: StageSideValues }
): number[] {
  const valueOf = (side: 'baseline' | 'candidate', id: string): number => {
    const value = read[side].values.get(check.key)?.get(id)
    if (value === undefined)
      throw new StagedRunError(
        'sequential.value_missing',
        `Stage ${k}: the ${side} has no ${check.metric} value for instance ${id} of run entry ${check.entry}.`,
        { field: `${check.key}.metric`, value: id }
      )
    if (!isFiniteNumber(value) || value < 0 || value > 1)
      throw new StagedRunError(
        'sequential.metric_not_bounded',
        `Stage ${k}: ${check.metric} of instance ${id} on the ${side} is ${value}, outside [0, 1]: a sequential verdict needs a metric bounded in [0, 1] per instance (docs/method.md "Sequential verdicts").`,
        { field: `${check.key}.metric`, value: check.metric }
      )
    return value
  }
  return order.map(id => {
    const d = valueOf('candidate', id) - valueOf('baseline', id)
    return check.direction === 'lower' ? -d : d
  })
}
