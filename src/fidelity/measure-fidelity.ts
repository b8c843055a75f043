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
import { counted } from '../words.js'
import type { FidelitySettings } from '../config/fidelity.js'
import type { StatisticsSettings } from '../config/types.js'
import { GuardError } from '../errors.js'
import type { FidelityReport } from '../model/fidelity-report.js'
import { detectClient } from './detect-fidelity-route.js'
import { FidelityError, type FidelityClient, type FidelityPrompt, type FidelitySide, type ScoredAnswer } from './fidelity-client.js'
import { sharedPrefix } from './fidelity-openai-prefix.js'
import { decideFidelityCheck, fidelityFigures, worstInstances, type InstanceScores } from './fidelity-stats.js'
import type { Side } from '../model/verdict.js'
import { fidelityDirection, type ScoredPosition } from '../holistic/fidelity-direction.js'
import { instanceFidelity, type InstanceFidelity, type PositionDistribution } from './token-metrics.js'

export interface FidelityInput {
  sides: { baseline: FidelitySide; candidate: FidelitySide }
  prompts: FidelityPrompt[]
  settings: FidelitySettings
  statistics: StatisticsSettings
  progress?: (line: string) => void
  /** Where the prompts came from, said in the report's notes (e.g. the traffic set and its file). */
  source?: string
  /**
   * What is teacher-forced: `greedy` (the default) the baseline's own greedy answer; `reference`
   * each prompt's given answer (FidelityPrompt.reference), scored on both sides, so that the
   * figures are over the same tokens another tool scores (bench/fidelity-truth.mjs). Reference
   * mode needs teacher forcing on both sides and has no length ratio (no side chose the answer).
   */
  answers?: 'greedy' | 'reference'
  /** How a side's client is chosen; the default asks the side what it is (detectClient). */
  clientFor?: (side: FidelitySide, timeoutMs: number) => Promise<FidelityClient>
}

/** How many of the worst instances the report lists. */
const WORST_SHOWN = 5

/** Both sides up at once: the baseline's pass, then the candidate's, then the figures. */
export async function measureFidelity(input: FidelityInput): Promise<FidelityReport> {
  const measurement = new FidelityMeasurement(input)
  await measurement.hold(['baseline', 'candidate'])
  return measurement.report()
}

/** What the baseline's pass leaves for the candidate's, per prompt (null: an empty answer, not scored). */
interface BaselinePass {
  answer: ScoredAnswer
  /** The baseline scored again on its own answer (forced), or its second greedy answer (prefix route). */
  floor: { forced: PositionDistribution[] | null; rerun: ScoredAnswer | null }
}

/**
 * The measurement in two passes, so it also runs when the sides are up one after the other (a
 * sequential schedule on one accelerator): `hold` with the sides that are up now, as the traffic
 * replay's hold is called; the baseline must have been up before (or with) the candidate, since
 * the candidate is scored on the baseline's answers.
 */
export class FidelityMeasurement {
  private readonly prompts: FidelityPrompt[]
  private readonly timeoutMs: number
  private baselineClient: FidelityClient | null = null
  private candidateClient: FidelityClient | null = null
  private readonly baselinePass: (BaselinePass | null)[] = []
  private rows: InstanceScores[] | null = null
  /** Per instance, each position as both sides reported it (teacher-forced routes), for the flips' split. */
  private readonly scoredPositions: ScoredPosition[][] = []
  private readonly seconds = { baseline: 0, candidate: 0 }

  constructor(private readonly input: FidelityInput) {
    this.prompts = input.prompts.slice(0, input.settings.instances)
    if (this.prompts.length === 0) {
      throw new GuardError(
        'fidelity.no_prompts',
        'fidelity: there are no prompts to score (the gate set sent none, and there is no traffic set)',
        { field: 'fidelity.instances', value: input.settings.instances }
      )
    }
    this.timeoutMs = input.settings.requestTimeoutSeconds * 1000
    if (input.answers === 'reference') {
      const without = this.prompts.find(p => p.reference === undefined || p.reference.length === 0)
      if (without !== undefined) {
        throw new GuardError('fidelity.no_reference', `fidelity: prompt ${without.id} has no reference answer to teacher-force`, {
          field: 'fidelity.answers',
          value: without.id
        })
      }
    }
  }

  private get reference(): boolean {
    return this.input.answers === 'reference'
  }

  /** The per-instance values behind the figures (after the candidate's pass), for benches that resample them. */
  instances(): readonly InstanceScores[] {
    return this.rows ?? []
  }

  /** The prompt's reference answer as token ids, scored on the baseline (teacher forcing). */
  private async referenceAnswer(client: FidelityClient, prompt: FidelityPrompt, topK: number): Promise<ScoredAnswer> {
    const ref = prompt.reference as string | number[]
    const ids = typeof ref === 'string' ? await client.tokenize(prompt, ref) : ref
    const positions = await client.score(prompt, { positions: [], ids, length: ids.length }, topK)
    if (positions === null) throw this.notForced('baseline')
    return { positions, ids, length: ids.length }
  }

  private notForced(side: Side): FidelityError {
    return new FidelityError(
      'fidelity.capability_missing',
      `fidelity: the ${side} cannot be teacher-forced, so it cannot be scored on a reference answer`,
      { field: `deployments.${side}` }
    )
  }

  /** Runs the pass of each side that is up now and has not run. */
  readonly hold = async (up: Side[]): Promise<void> => {
    if (up.includes('baseline') && this.baselineClient === null) await this.runBaseline()
    if (up.includes('candidate') && this.candidateClient === null) {
      if (this.baselineClient === null) {
        throw new GuardError(
          'fidelity.baseline_first',
          "fidelity: the candidate was up before the baseline, but it is scored on the baseline's answers: bring the baseline up first",
          { field: 'schedule' }
        )
      }
      await this.runCandidate()
    }
  }

  private async timed<T>(side: Side, work: () => Promise<T>): Promise<T> {
    const started = performance.now()
    try {
      return await work()
    } finally {
      this.seconds[side] += (performance.now() - started) / 1000
    }
  }

  /**
   * One line per tenth of the prompts, and the last one, not one per prompt (300 lines for 150
   * prompts before): a CI log stays readable, and the CLI turns them into one updating line on a
   * terminal (src/cli/progress-line.ts).
   */
  private countedProgress(side: Side, index: number): void {
    const total = this.prompts.length
    const done = index + 1
    if (done !== total && Math.floor((done * 10) / total) === Math.floor((index * 10) / total)) return
    this.input.progress?.(`helm-gate: fidelity: ${side}, ${done} of ${counted(total, 'instance')} (${Math.floor((done * 100) / total)}%)`)
  }

  private async runBaseline(): Promise<void> {
    const { settings } = this.input
    const client = await (this.input.clientFor ?? detectClient)(this.input.sides.baseline, this.timeoutMs)
    this.baselineClient = client
    await this.timed('baseline', () => client.checkTopK(this.prompts[0], settings.topK))
    for (const [i, prompt] of this.prompts.entries()) {
      this.countedProgress('baseline', i)
      const answer = await this.timed('baseline', () =>
        this.reference
          ? this.referenceAnswer(client, prompt, settings.topK)
          : client.generate(prompt, settings.maxAnswerTokens, settings.topK)
      )
      if (answer.length === 0) {
        this.baselinePass.push(null)
        continue
      }
      const floor: BaselinePass['floor'] = { forced: null, rerun: null }
      if (settings.baselineReruns === 1) {
        // The A/A floor: the same procedure as the candidate's, on the baseline again.
        floor.forced = await this.timed('baseline', () => client.score(prompt, answer, settings.topK))
        if (floor.forced === null)
          floor.rerun = await this.timed('baseline', () => client.generate(prompt, settings.maxAnswerTokens, settings.topK))
      }
      this.baselinePass.push({ answer, floor })
    }
  }

  private async runCandidate(): Promise<void> {
    const { settings } = this.input
    const client = await (this.input.clientFor ?? detectClient)(this.input.sides.candidate, this.timeoutMs)
    this.candidateClient = client
    await this.timed('candidate', () => client.checkTopK(this.prompts[0], settings.topK))
    const forced = this.forced()
    const rows: InstanceScores[] = []
    for (const [i, prompt] of this.prompts.entries()) {
      const pass = this.baselinePass[i]
      if (pass === null) continue
      this.countedProgress('candidate', i)
      const b1 = pass.answer
      let candidate: InstanceFidelity
      let candidateTokens: number | null
      if (forced) {
        const scored = await this.timed('candidate', () => client.score(prompt, b1, settings.topK))
        if (scored === null) throw this.notForced('candidate')
        candidate = instanceFidelity(b1.positions, scored)
        this.scoredPositions.push(b1.positions.map((b, t) => ({ baseline: b, candidate: scored[t] ?? { top: [] } })))
        // Its own greedy answer, for the length ratio only (none in reference mode: no side chose that answer).
        candidateTokens = this.reference
          ? null
          : (await this.timed('candidate', () => client.generate(prompt, settings.maxAnswerTokens, 1))).length
      } else if (this.reference) {
        throw this.notForced('candidate')
      } else {
        const own = await this.timed('candidate', () => client.generate(prompt, settings.maxAnswerTokens, settings.topK))
        candidateTokens = own.length
        candidate = prefixFidelity(b1, own)
      }
      const floor =
        pass.floor.forced !== null
          ? instanceFidelity(b1.positions, pass.floor.forced)
          : pass.floor.rerun !== null
            ? prefixFidelity(b1, pass.floor.rerun)
            : null
      const rerunTokens = pass.floor.rerun?.length ?? null
      rows.push({ id: prompt.id, candidate, floor, baselineTokens: b1.length, candidateTokens, rerunTokens })
    }
    this.rows = rows
  }

  private forced(): boolean {
    return this.baselineClient?.route !== 'greedy-prefix' && this.candidateClient?.route !== 'greedy-prefix'
  }

  /** The figures and checks; an error when a side never ran or nothing could be scored. */
  report(): FidelityReport {
    const { settings } = this.input
    for (const side of ['baseline', 'candidate'] as const) {
      if ((side === 'baseline' ? this.baselineClient : this.candidateClient) === null) {
        throw new GuardError('fidelity.side_not_up', `fidelity: the ${side} was never up while the gate ran, so nothing was scored on it`, {
          field: `deployments.${side}`
        })
      }
    }
    const rows = this.rows ?? []
    if (rows.length === 0) {
      throw new GuardError(
        'fidelity.no_answers',
        `fidelity: the baseline's answer was empty on all ${this.prompts.length} prompts: there is nothing to score`,
        { field: 'fidelity.instances', value: this.prompts.length }
      )
    }
    const forced = this.forced()
    const positions = rows.reduce((s, r) => s + r.candidate.positions, 0)
    const restMass = rows.reduce((s, r) => s + r.candidate.restMassMean * r.candidate.positions, 0)
    const empty = this.baselinePass.filter(p => p === null).length
    const notes: string[] = []
    if (this.input.source) notes.push(`Prompts: ${this.input.source}, the first ${this.prompts.length}.`)
    if (!forced) {
      notes.push(
        `Not teacher-forced: ${this.baselineClient?.route === 'greedy-prefix' ? 'the baseline' : 'the candidate'} cannot score another side's answer, so the figures compare the two greedy answers along their shared prefix, up to the first position where they part.`
      )
    }
    if (this.reference)
      notes.push("Scored on each prompt's reference answer (teacher-forced on both sides), not on the baseline's greedy answer.")
    if (empty > 0)
      notes.push(`${empty} of ${counted(this.prompts.length, 'prompt')} got an empty answer from the baseline and were not scored.`)
    if (settings.baselineReruns === 0) notes.push('No A/A floor (baseline_reruns: 0): the baseline is taken as deterministic.')
    return {
      route: forced ? (this.candidateClient as FidelityClient).route : 'greedy-prefix',
      teacherForced: forced,
      topK: settings.topK,
      instances: rows.length,
      positions,
      restMassMean: positions > 0 ? restMass / positions : 0,
      floorMeasured: settings.baselineReruns === 1,
      figures: fidelityFigures(rows, this.input.statistics),
      checks: settings.checks.map(check => decideFidelityCheck(check, rows, this.input.statistics)),
      worst: worstInstances(rows, WORST_SHOWN),
      ...(forced && this.scoredPositions.length > 0 ? { direction: fidelityDirection(this.scoredPositions) } : {}),
      cost: [
        { side: 'baseline', requests: this.baselineClient?.requests ?? 0, seconds: this.seconds.baseline },
        { side: 'candidate', requests: this.candidateClient?.requests ?? 0, seconds: this.seconds.candidate }
      ],
      notes
    }
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
