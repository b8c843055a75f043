/**
 * The traffic gate inside the one pipeline (src/pipeline/run-gate.ts): the set is replayed on
 * each side while it is up (B1 and B2 on the baseline, C on the candidate), every request state
 * is written to `<out>/traffic/<replay>/scenario_state.json`, and the judged rows join the quality
 * half's report. It is a measurement (src/model/measurement.ts): a launched side replays while the
 * holder keeps it up (src/launch/side-holder.ts), before the load half; a server that is always up
 * replays after the HELM half.
 *
 * Fail closed: a failed request, a side that was never up, or a replay that could not run makes
 * the report's verdict error; the states of the requests that did run are kept as evidence.
 */
import { counted } from '../words.js'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { GateConfig, StatisticsSettings } from '../config/types.js'
import type { TrafficSettings } from '../config/traffic.js'
import { GateError, showValue } from '../errors.js'
import { qualityHeadline, qualityVerdict } from '../gate/compare.js'
import type { MeasurementContext, SideMeasurement } from '../model/measurement.js'
import type { AnswerLength, Report, Side } from '../model/report.js'
import { answerLengthRow, CHARACTERS_UNIT, TOKENS_UNIT } from '../gate/answer-length.js'
import { masker, secretValues } from '../secrets/mask.js'
import type { MeasurementInputs } from '../plan/measurement-inputs.js'
import { planSides, type PlannedSides } from '../plan/run-plan.js'
import { redactTree } from '../secrets/redact.js'
import { judgeTraffic } from './judge.js'
import { answerOf, replaySide, type ReplayState } from './replay.js'
import type { Answer } from './answer-checks.js'

export type ReplayName = 'baseline-1' | 'baseline-2' | 'candidate'

/**
 * The fields of what every measurement is given that the replay reads. `plan` is optional (a replay
 * made outside runGate, as the unit tests make one): the plan's own function then resolves the
 * sides from the gate file and `env`.
 */
export type TrafficRunOptions = Pick<MeasurementInputs, 'outDir' | 'env' | 'progress'> & Partial<Pick<MeasurementInputs, 'plan'>>

export class TrafficReplay implements SideMeasurement {
  readonly name = 'the traffic replay (the set on each side while it is up)'
  private readonly states = new Map<ReplayName, ReplayState[]>()
  private readonly done = new Set<Side>()
  private readonly errors: GateError[] = []
  /** The deployments' API keys and secret-named variables, masked wherever a replay's text is kept. */
  private readonly mask: (text: string) => string
  private readonly sides: PlannedSides

  constructor(
    private readonly config: GateConfig & { traffic: TrafficSettings },
    private readonly options: TrafficRunOptions
  ) {
    this.sides = options.plan ?? planSides(config, options.env)
    this.mask = masker(secretValues(options.env, this.sides.secrets))
  }

  /** While launched sides are held up: replay each side that is up now and has not replayed. */
  readonly hold = async (up: Side[]): Promise<void> => {
    for (const side of up) await this.replay(side)
  }

  /** After the HELM half: the sides no launch brings up are servers that are always up. */
  async holdAlwaysUp(): Promise<void> {
    for (const side of ['baseline', 'candidate'] as const) {
      if (!this.config.launch?.sides[side]) await this.replay(side)
    }
  }

  /** Judges the replays and adds the traffic rows, errors and notes to the quality half's report. */
  attach(report: Report, context: Partial<MeasurementContext> = {}): Report {
    const { changedAnswers, examples = 3 } = context
    const traffic = this.config.traffic
    for (const side of ['baseline', 'candidate'] as const) {
      if (!this.done.has(side)) {
        this.errors.push(
          new GateError('traffic.side_not_up', `traffic: the ${side} was never up while the gate ran, so the set was not replayed on it`, {
            field: `deployments.${side}`
          })
        )
      }
    }
    const errors = [...report.errors, ...this.errors.map(e => ({ code: e.code, message: e.message, ...where(e) }))]
    const notes = [...report.notes]
    const comparisons = [...report.comparisons]
    const answerLengths = [...(report.answer_lengths ?? [])]
    const warnings = [...report.warnings]
    if (this.errors.length === 0) {
      try {
        const answers = (name: ReplayName): Answer[] => (this.states.get(name) ?? []).map(s => answerOf(s) as Answer)
        const judged = judgeTraffic(
          traffic.instances,
          { b1: answers('baseline-1'), b2: traffic.baselineReruns ? answers('baseline-2') : null, c: answers('candidate') },
          traffic,
          this.config.statistics,
          examples
        )
        comparisons.push(...judged.comparisons)
        notes.push(...judged.notes)
        for (const [id, list] of judged.changed) changedAnswers?.set(id, list)
      } catch (error) {
        if (!(error instanceof GateError)) throw error
        errors.push({ code: error.code, message: error.message, ...where(error) })
      }
      // Reported always; a failure to measure is an error only when its band gates (fail closed).
      try {
        answerLengths.push(
          trafficAnswerLength(this.states.get('baseline-1') ?? [], this.states.get('candidate') ?? [], traffic, this.config.statistics)
        )
      } catch (error) {
        if (!(error instanceof GateError)) throw error
        if (traffic.answerLength) errors.push({ code: error.code, message: error.message, ...where(error) })
        else warnings.push({ code: error.code, message: error.message, ...where(error) })
      }
    }
    // A report that was an error stays one; otherwise the verdict is re-derived with the traffic rows.
    const verdict =
      report.verdict === 'error' ? 'error' : qualityVerdict(comparisons, errors.length, [...answerLengths, ...(report.calibrations ?? [])])
    const headline =
      verdict === report.verdict && comparisons.length === report.comparisons.length
        ? report.headline
        : qualityHeadline(verdict, comparisons, errors.length, [...answerLengths, ...(report.calibrations ?? [])])
    return {
      ...report,
      verdict,
      headline,
      errors,
      warnings,
      comparisons,
      notes,
      ...(answerLengths.length > 0 ? { answer_lengths: answerLengths } : {})
    }
  }

  private async replay(side: Side): Promise<void> {
    if (this.done.has(side)) return
    this.done.add(side)
    const traffic = this.config.traffic
    const endpoint = this.sides.endpoints[side]
    if (!endpoint) return // refused by the gate file's validation
    const names: ReplayName[] =
      side === 'candidate' ? ['candidate'] : traffic.baselineReruns ? ['baseline-1', 'baseline-2'] : ['baseline-1']
    for (const name of names) {
      this.options.progress(`helm-gate: traffic: replaying ${counted(traffic.instances.length, 'request')} on the ${side} (${name})`)
      let states: ReplayState[]
      try {
        states = await replaySide(traffic.instances, endpoint, {
          temperature: traffic.temperature,
          concurrency: traffic.concurrency,
          timeoutMs: traffic.requestTimeoutSeconds * 1000
        })
      } catch (error) {
        this.errors.push(
          new GateError('traffic.replay_failed', `traffic: the replay on the ${side} (${name}) could not run: ${(error as Error).message}`)
        )
        return
      }
      this.states.set(name, states)
      const file = await this.writeEvidence(name, states)
      const failed = states.filter(s => !s.result.success)
      if (failed.length > 0) {
        const first = failed[0]
        this.errors.push(
          new GateError(
            'traffic.request_failed',
            `traffic: ${failed.length} of ${counted(states.length, 'request')} failed on the ${side} (${name}); a failed request is never judged, so nothing passes`,
            { file, field: `instance ${first.instance.id}`, value: this.mask(first.result.error ?? 'failed') }
          )
        )
      }
    }
  }

  /**
   * HELM's shape, one file per replay: credential-like keys hidden, every string through the one
   * redactor, and the API keys masked wherever they appear (a prompt or a server's answer may echo one; the request sends it
   * only in a header, which is not kept).
   */
  private async writeEvidence(name: ReplayName, states: ReplayState[]): Promise<string> {
    const dir = path.join(this.options.outDir, 'traffic', name)
    await mkdir(dir, { recursive: true })
    const file = path.join(dir, 'scenario_state.json')
    await writeFile(file, `${JSON.stringify(redactTree({ request_states: states }, 32, this.mask), null, 1)}\n`)
    return file
  }
}

function where(error: GateError): { file?: string; field?: string; value?: string } {
  const out: { file?: string; field?: string; value?: string } = {}
  if (error.location.file) out.file = error.location.file
  if (error.location.field) out.field = error.location.field
  if (error.location.value !== undefined) out.value = showValue(error.location.value)
  return out
}

/** The traffic replay of a gate that has one and compares (a shard or a baseline-only run replays nothing). */
export function trafficReplayFor(config: GateConfig, compare: boolean, options: TrafficRunOptions): TrafficReplay | null {
  if (!config.traffic || !compare) return null
  return new TrafficReplay(config as GateConfig & { traffic: TrafficSettings }, options)
}

/** The server's own count of an answer's tokens (`usage.completion_tokens`), or null when it sent none. */
function completionTokens(state: ReplayState): number | null {
  const response = state.result.response
  if (response === null || typeof response !== 'object') return null
  const usage = (response as { usage?: unknown }).usage
  const tokens = usage !== null && typeof usage === 'object' ? (usage as { completion_tokens?: unknown }).completion_tokens : undefined
  return typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0 ? tokens : null
}

/**
 * The traffic answer-length row, B1 against C: the servers' `usage.completion_tokens` when every
 * answer on both sides has it, else code points of the answers' text (said in the row's unit).
 */
function trafficAnswerLength(b1: ReplayState[], c: ReplayState[], traffic: TrafficSettings, statistics: StatisticsSettings): AnswerLength {
  // A server that sends 0 for a non-empty answer does not count tokens: use the fallback for both sides.
  const counted = [...b1, ...c].every(s => {
    const t = completionTokens(s)
    return t !== null && (t > 0 || (s.result.completions[0]?.text ?? '') === '')
  })
  const length = (s: ReplayState): number =>
    counted ? (completionTokens(s) as number) : Array.from(s.result.completions[0]?.text ?? '').length
  return answerLengthRow(
    'traffic',
    'traffic',
    counted ? `${TOKENS_UNIT} (the servers' usage.completion_tokens)` : `${CHARACTERS_UNIT.replace('recorded', 'sent by a server')}`,
    b1.map(length),
    c.map(length),
    traffic.answerLength ?? null,
    statistics
  )
}
