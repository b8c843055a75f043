/**
 * Guards that read scenario_state.json. Each failure is an error, never a pass:
 * - a cached answer may be another deployment's answer (HELM's cache is keyed by host org and
 *   model name, not by server: docs/helm.md "The request cache");
 * - a different prompt for the same instance means the comparison measures configuration;
 * - a failed request is not an answer of the model.
 */
import type { RequestStateSummary } from '../helm/types.js'
import type { IssueLog } from './issues.js'
import type { RunData } from './run-data.js'

export function requestKey(s: Pick<RequestStateSummary, 'instanceId' | 'trainTrialIndex' | 'perturbation' | 'referenceIndex'>): string {
  const p = s.perturbation ? `${s.perturbation.name}#${s.perturbation.seed ?? ''}` : ''
  return `${s.instanceId}\u0000${s.trainTrialIndex}\u0000${p}\u0000${s.referenceIndex ?? ''}`
}

/** Returns false when the run pair must not be compared. */
export function checkRequestStates(run: string, b: RunData, c: RunData, log: IssueLog): boolean {
  let ok = true
  for (const [side, data] of [
    ['baseline', b],
    ['candidate', c]
  ] as const) {
    if (data.requestStates === null) {
      log.error(
        'guard.no_scenario_state',
        `run ${run}: the ${side} side has no scenario_state.json, so cached answers and prompt drift cannot be ruled out`,
        {
          file: data.run.path
        }
      )
      ok = false
      continue
    }
    const cached = data.requestStates.filter(s => s.cached === true)
    if (cached.length > 0) {
      log.error(
        'guard.cached',
        `run ${run}: ${cached.length} ${side} answers were served from HELM's cache, so they may belong to another deployment; run with --disable-cache`,
        {
          file: data.scenarioStateFile ?? data.run.path,
          field: 'result.cached',
          value: `instance ${cached[0].instanceId}`
        }
      )
      ok = false
    }
    const failed = data.requestStates.filter(s => s.success === false)
    if (failed.length > 0) {
      log.error(
        'guard.failed_requests',
        `run ${run}: ${failed.length} ${side} requests failed (${failed[0].error ?? 'no error text'}), so their scores are not the model's answers`,
        {
          file: data.scenarioStateFile ?? data.run.path,
          field: 'result.success',
          value: `instance ${failed[0].instanceId}`
        }
      )
      ok = false
    }
  }
  if (!ok || b.requestStates === null || c.requestStates === null) return false

  // A key can hold several request states: calibrated multiple choice sends an original and a
  // calibration request per reference, language modelling one request per window, and
  // perturbations that differ only in parameters share a name. So each key's prompts are compared
  // as a sorted list: a different prompt anywhere, or a different number of them, is drift.
  const baselinePrompts = promptsByKey(b.requestStates)
  const candidatePrompts = promptsByKey(c.requestStates)
  let drifted = 0
  let first: RequestStateSummary | null = null
  for (const [key, { prompts, state }] of candidatePrompts) {
    const other = baselinePrompts.get(key)
    if (other !== undefined && !samePrompts(other.prompts, prompts)) {
      drifted++
      first ??= state
    }
  }
  if (first) {
    log.error(
      'guard.prompt_drift',
      `run ${run}: ${drifted} instances were rendered to different prompts on the two sides, so the comparison would measure prompt configuration, not the model`,
      {
        file: c.scenarioStateFile ?? c.run.path,
        field: 'request.prompt',
        value: `instance ${first.instanceId}, trial ${first.trainTrialIndex}`
      }
    )
    return false
  }
  return true
}

interface KeyPrompts {
  /** Prompt hashes, sorted once filled. */
  prompts: string[]
  /** The key's first request state, for messages. */
  state: RequestStateSummary
}

function promptsByKey(states: RequestStateSummary[]): Map<string, KeyPrompts> {
  const byKey = new Map<string, KeyPrompts>()
  for (const s of states) {
    const key = requestKey(s)
    const entry = byKey.get(key)
    if (entry) entry.prompts.push(s.promptHash)
    else byKey.set(key, { prompts: [s.promptHash], state: s })
  }
  for (const entry of byKey.values()) entry.prompts.sort()
  return byKey
}

function samePrompts(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((hash, i) => hash === b[i])
}
