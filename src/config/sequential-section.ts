/**
 * The gate file's `sequential:` section (docs/gate-file.md "Sequential verdicts"): the quality
 * half measured in stages (looks) that stop as soon as every gated check is decided by an
 * anytime-valid confidence sequence (docs/method.md "Sequential verdicts").
 *
 *   sequential:
 *     looks: [20, 40, 79]      # or every: 20 with budget: 79
 *     budget: 79               # optional with looks (the last look)
 *     alpha: 0.05              # two-sided error of each check's sequence
 *     seed: 0                  # the order instances are taken in; statistics.seed by default
 *
 * Not to be confused with `schedule: sequential` (one side after the other). In code the section is
 * `StoppingSettings`. What cannot be staged is refused here, naming the field: a check the sequence
 * does not decide (a relative drop, gated perturbations, calibration, an answer-length band), train
 * trials, the measurements that keep no staged design (traffic, fidelity), runner commands, and
 * (by `checkStoppingSchedule`, where the run plan resolves the schedule) sides held one at a time. Looks above an entry's instances are refused at plan and run start,
 * where the counts are known (src/sequential/stages.ts).
 */
import { ConfigError } from '../errors.js'
import type { Fields } from './validate.js'

export interface StoppingSettings {
  /** The looks, strictly increasing, the budget the last. */
  looks: number[]
  budget: number
  /** Two-sided: each side of a check's sequence is wrong, ever, with probability at most alpha / 2. */
  alpha: number
  /** The seed of the order each stage's instances are taken in; null: statistics.seed. */
  seed: number | null
}

const FIELD = 'sequential'
const DEFAULT_ALPHA = 0.05

/** `sequential:`, or null when absent. Errors name `sequential.<key>` and the value. */
export function parseStoppingSection(f: Fields): StoppingSettings | null {
  const found = f.object(FIELD)
  if (!found) return null
  // Typed, so a call to its `fail` (never returns) narrows what follows.
  const section: Fields = found
  section.allow(['looks', 'every', 'budget', 'alpha', 'seed'])
  const list = section.list('looks')
  const every = section.optionalNumber('every', n => Number.isInteger(n) && n >= 1, 'a whole number of instances, at least 1')
  const budget = section.optionalNumber('budget', n => Number.isInteger(n) && n >= 1, 'a whole number of instances, at least 1')
  const alpha = section.number('alpha', DEFAULT_ALPHA, n => n > 0 && n < 1, 'a number strictly between 0 and 1')
  const seed = section.optionalNumber('seed', n => Number.isInteger(n) && n >= 0, 'a whole number, at least 0')
  section.done()
  if (list !== null && every !== null) section.fail('every', `give ${FIELD}.looks or ${FIELD}.every, not both`, every)
  if (list === null && every === null)
    throw new ConfigError('config.missing', `${FIELD} needs looks (a list of instance counts) or every with a budget`, {
      file: f.source,
      field: `${FIELD}.looks`
    })
  let looks: number[]
  if (list !== null) {
    looks = list.map((look, i): number => {
      if (typeof look !== 'number' || !Number.isInteger(look) || look < 1)
        section.fail('looks', `${FIELD}.looks[${i}] must be a whole number of instances, at least 1`, look)
      return look
    })
    if (looks.length === 0) section.fail('looks', `${FIELD}.looks must list at least one look`)
    looks.forEach((look, i) => {
      if (i > 0 && look <= looks[i - 1])
        throw new ConfigError(
          'sequential.looks_not_increasing',
          `the looks must increase: ${FIELD}.looks[${i}] is not above ${looks[i - 1]}`,
          {
            file: f.source,
            field: `${FIELD}.looks[${i}]`,
            value: look
          }
        )
    })
  } else {
    if (budget === null)
      throw new ConfigError('config.missing', `${FIELD}.every needs ${FIELD}.budget (the most instances spent)`, {
        file: f.source,
        field: `${FIELD}.budget`
      })
    looks = []
    for (let n = every as number; n < budget; n += every as number) looks.push(n)
    looks.push(budget)
  }
  const last = budget ?? looks[looks.length - 1]
  if (last < looks[0])
    throw new ConfigError('sequential.budget_below_first_look', `${FIELD}.budget is below the first look (${looks[0]})`, {
      file: f.source,
      field: `${FIELD}.budget`,
      value: last
    })
  const beyond = looks.findIndex(look => look > last)
  if (beyond >= 0)
    throw new ConfigError('sequential.look_beyond_budget', `${FIELD}.looks[${beyond}] is past the budget (${last})`, {
      file: f.source,
      field: `${FIELD}.looks[${beyond}]`,
      value: looks[beyond]
    })
  return { looks: looks[looks.length - 1] === last ? looks : [...looks, last], budget: last, alpha, seed }
}

/**
 * The parts of a gate file a staged quality half has to fit (their shapes only: types.ts imports
 * this file).
 */
export interface StoppingContext {
  source: string
  helm: { numTrainTrials: number } | null
  deployments: { baseline: { kind: string }; candidate: { kind: string } } | null
  runs: ReadonlyArray<{
    maxRelativeDrop: number | null
    perturbations: string
    calibration?: { metric: string } | null
    answerLength?: unknown
  }>
  /** The sections present that are measured on the sides too. */
  present: { traffic: boolean; fidelity: boolean }
}

/**
 * Refuses what the staged quality half cannot measure with `sequential.cannot_stage`, naming the
 * field that asks for it (the load half keeps its block design and is allowed).
 */
export function checkStoppingFits(settings: StoppingSettings | null, context: StoppingContext): void {
  if (!settings) return
  const refuse = (field: string, why: string, value?: unknown): never => {
    throw new ConfigError('sequential.cannot_stage', `the sequential section cannot stage ${why}`, { file: context.source, field, value })
  }
  if (context.present.traffic) refuse('traffic', 'the traffic replay (it replays the whole set once); remove one of the two sections')
  if (context.present.fidelity) refuse('fidelity', 'token-level fidelity (it scores the whole set once); remove one of the two sections')
  for (const side of ['baseline', 'candidate'] as const) {
    const deployment = context.deployments?.[side]
    if (deployment?.kind === 'command') refuse(`deployments.${side}`, 'a runner command (stages are helm-run arguments)', 'command')
  }
  if (context.helm && context.helm.numTrainTrials !== 1)
    refuse(
      'helm.num_train_trials',
      'several train trials per instance (the sequence takes one value per instance)',
      context.helm.numTrainTrials
    )
  context.runs.forEach((run, i) => {
    const at = `runs[${i}]`
    if (run.maxRelativeDrop !== null)
      refuse(
        `${at}.max_relative_drop`,
        "a relative drop (the sequence tests a drop in the metric's units: use max_drop)",
        run.maxRelativeDrop
      )
    if (run.perturbations === 'gate') refuse(`${at}.perturbations`, 'gated perturbations (only the clean instances are staged)', 'gate')
    if (run.calibration) refuse(`${at}.calibration`, 'a calibration check (its verdict is not sequential)', run.calibration.metric)
    if (run.answerLength) refuse(`${at}.answer_length_ratio`, 'an answer-length band (its verdict is not sequential)')
  })
}

/**
 * Refuses sides held one at a time (`schedule: sequential`, the default when a side launches, or
 * `--sequential`): each stage runs both sides at once, so a look pairs what both measured. Called
 * with the run plan's schedule by `plan` and at run start, before anything starts.
 */
export function checkStoppingSchedule(settings: StoppingSettings | null | undefined, source: string, schedule: string): void {
  if (!settings || schedule !== 'sequential') return
  throw new ConfigError(
    'sequential.cannot_stage',
    'the sequential section cannot stage sides held one at a time: each stage runs both sides at once; use schedule: concurrent (and no --sequential)',
    { file: source, field: 'schedule', value: schedule }
  )
}

/** The section as `plan` says it. */
export function describeStopping(settings: StoppingSettings): string {
  return `looks ${settings.looks.join(', ')} (budget ${settings.budget}), alpha ${settings.alpha} two-sided`
}
