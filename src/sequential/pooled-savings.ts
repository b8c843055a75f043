/**
 * What stopping would have saved a sharded gate (docs/method.md "Sequential verdicts", "Shards"):
 * the shards of a matrix run the fixed design at the sequential section's budget, and the
 * aggregating job replays each gated check's confidence sequence over the pooled per-instance
 * values, at the section's looks, in the order a sequential design measures them. It says where
 * the sequence would have stopped, its decision there and the instances and requests the stop
 * would have saved. Information only: the verdict stays the fixed design's, which is what was
 * measured.
 *
 * The replay is the staged gate's own decision, not an approximation of it: the same
 * `runSequentialGate`, bets tuned for the budget, looked at the same looks. A staged run looks at
 * stage k after it has stage k's values, and the sequence's capital at a look depends only on the
 * values before it, so replaying every look over the full run's values in the staged order gives
 * the staged gate's stop, decision and intervals (the pooled-savings test checks it against
 * `runStagedGate` on the same data).
 *
 * Pure: no file is read here; the caller reads the runs (src/runner/staged-runs.ts `readStage`).
 */
import type { StoppingSettings } from '../config/sequential-section.js'
import type { GateConfig, GatedRun } from '../config/types.js'
import { GateError, UsageError } from '../errors.js'
import { isFiniteNumber } from '../stats/math.js'
import { checkLookSchedule, type LookSchedule } from './look-schedule.js'
import { runSequentialGate, sequentialOrder } from './sequential-verdict.js'
import type { StageReading, StoppedLook } from './staged-gate.js'
import { planStages, stageOrder, type StagePlan } from './stages.js'

export interface PooledSavingsInput {
  /**
   * The check's paired differences, each in [-1, 1] (candidate - baseline; baseline - candidate
   * for a metric where lower is better), in the order the sequential design measures them
   * (`replayOrder`), at least the budget's.
   */
  diffs: readonly number[]
  /** The section's looks and budget. */
  schedule: LookSchedule
  /** The tolerated drop, in the metric's units. */
  margin: number
  /** Two-sided error of the sequence (the section's alpha). */
  alpha: number
  /**
   * The frozen set's size N, when the caller knows it: the without-replacement sequence the staged
   * gate uses. Absent: the superpopulation sequence, valid too but another interval.
   */
  population?: number
}

export interface PooledSavings {
  decision: 'pass' | 'fail' | 'inconclusive'
  /** Decided by the sequence (pass or fail) at a look. */
  certain: boolean
  /** The look the sequence would have stopped at (the budget when undecided). */
  stoppedAt: number
  budget: number
  /** Every look up to the stop, with its interval (intersected with the earlier ones). */
  looks: StoppedLook[]
  /** Instances per side the fixed design measured after the stop. */
  instancesSaved: number
  /** What the fixed design spent on both sides: every instance of the budget once. */
  requestsFixed: number
  /**
   * What the staged design would have spent on both sides: each stage up to the stop asks its
   * first instances again (the request cache is off: docs/helm.md "The request cache"), so a
   * stop at the budget spends more than the fixed design.
   */
  requestsStaged: number
}

/**
 * The design a shard of a sequential gate runs: the fixed one, one helm-run at the section's
 * budget, without stages (a shard holds a share of the entries, so it cannot stage them:
 * src/runner/run-sides.ts). Without `sequential:` the config is returned as it is. The shards and
 * the aggregating job both take it, so their fingerprints (which hold the instance budget) match.
 */
export function fixedAtBudget(config: GateConfig): GateConfig {
  const stopping = config.stopping
  if (!stopping) return config
  return { ...config, stopping: null, helm: config.helm && { ...config.helm, maxEvalInstances: stopping.budget } }
}

/** Replays the sequence at every look over the pooled differences and says where it would have stopped. */
export function pooledSavings(input: PooledSavingsInput): PooledSavings {
  const { diffs, margin, alpha, population } = input
  const schedule = checkLookSchedule(input.schedule, population)
  const outcome = runSequentialGate(diffs, schedule, margin, { alpha, population, horizon: schedule.budget, trace: true })
  const stoppedAt = outcome.stoppedAt
  const looksRun = schedule.looks.filter(look => look <= stoppedAt)
  return {
    decision: outcome.verdict,
    certain: outcome.verdict !== 'inconclusive',
    stoppedAt,
    budget: schedule.budget,
    looks: outcome.looks.map(look => ({
      n: look.n,
      low: look.interval?.low ?? -1,
      high: look.interval?.high ?? 1,
      decision: look.decision
    })),
    instancesSaved: schedule.budget - stoppedAt,
    requestsFixed: 2 * schedule.budget,
    requestsStaged: 2 * looksRun.reduce((a, b) => a + b, 0)
  }
}

/** The order the differences are replayed in, and whether it is the one a staged run takes. */
export interface ReplayOrder {
  ids: string[]
  /**
   * true: stage k's instances are the first look_k of the listing, shuffled per stage exactly as
   * `stageOrder` does. false: a seeded uniform order of all the instances, valid for the sequence
   * but not the instances a staged run would have had at the earlier looks.
   */
  staged: boolean
}

/**
 * The order of the fixed run's instances a sequential design would have measured them in.
 * `listing`: the run's unperturbed instance ids in HELM's order. Below N HELM draws the first
 * budget of one seeded permutation and lists them in its order, so the first look_k are the
 * instances stage k would have held (docs/helm.md "Staged runs (sequential verdicts)"), and the
 * order is `stageOrder`'s. At the budget = N HELM lists the data's order, which does not say what
 * an earlier stage would have held: the order is then a seeded permutation (`sequentialOrder`) of
 * the sorted ids. A listing of another size than the budget, or with an id twice, is refused.
 */
export function replayOrder(plan: StagePlan, listing: readonly string[], seed: number): ReplayOrder {
  const { budget } = plan.schedule
  if (listing.length !== budget || new Set(listing).size !== listing.length)
    throw new UsageError(
      'sequential.pool_size',
      `Run entry ${plan.entry}: the pooled runs hold ${new Set(listing).size} distinct instances in ${listing.length}, not the budget's ${budget}.`,
      { field: 'sequential.budget', value: listing.length }
    )
  if (budget < plan.population) {
    const prefixes = plan.stages.map(stage => listing.slice(0, stage.look))
    return { ids: stageOrder(plan, { baseline: prefixes, candidate: prefixes }, seed), staged: true }
  }
  const sorted = [...listing].sort()
  return { ids: sequentialOrder(sorted.length, seed).map(i => sorted[i]), staged: false }
}

/**
 * The check's paired differences in `order`, each in [-1, 1]: candidate - baseline, negated when
 * lower is better. A value missing on either side or outside [0, 1] is refused, naming the
 * instance: the sequence is only valid on bounded values, and a gap is not a zero.
 */
export function pooledDifferences(
  order: readonly string[],
  sides: { baseline: ReadonlyMap<string, number>; candidate: ReadonlyMap<string, number> },
  direction: 'higher' | 'lower',
  field: string
): number[] {
  const valueOf = (side: 'baseline' | 'candidate', id: string): number => {
    const value = sides[side].get(id)
    if (value === undefined || !isFiniteNumber(value) || value < 0 || value > 1)
      throw new UsageError(
        'sequential.pool_value',
        `Instance ${id} has ${value === undefined ? 'no value' : `the value ${value}`} on the ${side}: a replayed sequence needs a value in [0, 1] on both sides.`,
        { field, value: id }
      )
    return value
  }
  return order.map(id => {
    const d = valueOf('candidate', id) - valueOf('baseline', id)
    return direction === 'lower' ? -d : d
  })
}

/** One line for the aggregating report: what stopping would have saved, and in which order it was replayed. */
export function savingsNote(label: string, s: PooledSavings, order: ReplayOrder): string {
  const where = s.certain
    ? s.stoppedAt < s.budget
      ? `would have stopped at n = ${s.stoppedAt} of ${s.budget} (${s.decision}, certain), ${s.instancesSaved} instances per side fewer`
      : `would have decided only at the budget (n = ${s.budget}): ${s.decision}`
    : `would have run to the budget (n = ${s.budget}) undecided`
  const requests = `${s.requestsStaged} instance requests in stages against the ${s.requestsFixed} spent`
  const how = order.staged ? 'in the staged order' : 'in a seeded order (the budget is every instance, so the stages cannot be told)'
  return `Sequential replay of ${label} over the pooled shards ${how}: ${where}; ${requests}. The verdict is the fixed design's.`
}

export interface ShardReplayInput {
  /** The gate file's runs (each check's key is its place: `runs[i]`, as the staged gate keys it). */
  runs: readonly GatedRun[]
  settings: StoppingSettings
  /** The seed of the order: the section's, else statistics.seed. */
  seed: number
  /** The pooled runs' per-instance values, read as a stage is read (src/runner/staged-runs.ts `readStage`). */
  reading: StageReading
  /**
   * Each entry's instance count N when known (a dry run's): the replay then uses the staged gate's
   * without-replacement sequence and, below N, its order. Unknown: the superpopulation sequence in
   * a seeded order.
   */
  populations?: ReadonlyMap<string, number>
}

/**
 * One note per gated check of the pooled shards: what stopping would have saved, or why the
 * check cannot be replayed (a value missing, fewer instances than the budget). A note never
 * changes a verdict, so a check that cannot be replayed is said, not turned into an error.
 */
export function shardReplayNotes(input: ShardReplayInput): string[] {
  const { runs, settings, seed, reading, populations } = input
  return runs.map((run, i) => {
    const key = `runs[${i}]`
    const label = `${run.entry} ${run.metric}`
    try {
      const sides = reading.get(run.entry)
      const values = { baseline: sides?.baseline.values.get(key), candidate: sides?.candidate.values.get(key) }
      if (!sides || !values.baseline || !values.candidate)
        throw new UsageError('sequential.pool_missing', 'the pooled runs hold no values of it', { field: key, value: run.entry })
      const population = populations?.get(run.entry)
      const listing = sides.baseline.ids
      // Without N the listing's order cannot be told from the data's: N is taken as the budget,
      // which makes replayOrder use its seeded permutation (and refuse a pool of another size).
      const n = population ?? settings.budget
      const plan = planStages({ entry: run.entry, evalInstances: n, comparedInstances: n }, settings, { field: 'sequential' })
      const order = replayOrder(plan, listing, seed)
      const diffs = pooledDifferences(order.ids, { baseline: values.baseline, candidate: values.candidate }, run.direction, key)
      const savings = pooledSavings({ diffs, schedule: plan.schedule, margin: run.maxDrop ?? 0, alpha: settings.alpha, population })
      return savingsNote(label, savings, order)
    } catch (error) {
      if (!(error instanceof GateError)) throw error
      return `Sequential replay of ${label} over the pooled shards: not possible (${error.message}). The verdict is the fixed design's.`
    }
  })
}
