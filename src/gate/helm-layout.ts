/**
 * What the gate can and cannot check when a side is HELM 0.2.x output (docs/helm.md "Version
 * drift"), as FlexLLMGen's benchmark script writes it through HELM 0.2.1's Python API:
 * - a 0.2.x side against a 0.4+ side is version drift (prompts, stats and request states are
 *   built by different code), an error;
 * - guards whose evidence 0.2.x output does not carry are named warnings in the report, never
 *   silently skipped: the cache flag is the writing program's word (FlexLLMGen writes
 *   `cached: false` and keeps no request cache), request times are 0 (no efficiency figures, and
 *   two runs of a deterministic model are byte for byte the same), and the run spec's model is
 *   resolved from the run entry, not the program that answered.
 */
import type { HelmLayout } from '../helm/types.js'
import type { IssueLog } from '../model/issue-log.js'
import type { RunPair } from './match.js'
import type { RunData } from './run-data.js'

const LAYOUT_NAMES: Record<HelmLayout, string> = { '0.2': 'HELM 0.2.x', '0.4+': 'HELM 0.4 or later' }

/** Returns false (after an error) when the two sides were written by different HELM generations. */
export function checkSameLayout(run: string, pair: RunPair, log: IssueLog): boolean {
  const b = pair.baseline.layout ?? '0.4+'
  const c = pair.candidate.layout ?? '0.4+'
  if (b === c) return true
  log.error(
    'guard.helm_version_drift',
    `run ${run}: the baseline is ${LAYOUT_NAMES[b]} output and the candidate ${LAYOUT_NAMES[c]} output; the two build prompts, stats and request states with different code, so the comparison would measure the HELM version, not the model`,
    {
      file: pair.candidate.path,
      field: 'run_spec.json adapter_spec.model_deployment',
      value: { baseline: b === '0.2' ? 'absent (0.2.x)' : 'present', candidate: c === '0.2' ? 'absent (0.2.x)' : 'present' }
    }
  )
  return false
}

/** True when no request state records a request time (FlexLLMGen writes 0 for every request). */
export function noRequestTimes(data: RunData): boolean {
  const states = data.requestStates
  return states !== null && states.length > 0 && states.every(s => s.requestTime === null || s.requestTime === 0)
}

/** Warns, once per run, about each guard that 0.2.x output cannot support. Both sides are 0.2.x. */
export function warnUnsupportedGuards(run: string, b: RunData, c: RunData, log: IssueLog): void {
  if (b.run.layout !== '0.2') return
  const file = c.scenarioStateFile ?? c.run.path
  log.warn(
    'helm_0_2.cache_unverified',
    `run ${run}: HELM 0.2.x output: the cached flag of each answer is whatever the program that wrote the run set (FlexLLMGen's script always writes false and keeps no request cache), so the cache guard rests on that program's word, not on HELM's cache`,
    { file, field: 'result.cached' }
  )
  if (noRequestTimes(b) || noRequestTimes(c)) {
    log.warn(
      'helm_0_2.no_request_times',
      `run ${run}: HELM 0.2.x output without request times (every request_time is 0), so no request-time ratios are computed, and two runs of a deterministic model are byte for byte the same: a copied run cannot be told from a rerun`,
      { file, field: 'result.request_time', value: 0 }
    )
  }
  const model = String(b.run.runSpec.adapter_spec?.['model'] ?? '')
  log.warn(
    'helm_0_2.model_unverified',
    `run ${run}: HELM 0.2.x output names the model its run entry resolves to (${model || 'none'}), not the program or weights that answered (FlexLLMGen writes the entry's model, never its --model), so the report cannot say which deployment produced each side; the command that made it is the identity`,
    { file: b.run.path, field: 'run_spec.json adapter_spec.model', value: model }
  )
}
