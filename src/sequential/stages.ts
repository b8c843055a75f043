/**
 * The stages of a sequential gate's quality half (docs/helm.md "Staged runs (sequential
 * verdicts)"): helm-run once per look, each stage with `--max-eval-instances` at the look, so that
 * each stage's instances are a superset of the stage before and the same on both sides. HELM
 * 0.5.16 draws the evaluation instances as the first n of one permutation seeded with 0, so the
 * sets nest for every n (measured on real runs: that section of docs/helm.md). What the gate cannot take on
 * trust, it checks after each stage (`stageOrder`): the sets nest, have the looked-for size and are
 * the same on both sides; then it gives the order the paired differences are taken in.
 *
 * Pure: no process is started here. The runner plugs it in (not yet).
 */
import { ConfigError, GuardError } from '../errors.js'
import { isInteger } from '../stats/math.js'
import { createRandom } from '../stats/random.js'
import { checkLookSchedule, LookScheduleError, type LookSchedule } from './look-schedule.js'

/** What HELM makes of one run entry, as a dry run counts it (src/runner/instance-count.ts). */
export interface StagePopulation {
  /** The run entry, for messages. */
  entry: string
  /**
   * Evaluation instances over all of the entry's evaluation splits together: what
   * `--max-eval-instances` draws from. null when the count is unknown.
   */
  evalInstances: number | null
  /** Instances of the split the comparison reads (the sequential gate's N). null when unknown. */
  comparedInstances: number | null
}

/** Where a refusal points: the gate file and the field path of the entry's sequential settings. */
export interface StageWhere {
  file?: string
  field?: string
}

/** One stage: helm-run with `--max-eval-instances` at the look. */
export interface HelmStage {
  /** 1 for the first stage. */
  index: number
  /** Instances compared after this stage (the look). */
  look: number
  maxEvalInstances: number
  /** The helm-run arguments this stage adds or replaces (an argument array, never a shell string). */
  args: string[]
}

export interface StagePlan {
  entry: string
  /** The sequential gate's N: instances of the compared split. */
  population: number
  /** The checked schedule, its budget the last look. */
  schedule: LookSchedule
  stages: HelmStage[]
}

/** A sequential schedule that cannot be staged with helm-run: names the file, field and value. */
export class StagePlanError extends ConfigError {}

/** A stage's run directories do not hold the instances the plan asked for: the stages cannot be paired. */
export class StagedRunError extends GuardError {}

/**
 * The stages for one entry: one per look of the checked schedule, at most the instances there
 * are. Refused: a schedule `checkLookSchedule` refuses (not increasing, a budget below the first
 * look or above N), an unknown or empty population, and an entry whose evaluation instances span
 * several splits, where `--max-eval-instances n` gives an unknown number of the compared split.
 */
export function planStages(population: StagePopulation, schedule: LookSchedule, where: StageWhere = {}): StagePlan {
  const field = where.field ?? 'sequential'
  const { evalInstances, comparedInstances, entry } = population
  if (evalInstances === null || comparedInstances === null || !isInteger(comparedInstances) || comparedInstances < 1)
    throw new StagePlanError(
      'sequential.unknown_population',
      `Run entry ${entry} cannot be staged: how many instances it has is not known (a dry run of helm-run counts them).`,
      { file: where.file, field: `${field}.budget`, value: comparedInstances }
    )
  if (evalInstances !== comparedInstances)
    throw new StagePlanError(
      'sequential.split_cannot_stage',
      `Run entry ${entry} cannot be staged: --max-eval-instances draws from all its evaluation splits (${evalInstances} instances) and the comparison reads ${comparedInstances} of them, so a stage's size in the compared split is not known in advance.`,
      { file: where.file, field: `${field}.looks`, value: schedule.looks }
    )
  let checked: LookSchedule
  try {
    checked = checkLookSchedule(schedule, comparedInstances, field)
  } catch (error) {
    // The schedule's own refusal, with the gate file it came from.
    if (error instanceof LookScheduleError && where.file !== undefined)
      throw new LookScheduleError(error.code, error.message, { ...error.location, file: where.file })
    throw error
  }
  const stages = checked.looks.map((look, i) => ({
    index: i + 1,
    look,
    maxEvalInstances: look,
    args: ['--max-eval-instances', String(look)]
  }))
  return { entry, population: comparedInstances, schedule: checked, stages }
}

/**
 * A side's helm-run arguments for one stage: `--max-eval-instances` set to the stage's, and the
 * suite named after the stage, so each stage's run directories are new (HELM would otherwise
 * write over the stage before in the same suite folder). Every other argument is kept in order.
 */
export function stageArgs(args: readonly string[], stage: HelmStage): string[] {
  const out: string[] = []
  let sawMax = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--max-eval-instances' && i + 1 < args.length) {
      if (!sawMax) out.push(...stage.args)
      sawMax = true
      i++
    } else if (arg === '--suite' && i + 1 < args.length) {
      out.push(arg, `${args[i + 1]}-stage${stage.index}`)
      i++
    } else out.push(arg)
  }
  if (!sawMax) out.push(...stage.args)
  return out
}

/** The ids of the compared split's unperturbed instances each stage's runs hold on one side, stage 1 first. */
export type StageIds = ReadonlyArray<readonly string[]>

/**
 * The order the paired differences are taken in, from the ids each stage's runs hold: stage 1's
 * ids, then each later stage's new ids, each stage's own in a seeded random order (the sequence is
 * valid when each next instance is a uniform draw from those not yet measured; HELM lists the
 * last stage in the data's order when it keeps every instance, so its listing is not used).
 * Refused, naming the stage and an id: a stage of another size than its look, a repeated id, a
 * stage that drops an id of the stage before, or sides that hold different ids.
 */
export function stageOrder(plan: StagePlan, sides: { baseline: StageIds; candidate: StageIds }, seed: number): string[] {
  const stages = Math.max(sides.baseline.length, sides.candidate.length)
  if (stages > plan.stages.length)
    throw new StagedRunError(
      'sequential.too_many_stages',
      `Run entry ${plan.entry} has more stages than its plan (${plan.stages.length}).`,
      {
        field: 'stages',
        value: stages
      }
    )
  const order: string[] = []
  const seen = new Set<string>()
  for (let k = 0; k < stages; k++) {
    const stage = plan.stages[k]
    const baseline = checkedStage(plan, stage, 'baseline', sides.baseline[k])
    const candidate = checkedStage(plan, stage, 'candidate', sides.candidate[k])
    const onlyOne = [...baseline].find(id => !candidate.has(id)) ?? [...candidate].find(id => !baseline.has(id))
    if (onlyOne !== undefined)
      throw new StagedRunError(
        'sequential.sides_differ',
        `Stage ${stage.index} of run entry ${plan.entry} holds different instances on the two sides.`,
        { field: `stages[${k}]`, value: onlyOne }
      )
    const dropped = [...seen].find(id => !baseline.has(id))
    if (dropped !== undefined)
      throw new StagedRunError(
        'sequential.stages_not_nested',
        `Stage ${stage.index} of run entry ${plan.entry} does not hold every instance of stage ${stage.index - 1}.`,
        { field: `stages[${k}]`, value: dropped }
      )
    const fresh = [...baseline].filter(id => !seen.has(id)).sort()
    for (const id of shuffled(fresh, seed, stage.index)) {
      order.push(id)
      seen.add(id)
    }
  }
  return order
}

function checkedStage(plan: StagePlan, stage: HelmStage, side: string, ids: readonly string[] | undefined): Set<string> {
  const field = `${side}.stages[${stage.index - 1}]`
  if (ids === undefined)
    throw new StagedRunError('sequential.stage_missing', `Stage ${stage.index} of run entry ${plan.entry} did not run on the ${side}.`, {
      field
    })
  const set = new Set(ids)
  if (set.size !== ids.length) {
    const repeated = ids.find((id, i) => ids.indexOf(id) !== i)
    throw new StagedRunError('sequential.repeated_instance', `Stage ${stage.index} of run entry ${plan.entry} lists an instance twice.`, {
      field,
      value: repeated
    })
  }
  if (set.size !== stage.look)
    throw new StagedRunError(
      'sequential.stage_size',
      `Stage ${stage.index} of run entry ${plan.entry} holds ${set.size} instances, not the ${stage.look} of its look.`,
      { field, value: set.size }
    )
  return set
}

/** Fisher-Yates with the statistics seed, one stream per stage. */
function shuffled(ids: string[], seed: number, stage: number): string[] {
  const random = createRandom(seed, `helm-stage-${stage}`)
  const out = [...ids]
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.below(i + 1)
    const swap = out[i]
    out[i] = out[j]
    out[j] = swap
  }
  return out
}
