/**
 * Reads every action input once into a typed, validated settings object. Pure given a getter
 * (core.getInput in production, a table in tests); the rest of the action never reads inputs.
 */
import { UsageError } from '../errors.js'
import type { InconclusivePolicy } from '../model/publication.js'
import { INPUTS } from './constants.js'

export type Mode = 'gate' | 'baseline' | 'run' | 'compare'
/**
 * reuse: take an archived baseline from the default branch when one matches, else run it;
 * run: always run the baseline next to the candidate;
 * require-archived: an error when no archived baseline matches (never spends time on it).
 */
export type BaselinePolicy = 'reuse' | 'run' | 'require-archived'
export type { InconclusivePolicy }
/**
 * The performance half (docs/load.md). auto: mode gate runs it when the gate file has `load:`,
 * mode compare does not; run: modes gate and compare run it (an error without `load:`); skip: never.
 * Mode run (a shard) and mode baseline never load-test.
 */
export type LoadPolicy = 'auto' | 'run' | 'skip'

export interface ActionSettings {
  /** Gate file path, relative to the working directory. */
  configPath: string
  mode: Mode
  githubToken: string
  /** Post or update the sticky PR comment. */
  comment: boolean
  /** Name of the check run; empty = no check run. */
  checkName: string
  baseline: BaselinePolicy
  /** Name of the archived baseline artifact (mode baseline writes it, the gate looks it up). */
  baselineArtifact: string
  baselineMaxAgeDays: number
  /** 0 = the repository's default retention. */
  retentionDays: number
  inconclusive: InconclusivePolicy
  /** 0-based shard of `config.runs` (mode run). */
  shardIndex: number
  shardCount: number
  workingDirectory: string
  /** Where run directories, logs and reports go; empty = `$RUNNER_TEMP/helm-gate`. */
  outputDir: string
  /** In a pull request, read the gate file as of the base commit. */
  frozenConfig: boolean
  /** Launch deployments (gate file `launch`) on a fork pull request too (docs/launch.md). */
  allowForkLaunch: boolean
  load: LoadPolicy
  /**
   * Mode compare: two existing output folders (HELM or lm-eval, relative to the working
   * directory) compared instead of shard artifacts; both empty = aggregate the shards.
   */
  baselinePath: string
  candidatePath: string
}

export type InputGetter = (name: string) => string

const MODES: readonly Mode[] = ['gate', 'baseline', 'run', 'compare']
const BASELINE_POLICIES: readonly BaselinePolicy[] = ['reuse', 'run', 'require-archived']
const INCONCLUSIVE_POLICIES: readonly InconclusivePolicy[] = ['fail', 'neutral']
const LOAD_POLICIES: readonly LoadPolicy[] = ['auto', 'run', 'skip']
/** GitHub refuses artifact names containing any of these. */
const FORBIDDEN_NAME_CHARACTERS = /[":<>|*?\r\n\\/]/

export function readSettings(get: InputGetter): ActionSettings {
  const read = (name: string): string => (get(name) ?? '').trim()
  const settings: ActionSettings = {
    configPath: read(INPUTS.config) || '.github/helm-gate.yml',
    mode: oneOf(INPUTS.mode, read(INPUTS.mode) || 'gate', MODES),
    githubToken: read(INPUTS.githubToken),
    comment: boolean(INPUTS.comment, read(INPUTS.comment), true),
    checkName: read(INPUTS.checkName),
    baseline: oneOf(INPUTS.baseline, read(INPUTS.baseline) || 'reuse', BASELINE_POLICIES),
    baselineArtifact: read(INPUTS.baselineArtifact) || 'helm-gate-baseline',
    baselineMaxAgeDays: number(INPUTS.baselineMaxAgeDays, read(INPUTS.baselineMaxAgeDays), 30, 0, 400, false),
    retentionDays: number(INPUTS.retentionDays, read(INPUTS.retentionDays), 0, 0, 400, true),
    inconclusive: oneOf(INPUTS.inconclusive, read(INPUTS.inconclusive) || 'fail', INCONCLUSIVE_POLICIES),
    shardIndex: number(INPUTS.shardIndex, read(INPUTS.shardIndex), 0, 0, 255, true),
    shardCount: number(INPUTS.shardCount, read(INPUTS.shardCount), 1, 1, 256, true),
    workingDirectory: read(INPUTS.workingDirectory) || '.',
    outputDir: read(INPUTS.outputDir),
    frozenConfig: boolean(INPUTS.frozenConfig, read(INPUTS.frozenConfig), true),
    allowForkLaunch: boolean(INPUTS.allowForkLaunch, read(INPUTS.allowForkLaunch), false),
    load: oneOf(INPUTS.load, read(INPUTS.load) || 'auto', LOAD_POLICIES),
    baselinePath: read(INPUTS.baselinePath),
    candidatePath: read(INPUTS.candidatePath)
  }
  if (settings.shardIndex >= settings.shardCount) {
    throw new UsageError('input.shard', `input ${INPUTS.shardIndex} must be below ${INPUTS.shardCount} (${settings.shardCount})`, {
      field: INPUTS.shardIndex,
      value: settings.shardIndex
    })
  }
  if (settings.mode !== 'run' && settings.shardCount !== 1) {
    throw new UsageError('input.shard', `input ${INPUTS.shardCount} applies only to mode run`, {
      field: INPUTS.shardCount,
      value: settings.shardCount
    })
  }
  if (FORBIDDEN_NAME_CHARACTERS.test(settings.baselineArtifact)) {
    throw new UsageError(
      'input.artifact_name',
      `input ${INPUTS.baselineArtifact} must not contain any of " : < > | * ? \\ / or line breaks`,
      { field: INPUTS.baselineArtifact, value: settings.baselineArtifact }
    )
  }
  if ((settings.baselinePath === '') !== (settings.candidatePath === '')) {
    const missing = settings.baselinePath === '' ? INPUTS.baselinePath : INPUTS.candidatePath
    throw new UsageError('input.paths', `inputs ${INPUTS.baselinePath} and ${INPUTS.candidatePath} go together: ${missing} is empty`, {
      field: missing
    })
  }
  if (settings.baselinePath !== '' && settings.mode !== 'compare') {
    throw new UsageError('input.paths', `inputs ${INPUTS.baselinePath} and ${INPUTS.candidatePath} apply only to mode compare`, {
      field: INPUTS.baselinePath,
      value: settings.mode
    })
  }
  if ((settings.mode === 'gate' || settings.mode === 'compare') && settings.comment && !settings.githubToken) {
    throw new UsageError('input.token', `input ${INPUTS.githubToken} is empty but ${INPUTS.comment} is true`, {
      field: INPUTS.githubToken
    })
  }
  return settings
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new UsageError('input.choice', `input ${name} must be one of ${allowed.join(', ')}`, {
    field: name,
    value
  })
}

/** Only the YAML 1.2 core booleans, as core.getBooleanInput accepts. */
function boolean(name: string, value: string, fallback: boolean): boolean {
  if (value === '') return fallback
  if (['true', 'True', 'TRUE'].includes(value)) return true
  if (['false', 'False', 'FALSE'].includes(value)) return false
  throw new UsageError('input.boolean', `input ${name} must be true or false`, { field: name, value })
}

function number(name: string, value: string, fallback: number, min: number, max: number, integer: boolean): number {
  if (value === '') return fallback
  const parsed = Number(value)
  const shapeOk = integer ? /^\d+$/.test(value) : /^\d+(\.\d+)?$/.test(value)
  if (!shapeOk || !Number.isFinite(parsed) || parsed < min || parsed > max) {
    throw new UsageError('input.number', `input ${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`, {
      field: name,
      value
    })
  }
  return parsed
}
