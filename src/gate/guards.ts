/**
 * Guards that read scenario_state.json. Each failure is an error, never a pass:
 * - a cached answer may be another deployment's answer (HELM's cache is keyed by host org and
 *   model name, not by server: docs/helm.md "The request cache");
 * - a different prompt for the same instance means the comparison measures configuration;
 * - a failed request is not an answer of the model.
 */
import { DECODING_FIELDS, type DecodingField, type RequestDecoding, type RequestStateSummary } from '../helm/types.js'
import { noRequestTimes } from './helm-layout.js'
import { canonicalJson } from './run-identity.js'
import type { IssueLog } from '../model/issue-log.js'
import type { RunData } from './run-data.js'
import { counted } from '../words.js'

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
        `run ${run}: ${counted(cached.length, `${side} answer was`, `${side} answers were`)} served from HELM's cache, so they may belong to another deployment; run with --disable-cache`,
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
        `run ${run}: ${counted(failed.length, `${side} request`, `${side} requests`)} failed (${failed[0].error ?? 'no error text'}), so their scores are not the model's answers`,
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

  if (!checkAnswerKeys(run, b, c, log)) return false

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
  if (!first && !checkDecoding(run, b, c, log)) return false
  if (first) {
    log.error(
      'guard.prompt_drift',
      `run ${run}: ${counted(drifted, 'instance was', 'instances were')} rendered to different prompts on the two sides, so the comparison would measure prompt configuration, not the model`,
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

/**
 * The references of each paired instance (their texts and tags, so which one is correct) must be
 * the same on both sides: an answer key edited between the runs (a data fix, an archived baseline
 * made before it) changes the score of an unchanged answer, and the comparison would report that
 * as the model's change. Checked before the prompts, since a changed multiple-choice option also
 * changes the prompt and this names the cause.
 */
function checkAnswerKeys(run: string, b: RunData, c: RunData, log: IssueLog): boolean {
  const baseline = new Map<string, RequestStateSummary>()
  for (const s of b.requestStates ?? []) if (!baseline.has(requestKey(s))) baseline.set(requestKey(s), s)
  const drifted = new Set<string>()
  let first: [RequestStateSummary, RequestStateSummary] | null = null
  for (const sc of c.requestStates ?? []) {
    const sb = baseline.get(requestKey(sc))
    if (sb === undefined || sameKeys(sb.referenceKeys, sc.referenceKeys)) continue
    drifted.add(sc.instanceId)
    first ??= [sb, sc]
  }
  if (!first) return true
  const [sb, sc] = first
  log.error(
    'guard.answer_key_drift',
    `run ${run}: ${counted(drifted.size, 'instance has', 'instances have')} different references on the two sides (first: instance ${sc.instanceId}, trial ${sc.trainTrialIndex}${sc.perturbation ? `, perturbation ${sc.perturbation.name}` : ''}: ${referenceDifference(sb, sc)}), so a score change there would be the data's, not the model's`,
    {
      file: c.scenarioStateFile ?? c.run.path,
      field: 'instance.references',
      value: `instance ${sc.instanceId}, trial ${sc.trainTrialIndex}`
    }
  )
  return false
}

function sameKeys(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i])
}

/** What differs, in words: the number of references, or the first one whose text or tags changed, and the correct answers. */
function referenceDifference(b: RequestStateSummary, c: RequestStateSummary): string {
  const what =
    b.referenceKeys.length !== c.referenceKeys.length
      ? `${b.referenceKeys.length} references on the baseline, ${c.referenceKeys.length} on the candidate`
      : `reference ${b.referenceKeys.findIndex((key, i) => key !== c.referenceKeys[i])}'s text or tags differ`
  // The excerpts are empty past the text-keep limit; the hashes still decided.
  const correct =
    b.referenceExcerpt !== c.referenceExcerpt && (b.referenceExcerpt !== '' || c.referenceExcerpt !== '')
      ? `; correct answer baseline ${JSON.stringify(b.referenceExcerpt)}, candidate ${JSON.stringify(c.referenceExcerpt)}`
      : ''
  return what + correct
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

/**
 * The two sides must be the same evidence from two deployments. A file reached from both sides
 * (a symlink, a hard link, the same directory given twice) compares a run with itself and would
 * pass any change, so it is an error; an identical scenario_state.json from two runs cannot
 * happen with real request times, so it is at least suspicious.
 */
export function checkSameEvidence(run: string, b: RunData, c: RunData, log: IssueLog): boolean {
  const byIdentity = new Map(b.filesRead.map(f => [f.identity, f]))
  const byReal = new Map(b.filesRead.map(f => [f.real, f]))
  const shared = c.filesRead.flatMap(f => {
    const same = byIdentity.get(f.identity) ?? byReal.get(f.real)
    return same ? [{ baseline: same.path, candidate: f.path, real: f.real }] : []
  })
  const ok = shared.length === 0
  if (!ok) {
    log.error(
      'sides.same_file',
      `run ${run}: the baseline and the candidate read the same file${shared.length > 1 ? ` (${shared.length} files)` : ''}, ${shared[0].real}, so the comparison would compare a run with itself`,
      { file: shared[0].candidate, value: { baseline: shared[0].baseline, candidate: shared[0].candidate } }
    )
  }
  if (ok && b.scenarioStateDigest !== null && b.scenarioStateDigest === c.scenarioStateDigest) {
    // Without request times (HELM 0.2.x as FlexLLMGen writes it) a deterministic model's two runs
    // are the same bytes; helm_0_2.no_request_times says so, and this warning still shows it.
    const why = noRequestTimes(b)
      ? 'the runs record no request times, so two runs of a deterministic model look like this, and so does one run copied to both sides'
      : 'two real runs always differ in their request times, so this is probably one run copied to both sides'
    log.warn(
      'sides.same_content',
      `run ${run}: scenario_state.json is byte for byte the same on both sides (sha256 ${b.scenarioStateDigest.slice(0, 16)}); ${why}`,
      { file: c.scenarioStateFile ?? c.run.path, field: 'scenario_state.json' }
    )
  }
  return ok
}

/**
 * Checked after the request-state guards, so that a damaged scenario_state.json is reported as
 * what it is first.
 */
export function checkOwnScores(run: string, b: RunData, c: RunData, log: IssueLog): boolean {
  // Scores byte for byte equal while the answers differ: one side's scores were copied over the
  // other's (every real run also records its own request times in per_instance_stats.json).
  if (b.perInstanceStatsDigest === c.perInstanceStatsDigest && b.scenarioStateDigest !== c.scenarioStateDigest) {
    log.error(
      'sides.same_scores',
      `run ${run}: per_instance_stats.json is byte for byte the same on both sides (sha256 ${b.perInstanceStatsDigest.slice(0, 16)}) while the answers in scenario_state.json differ, so the scores are not the candidate's own`,
      { file: c.perInstanceStatsFile, field: 'per_instance_stats.json' }
    )
    return false
  }
  return true
}

/**
 * The decoding settings HELM 0.5.16's adapter puts into every request of a run, by adapter
 * method (adaptation/adapters/*.py); null for methods whose requests are not checked against the
 * adapter spec (they are still compared between the sides).
 */
export function expectedDecoding(adapter: Record<string, unknown>): RequestDecoding | null {
  const method = typeof adapter.method === 'string' ? adapter.method : ''
  const spec = (field: string): unknown => adapter[field]
  if (method.startsWith('multiple_choice_separate') || method === 'multiple_choice_calibrated') {
    return { temperature: 0, max_tokens: 0, stop_sequences: [], num_completions: 1, echo_prompt: true, top_p: 1 }
  }
  if (method === 'language_modeling') {
    return {
      temperature: 0,
      max_tokens: spec('max_tokens'),
      stop_sequences: spec('stop_sequences'),
      num_completions: 1,
      echo_prompt: true,
      top_p: 1
    }
  }
  if (method.startsWith('multiple_choice_joint')) {
    return {
      temperature: spec('temperature'),
      max_tokens: spec('max_tokens'),
      // stop_sequences is [] in HELM 0.5, the adapter's in 0.2.x: compared between the sides only.
      num_completions: 1,
      echo_prompt: false,
      top_p: 1
    }
  }
  if (method === 'generation' || method === 'chat' || method === 'binary_ranking') {
    return {
      temperature: spec('temperature'),
      max_tokens: spec('max_tokens'),
      stop_sequences: spec('stop_sequences'),
      num_completions: spec('num_outputs'),
      echo_prompt: false,
      top_p: 1
    }
  }
  return null
}

/**
 * Requests are compared field by field, between the sides and against the adapter spec: a
 * client, plugin or hand edit that sends another temperature or token budget changes the
 * answers while run_spec.json still looks identical.
 */
function checkDecoding(run: string, b: RunData, c: RunData, log: IssueLog): boolean {
  let ok = true
  for (const [side, data] of [
    ['baseline', b],
    ['candidate', c]
  ] as const) {
    const expected = expectedDecoding(data.run.runSpec.adapter_spec ?? {})
    if (!expected || data.requestStates === null) continue
    for (const state of data.requestStates) {
      const field = DECODING_FIELDS.find(
        f => expected[f] !== undefined && state.decoding[f] !== undefined && canonicalJson(expected[f]) !== canonicalJson(state.decoding[f])
      )
      if (!field) continue
      const count = data.requestStates.filter(
        s => s.decoding[field] !== undefined && canonicalJson(s.decoding[field]) !== canonicalJson(expected[field])
      ).length
      log.error(
        'guard.decoding_drift',
        `run ${run}: ${counted(count, `${side} request was`, `${side} requests were`)} sent with ${field} ${canonicalJson(state.decoding[field])} while the adapter spec says ${canonicalJson(expected[field])}, so the answers were decoded differently from what the run claims`,
        {
          file: data.scenarioStateFile ?? data.run.path,
          field: `request.${field}`,
          value: { adapter_spec: expected[field], request: state.decoding[field], instance: state.instanceId }
        }
      )
      ok = false
      break
    }
  }
  if (!ok || b.requestStates === null || c.requestStates === null) return ok
  const baseline = decodingByKey(b.requestStates)
  for (const [key, entry] of decodingByKey(c.requestStates)) {
    const other = baseline.get(key)
    if (!other) continue
    const diff = differingField(other.decodings, entry.decodings)
    if (diff === null) continue
    log.error(
      'guard.decoding_drift',
      `run ${run}: the two sides sent instance ${entry.state.instanceId} with different ${diff.field}, so the comparison would measure decoding settings, not the model`,
      {
        file: c.scenarioStateFile ?? c.run.path,
        field: `request.${diff.field}`,
        value: { baseline: diff.baseline, candidate: diff.candidate }
      }
    )
    return false
  }
  return true
}

interface KeyDecodings {
  decodings: RequestDecoding[]
  state: RequestStateSummary
}

function decodingByKey(states: RequestStateSummary[]): Map<string, KeyDecodings> {
  const byKey = new Map<string, KeyDecodings>()
  for (const s of states) {
    const key = requestKey(s)
    const entry = byKey.get(key)
    if (entry) entry.decodings.push(s.decoding)
    else byKey.set(key, { decodings: [s.decoding], state: s })
  }
  return byKey
}

/** The first decoding field whose values differ between the two lists, with a value from each side. */
function differingField(
  a: RequestDecoding[],
  b: RequestDecoding[]
): { field: DecodingField; baseline: unknown; candidate: unknown } | null {
  for (const field of DECODING_FIELDS) {
    const left = a.map(d => canonicalJson(d[field] ?? null)).sort()
    const right = b.map(d => canonicalJson(d[field] ?? null)).sort()
    const i = left.findIndex((v, k) => v !== right[k])
    if (i < 0 && left.length === right.length) continue
    const at = i < 0 ? left.length : i
    const value = (list: string[]): unknown => (at < list.length ? JSON.parse(list[at]) : null)
    return { field, baseline: value(left), candidate: value(right) }
  }
  return null
}
