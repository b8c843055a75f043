/**
 * The fidelity measurement (docs/fidelity.md): run while both sides are up, it takes the resolved
 * sides, the prompts and the settings, and returns its own part of the report. Sequential on
 * purpose: one request at a time per side keeps the server's batch (and so its numerics) the same
 * for the baseline, its rerun and the candidate.
 *
 * Per instance: the baseline's greedy answer B1 with its top-k; the candidate scored on B1 (teacher
 * forcing where the route allows it, the shared greedy prefix otherwise); the floor, the baseline
 * scored on B1 again (a second pass of itself); the candidate's own greedy answer for its length.
 */
import type { FidelitySettings } from '../config/fidelity.js'
import type { StatisticsSettings } from '../config/types.js'
import { GuardError } from '../errors.js'
import type { FidelityReport } from '../model/fidelity-report.js'
import {
  detectClient,
  FidelityError,
  sharedPrefix,
  type FidelityClient,
  type FidelityPrompt,
  type FidelitySide,
  type ScoredAnswer
} from './fidelity-client.js'
import { decideFidelityCheck, fidelityFigures, worstInstances, type InstanceScores } from './fidelity-stats.js'
import { instanceFidelity, type InstanceFidelity } from './token-metrics.js'

export interface FidelityInput {
  sides: { baseline: FidelitySide; candidate: FidelitySide }
  prompts: FidelityPrompt[]
  settings: FidelitySettings
  statistics: StatisticsSettings
  progress?: (line: string) => void
  /** How a side's client is chosen; the default asks the side what it is (detectClient). */
  clientFor?: (side: FidelitySide, timeoutMs: number) => Promise<FidelityClient>
}

/** How many of the worst instances the report lists. */
const WORST_SHOWN = 5

export async function measureFidelity(input: FidelityInput): Promise<FidelityReport> {
  const { settings } = input
  const prompts = input.prompts.slice(0, settings.instances)
  if (prompts.length === 0) {
    throw new GuardError(
      'fidelity.no_prompts',
      'fidelity: there are no prompts to score (the gate set sent none, and there is no traffic set)',
      {
        field: 'fidelity.instances',
        value: settings.instances
      }
    )
  }
  const timeoutMs = settings.requestTimeoutSeconds * 1000
  const clientFor = input.clientFor ?? detectClient
  const baseline = await clientFor(input.sides.baseline, timeoutMs)
  const candidate = await clientFor(input.sides.candidate, timeoutMs)
  await baseline.checkTopK(prompts[0], settings.topK)
  await candidate.checkTopK(prompts[0], settings.topK)
  const forced = baseline.route !== 'greedy-prefix' && candidate.route !== 'greedy-prefix'
  const seconds = { baseline: 0, candidate: 0 }
  const timed = async <T>(side: 'baseline' | 'candidate', work: () => Promise<T>): Promise<T> => {
    const started = performance.now()
    try {
      return await work()
    } finally {
      seconds[side] += (performance.now() - started) / 1000
    }
  }

  const rows: InstanceScores[] = []
  let empty = 0
  let positions = 0
  let restMass = 0
  for (const [i, prompt] of prompts.entries()) {
    input.progress?.(`helm-gate: fidelity: instance ${i + 1} of ${prompts.length} (${prompt.id})`)
    const b1 = await timed('baseline', () => baseline.generate(prompt, settings.maxAnswerTokens, settings.topK))
    if (b1.length === 0) {
      empty++
      continue
    }
    let cand: InstanceFidelity
    let floor: InstanceFidelity | null = null
    let candidateTokens: number
    let rerunTokens: number | null = null
    if (forced) {
      const scored = await timed('candidate', () => candidate.score(prompt, b1, settings.topK))
      if (scored === null) throw new FidelityError('fidelity.capability_missing', 'fidelity: the candidate could not be teacher-forced')
      cand = instanceFidelity(b1.positions, scored)
      if (settings.baselineReruns === 1) {
        const again = await timed('baseline', () => baseline.score(prompt, b1, settings.topK))
        if (again !== null) floor = instanceFidelity(b1.positions, again)
      }
      const own = await timed('candidate', () => candidate.generate(prompt, settings.maxAnswerTokens, 1))
      candidateTokens = own.length
    } else {
      const c = await timed('candidate', () => candidate.generate(prompt, settings.maxAnswerTokens, settings.topK))
      candidateTokens = c.length
      cand = prefixFidelity(b1, c)
      if (settings.baselineReruns === 1) {
        const b2 = await timed('baseline', () => baseline.generate(prompt, settings.maxAnswerTokens, settings.topK))
        rerunTokens = b2.length
        floor = prefixFidelity(b1, b2)
      }
    }
    positions += cand.positions
    restMass += cand.restMassMean * cand.positions
    rows.push({ id: prompt.id, candidate: cand, floor, baselineTokens: b1.length, candidateTokens, rerunTokens })
  }
  if (rows.length === 0) {
    throw new GuardError(
      'fidelity.no_answers',
      `fidelity: the baseline's answer was empty on all ${prompts.length} prompts: there is nothing to score`,
      {
        field: 'fidelity.instances',
        value: prompts.length
      }
    )
  }
  const notes: string[] = []
  if (!forced) {
    notes.push(
      `Not teacher-forced: ${baseline.route === 'greedy-prefix' ? 'the baseline' : 'the candidate'} cannot score another side's answer, so the figures compare the two greedy answers along their shared prefix, up to the first position where they part.`
    )
  }
  if (empty > 0) notes.push(`${empty} of ${prompts.length} prompts got an empty answer from the baseline and were not scored.`)
  if (settings.baselineReruns === 0) notes.push('No A/A floor (baseline_reruns: 0): the baseline is taken as deterministic.')
  return {
    route: forced ? candidate.route : 'greedy-prefix',
    teacherForced: forced,
    topK: settings.topK,
    instances: rows.length,
    positions,
    restMassMean: positions > 0 ? restMass / positions : 0,
    floorMeasured: settings.baselineReruns === 1,
    figures: fidelityFigures(rows, input.statistics),
    checks: settings.checks.map(check => decideFidelityCheck(check, rows, input.statistics)),
    worst: worstInstances(rows, WORST_SHOWN),
    cost: [
      { side: 'baseline', requests: baseline.requests, seconds: seconds.baseline },
      { side: 'candidate', requests: candidate.requests, seconds: seconds.candidate }
    ],
    notes
  }
}

/** The greedy-prefix comparison of one instance (at least its first position, which both sides always share). */
function prefixFidelity(b: ScoredAnswer, c: ScoredAnswer): InstanceFidelity {
  const shared = sharedPrefix(b, c)
  if (shared.baseline.length === 0) {
    throw new FidelityError(
      'fidelity.empty_answer',
      'fidelity: the candidate gave an empty answer where the baseline did not; nothing can be compared'
    )
  }
  return instanceFidelity(shared.baseline, shared.candidate)
}
