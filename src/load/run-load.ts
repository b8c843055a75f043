/**
 * The load half (docs/load.md): probe both deployments, then per level warm the connections and
 * run the blocks A B B A ..., never both sides at once; then the figures, ratios and checks.
 * The I/O edge around the pure parts (workload, metrics, compare).
 */
import { counted } from '../words.js'
import { availableParallelism } from 'node:os'
import type { GateConfig } from '../config/types.js'
import type { LoadSettings } from '../config/load-types.js'
import type { SideSwitchKind } from '../config/launch.js'
import type {
  LoadBlock,
  LoadReport,
  LoadSchedule,
  LoadSide,
  LoadSummary,
  LoadTimeline,
  SwapRecord,
  UpPeriod
} from '../model/load-report.js'
import { GateError } from '../errors.js'
import { planSides, type SideEndpoint } from '../plan/run-plan.js'
import type { Side } from '../model/verdict.js'
import { LOG_RATIO_METHOD } from '../stats/log-ratio.js'
import { connect, streamRequest, type Connection, type StreamResult, type Target } from './stream-client.js'
import { evaluateChecks, reportedRatios, worstVerdict } from './ratio-checks.js'
import { figures, PERCENTILE_METHOD } from './metrics.js'
import { probeSide, type StreamProbe } from './probe.js'
import { abbaOrder } from './abba-order.js'
import { arrivalOffsets } from './arrivals.js'
import { serverTokenizer, sizedSyntheticSource, type SizedPrompts } from './server-tokens.js'
import type { RequestTiming } from './types.js'
import { fileSource, gateSetSource, requestBody, syntheticSource, trafficSource, type WorkloadSource } from './workload.js'

export interface LoadRunOptions {
  env: Record<string, string | undefined>
  /**
   * Each side's endpoint and key from the run plan (src/plan/run-plan.ts); resolved from the gate
   * file and `env` by the plan's own function when not given (the load half run on its own).
   */
  endpoints?: Record<Side, SideEndpoint | null>
  /** Progress lines (one per block). */
  progress?: (line: string) => void
  /** The quality half's HELM output of the baseline, for `prompts: gate-set`. */
  gateSetOutput?: string | null
}

export interface LoadOutcome {
  report: LoadReport
  timings: RequestTiming[]
}

const SIDES: LoadSide[] = ['baseline', 'candidate']

function emptyReport(config: GateConfig, load: LoadSettings): LoadReport {
  const side = (s: LoadSide) => {
    const d = config.deployments?.[s]
    return {
      api: d && d.kind === 'server' ? d.api : 'unknown',
      model: d && d.kind === 'server' ? d.model : 'unknown',
      ignore_eos: null,
      usage: null
    }
  }
  return {
    verdict: 'error',
    headline: '',
    skipped: null,
    mode: load.mode,
    levels: load.levels,
    settings: {
      repetitions: load.repetitions,
      requests_per_block: load.requestsPerLevel === null ? null : Math.ceil(load.requestsPerLevel / load.repetitions),
      seconds_per_block: load.durationSeconds === null ? null : load.durationSeconds / load.repetitions,
      warmup_requests: load.warmupRequests,
      timeout_seconds: load.timeoutSeconds,
      arrival: load.mode === 'rate' ? load.arrival : null,
      confidence: config.statistics.confidence,
      percentile_method: PERCENTILE_METHOD,
      interval_method: LOG_RATIO_METHOD,
      prompts: load.workload.prompts,
      seed: load.seed
    },
    sides: { baseline: side('baseline'), candidate: side('candidate') },
    interleaved: true,
    blocks: [],
    summary: [],
    ratios: [],
    checks: [],
    errors: [],
    warnings: [],
    notes: [],
    timings_file: null
  }
}

function levelName(load: LoadSettings, level: number): string {
  return load.mode === 'concurrency' ? `concurrency ${level}` : `rate ${level}/s`
}

/** One load half in progress: the settings, the report being filled and the two targets (runLoad). */
export interface LoadRun {
  config: GateConfig
  load: LoadSettings
  report: LoadReport
  targets: Record<LoadSide, Target>
  timeoutMs: number
  say: (line: string) => void
  /** performance.now() when the load half started: request send times count from here. */
  origin: number
  /** performance.now() when the load half began (its probes included), for "after how long". */
  began: number
  /** Records an error, making the outcome an error. */
  fail(code: string, message: string, field?: string): LoadOutcome
}

/** The checks before any request (a load section, server deployments on both sides). */
export function beginLoad(config: GateConfig, options: LoadRunOptions): LoadRun | LoadOutcome {
  const load = config.load
  if (!load) throw new Error('runLoad needs a load: section')
  const report = emptyReport(config, load)
  const fail = (code: string, message: string, field?: string): LoadOutcome => {
    report.errors.push({ code, message, ...(field ? { field } : {}) })
    report.verdict = 'error'
    report.headline = `Performance: error: ${message}`
    return { report, timings: [] }
  }
  const deployments = config.deployments
  if (!deployments) return fail('load.no_deployments', 'the load half needs deployments (base_url and model of each side)', 'deployments')
  for (const side of SIDES) {
    if (deployments[side].kind !== 'server') {
      return fail(
        'load.prod_env',
        `the load half needs deployments.${side} as api/base_url/model, not a prod_env reference or a runner command`,
        `deployments.${side}`
      )
    }
  }
  // The plan's endpoints are the targets: both are servers (checked above).
  const endpoints = options.endpoints ?? planSides(config, options.env).endpoints
  const targets = { baseline: endpoints.baseline as Target, candidate: endpoints.candidate as Target }
  const say = options.progress ?? (() => {})
  const now = performance.now()
  return { config, load, report, targets, timeoutMs: load.timeoutSeconds * 1000, say, origin: now, began: now, fail }
}

/** Probes one side (is it there, does it stream) and records what it accepts. */
async function probeLoadSide(run: LoadRun, side: LoadSide): Promise<StreamProbe> {
  const probe = await probeSide(run.targets[side], Math.min(run.timeoutMs, 60_000))
  run.report.sides[side].ignore_eos = probe.ignoreEos
  run.report.sides[side].usage = probe.usage
  return probe
}

/** What the probes mean: an error, a loud skip (load.baseline: optional), or null to go on. */
export function judgeProbes(run: LoadRun, probes: Record<LoadSide, StreamProbe>): LoadOutcome | null {
  const { report, load } = run
  if (!probes.baseline.reachable && probes.candidate.problem === null && load.baseline === 'optional') {
    report.skipped = `the baseline deployment is not reachable (${probes.baseline.problem}); load.baseline is optional, so the load half was SKIPPED and nothing about performance was measured`
    report.verdict = 'pass'
    report.headline = `Performance: SKIPPED: ${report.skipped}`
    report.warnings.push({ code: 'load.skipped', message: report.skipped })
    return { report, timings: [] }
  }
  for (const side of SIDES) {
    const problem = probes[side].problem
    if (problem) {
      const hint = probes[side].reachable ? '' : unreachableHint(run.config, side)
      // Three different fixes, so three codes: start the server, fix its answers, enable streaming.
      const code = !probes[side].reachable ? 'load.unreachable' : probes[side].streaming ? 'load.probe' : 'load.not_streaming'
      return run.fail(code, `${side}: ${problem}${hint}`, `deployments.${side}.base_url`)
    }
  }
  return null
}

/**
 * What to do about a side that does not answer. A launched server was started by helm-gate and
 * has died or stopped listening: its own output says why. A baseline that is not launched may be
 * down because the quality half reused an archived baseline and nobody started it.
 */
function unreachableHint(config: GateConfig, side: LoadSide): string {
  if (config.launch?.sides[side]) return ` (the launched ${side} server is not answering: its output is in logs/${side}-server.log)`
  if (side === 'baseline') {
    return ' (the load half needs the baseline deployment live even when the quality half reuses an archived baseline; set load.baseline: optional to skip it instead)'
  }
  return ''
}

/** The prompts of the run (the same for both sides: the streams are seeded). */
async function workloadOf(run: LoadRun, options: LoadRunOptions): Promise<WorkloadSource | LoadOutcome> {
  const { load, config } = run
  try {
    if (load.workload.prompts === 'synthetic') return syntheticSource(load)
    if (load.workload.prompts === 'file') return await fileSource(load, config.source)
    if (load.workload.prompts === 'traffic') {
      return await trafficSource(load, config.source, load.mode === 'rate' && load.arrival === 'traffic' ? 'traffic' : null)
    }
    if (!options.gateSetOutput) {
      return run.fail(
        'load.gate_set',
        'load.workload.prompts is gate-set, which needs the quality half to run first (helm-gate run)',
        'load.workload.prompts'
      )
    }
    return await gateSetSource(load, options.gateSetOutput)
  } catch (error) {
    const e = error as { code?: string; message: string; describe?: () => string }
    return run.fail(e.code ?? 'load.workload', e.describe ? e.describe() : e.message, 'load.workload')
  }
}

export function isOutcome(value: unknown): value is LoadOutcome {
  return typeof value === 'object' && value !== null && 'report' in value && 'timings' in value
}

/**
 * Brings launched sides up one at a time between blocks, for servers that cannot be up together
 * (src/launch/side-holder.ts). The load half calls it before a block of the side that is not up,
 * then probes (the first time) and warms that side again: the warm-up is never measured.
 */
export interface SideSwitch {
  /** How each side is swapped; null: the side is always up. */
  readonly switches: Record<LoadSide, SideSwitchKind | null>
  /** False: both sides stay up once brought up (no swaps); the blocks alternate as for servers always up. */
  readonly oneAtATime: boolean
  /**
   * Makes `side` the one that is up (the other stopped or asleep) and waits until it is ready.
   * Throws a GateError naming the side and `stage` when it cannot.
   */
  bringUp(side: LoadSide, stage: string): Promise<void>
  /** Takes the side that is up down at the end of the load half, on every path. Never throws. */
  release(): Promise<void>
  /** The periods each side was up, so far. */
  periods(): Record<LoadSide, UpPeriod[]>
}

/** A swap that failed: names the side and the block it was for. */
export class SwapError extends GateError {}

export async function runLoad(config: GateConfig, options: LoadRunOptions, holder?: SideSwitch): Promise<LoadOutcome> {
  const run = beginLoad(config, options)
  if (isOutcome(run)) return run
  const { load, targets, timeoutMs } = run
  const timings: RequestTiming[] = []
  const blocks: LoadBlock[] = []
  const swaps: SwapRecord[] = []
  let upNow: LoadSide | null = null
  const swapping = holder?.oneAtATime === true
  let schedule: { schedule: LoadSchedule; why: string } = swapping
    ? {
        schedule: 'swapped',
        why: 'the launched sides are up one at a time (sequential schedule): swapped before each block of the other side'
      }
    : { schedule: 'both-up', why: 'both sides are up at once' }
  /** Swaps `side` in when it is not the one up; true when it did. */
  const bringUp = async (side: LoadSide, stage: string): Promise<boolean> => {
    // Both up at once: brought up for the probes, then held (no swaps).
    if (!holder || upNow === side || (!swapping && stage !== 'the probe')) return false
    const started = performance.now()
    try {
      await holder.bringUp(side, stage)
    } catch (error) {
      if (!(error instanceof GateError)) throw error
      // The launch's own code (what to fix), the message naming the side and the block.
      throw new SwapError(error.code, `the ${side} could not be brought up for ${stage}: ${error.message}`, {
        field: error.location.field ?? `deployments.${side}.launch`
      })
    }
    // The first start is a launch, not a swap: nothing was taken down before it.
    if (upNow !== null && swapping) swaps.push({ side, before: stage, ms: Math.round(performance.now() - started) })
    upNow = side
    return true
  }

  const connections: Partial<Record<LoadSide, { conn: Connection; li: number }>> = {}
  const closeAll = async (): Promise<void> => {
    for (const side of SIDES) {
      await connections[side]?.conn.pool.close().catch(() => {})
      delete connections[side]
    }
  }
  const measure = async (): Promise<LoadOutcome> => {
    // Probe: both deployments live and streaming. Load figures are comparable only within one run
    // on one machine, so an archived baseline never stands in for a live one. One at a time, the
    // candidate first, so that the baseline is up for the first block.
    const probes = {} as Record<LoadSide, StreamProbe>
    for (const side of swapping ? (['candidate', 'baseline'] as const) : SIDES) {
      await bringUp(side, 'the probe')
      probes[side] = await probeLoadSide(run, side)
    }
    const judged = judgeProbes(run, probes)
    if (judged) return judged
    const words = await workloadOf(run, options)
    if (isOutcome(words)) return words
    if (swapping && holder) schedule = chooseSchedule(holder, load, swaps)
    const plan = blockPlan(load, schedule.schedule)
    const source = load.workload.prompts === 'synthetic' ? await sizeInServerTokens(run, words) : words

    /** The side's connections at the level, opened and warmed up when they are new (not measured). */
    const warmed = async (side: LoadSide, li: number, level: number): Promise<Connection> => {
      const have = connections[side]
      if (have && have.li === li) return have.conn
      await have?.conn.pool.close().catch(() => {})
      const conn = connect(targets[side], load.mode === 'concurrency' ? level : null, timeoutMs)
      connections[side] = { conn, li }
      await warmUp(run, conn, side, probes[side].ignoreEos, source, li, level)
      return conn
    }

    run.origin = performance.now()
    let level = -1
    for (const at of plan) {
      // Both up: both sides' connections opened and warmed at the start of each level, as one step.
      if (!swapping && at.li !== level) for (const side of SIDES) await warmed(side, at.li, at.level)
      level = at.li
      // A side brought up again is a new server (or one just woken): new connections, a new warm-up.
      if (await bringUp(at.side, `block ${at.position + 1}/${at.total} at ${levelName(load, at.level)}`)) await closeAll()
      const conn = await warmed(at.side, at.li, at.level)
      await measureBlock(run, conn, probes[at.side].ignoreEos, source, at, blocks, timings)
    }
    const finished = finishLoad(run, blocks, timings)
    if (schedule.schedule === 'periods') markPeriods(finished.report, schedule.why)
    return finished
  }

  let outcome: LoadOutcome
  try {
    outcome = await measure()
  } catch (error) {
    if (error instanceof SideDownError) outcome = sideDown(run, error, timings)
    else if (error instanceof SwapError) outcome = { ...run.fail(error.code, error.message, error.location.field), timings }
    else throw error
  } finally {
    await closeAll()
    // The side still up goes down now, so that its period ends in the timeline.
    await holder?.release()
  }
  if (holder) outcome.report.timeline = timelineOf(holder, schedule, swaps, load)
  return outcome
}

/**
 * Synthetic prompts sized with the baseline server's /tokenize when it has one (server-tokens.ts),
 * every prompt of the warm-ups and blocks; the requested and realized counts go into the report.
 * Without one, one word per token, said in a note.
 */
async function sizeInServerTokens(run: LoadRun, words: WorkloadSource): Promise<WorkloadSource> {
  const { load, report } = run
  const tokenizer = await serverTokenizer(run.targets.baseline, Math.min(run.timeoutMs, 30_000))
  if (!tokenizer) {
    report.prompt_tokens = {
      sized_by: 'words',
      tokenizer: null,
      prompts: 0,
      requested_mean: load.workload.inputTokens.mean,
      realized_mean: null,
      realized_min: null,
      realized_max: null,
      served: { baseline: null, candidate: null }
    }
    return words
  }
  const perBlock = load.requestsPerLevel === null ? 0 : Math.ceil(load.requestsPerLevel / load.repetitions)
  const streams = [
    // A sample for the tokens per word of prompts beyond these (blocks of duration_seconds).
    { stream: 'calibration', count: 16 },
    ...load.levels.flatMap((_, li) => [
      { stream: `warmup:${li}`, count: load.warmupRequests },
      ...Array.from({ length: load.repetitions }, (_, repetition) => ({ stream: `block:${li}:${repetition}`, count: perBlock }))
    ])
  ]
  let sized: SizedPrompts
  try {
    sized = await sizedSyntheticSource(load, tokenizer, streams)
  } catch (error) {
    throw new GateError('load.tokenize', `the baseline's /tokenize failed while sizing the prompts: ${(error as Error).message}`, {
      field: 'deployments.baseline.base_url'
    })
  }
  const realized = sized.realized.slice(16)
  const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null)
  report.prompt_tokens = {
    sized_by: 'server',
    tokenizer: `${tokenizer.shape} /tokenize of the baseline`,
    prompts: realized.length,
    requested_mean: mean(sized.requested.slice(16)) ?? load.workload.inputTokens.mean,
    realized_mean: mean(realized),
    realized_min: realized.length ? Math.min(...realized) : null,
    realized_max: realized.length ? Math.max(...realized) : null,
    served: { baseline: null, candidate: null }
  }
  run.say(
    `load: ${realized.length} synthetic prompts sized with the baseline's /tokenize (${tokenizer.shape}): requested mean ${report.prompt_tokens.requested_mean.toFixed(1)}, realized mean ${report.prompt_tokens.realized_mean?.toFixed(1) ?? '-'} tokens`
  )
  return sized.source
}

/** Every block of the load half in run order: A B B A at each level, or each side in its own period. */
export function blockPlan(load: LoadSettings, schedule: LoadSchedule): BlockAt[] {
  const total = 2 * load.repetitions
  if (schedule !== 'periods') {
    return load.levels.flatMap((level, li) => abbaOrder(load.repetitions).map(block => ({ ...block, level, li, total })))
  }
  return SIDES.flatMap((side, si) =>
    load.levels.flatMap((level, li) =>
      Array.from({ length: load.repetitions }, (_, repetition) => ({
        side,
        level,
        li,
        repetition,
        position: si * load.repetitions + repetition,
        total
      }))
    )
  )
}

/** Swaps a plan needs, starting with the baseline up (after the probes). */
export function swapsNeeded(plan: Pick<BlockAt, 'side'>[]): number {
  let up: LoadSide = 'baseline'
  let swaps = 0
  for (const block of plan) {
    if (block.side !== up) swaps++
    up = block.side
  }
  return swaps
}

/**
 * Interleave by swapping, or fall back to one period per side: when a side cannot be swapped
 * (`switch: none`), or when the swaps A B B A needs, at the cost measured by the probes' swap,
 * would take longer than load.swap_budget_seconds.
 */
export function chooseSchedule(
  holder: Pick<SideSwitch, 'switches'>,
  load: LoadSettings,
  swaps: SwapRecord[]
): { schedule: LoadSchedule; why: string } {
  const fixed = SIDES.find(side => holder.switches[side] === 'none')
  if (fixed) {
    return { schedule: 'periods', why: `swapping is impossible: deployments.${fixed}.launch.switch is none` }
  }
  const cost = medianMs(swaps)
  const needed = swapsNeeded(blockPlan(load, 'swapped'))
  const estimate = cost === null ? 0 : (needed * cost) / 1000
  if (estimate > load.swapBudgetSeconds) {
    return {
      schedule: 'periods',
      why: `swapping is over budget: ${counted(needed, 'swap')} at ${((cost ?? 0) / 1000).toFixed(1)} s each (measured) would take ${estimate.toFixed(0)} s, more than load.swap_budget_seconds (${load.swapBudgetSeconds} s)`
    }
  }
  return {
    schedule: 'swapped',
    why: `the launched sides are up one at a time (sequential schedule): swapped before each block of the other side, ${counted(needed, 'swap')} at ${((cost ?? 0) / 1000).toFixed(1)} s each (measured), within load.swap_budget_seconds (${load.swapBudgetSeconds} s)`
  }
}

function medianMs(swaps: SwapRecord[]): number | null {
  if (swaps.length === 0) return null
  const sorted = swaps.map(s => s.ms).sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

function timelineOf(
  holder: SideSwitch,
  schedule: { schedule: LoadSchedule; why: string },
  swaps: SwapRecord[],
  load: LoadSettings
): LoadTimeline {
  return {
    schedule: schedule.schedule,
    why: schedule.why,
    switches: { ...holder.switches },
    swap_cost_ms: medianMs(swaps),
    swap_budget_seconds: load.swapBudgetSeconds,
    swaps: [...swaps],
    up: holder.periods()
  }
}

/** Each side measured in its own period: said in the report, first among the notes. */
export function markPeriods(report: LoadReport, why: string): void {
  report.interleaved = false
  report.notes.unshift(
    `Not interleaved (${why}): all of the baseline's blocks ran in one period, then all of the candidate's. ` +
      'Block pairs are not adjacent in time: drift between the two periods (host load, thermal state) is not cancelled, and the intervals do not include it (nothing was widened for it).'
  )
}

/**
 * A side that answered none of a block's requests (every one timed out or failed) is down: the
 * load half stops there with this error, and the other side is not loaded further. Without it, a
 * server that stops answering without closing its connections (a hung engine) held the job for
 * the per-request timeout times every request of every block left (docs/load.md, "A side that
 * stops answering").
 */
class SideDownError extends GateError {}

/** The load half's outcome once a side is down: an error, with what was measured until then. */
function sideDown(run: LoadRun, error: SideDownError, timings: RequestTiming[]): LoadOutcome {
  const outcome = run.fail(error.code, error.message, error.location.field)
  return { ...outcome, timings }
}

/** Where in the load half requests are sent, for the side-down message. */
interface Stage {
  side: LoadSide
  /** e.g. `block 3/8 at concurrency 1`, `the warm-up at concurrency 4 (opening its connections)`. */
  name: string
  run: LoadRun
}

/**
 * Watches one stage's requests. The side is down when a full round of requests in a row (one per
 * connection; one second of arrivals at a rate) got no answer at all (each timed out, or its
 * connection was refused or reset) with none succeeding in between: the rest of the stage would
 * only wait the timeout again, round after round. Or, at the end of the stage, when none of its
 * requests succeeded.
 */
class DownWatch {
  private ok = 0
  private failed = 0
  private timedOut = 0
  /** Requests in a row without an answer since the last success, and how many of them timed out. */
  private silent = 0
  private silentTimedOut = 0
  private readonly started = performance.now()
  down: SideDownError | null = null

  constructor(
    private readonly stage: Stage,
    private readonly round: number,
    private readonly onDown: () => void
  ) {}

  /** Counts a finished request; returns true once the side is declared down. */
  seen(r: StreamResult): boolean {
    if (this.down) return true
    if (r.status === 'ok') {
      this.ok++
      this.silent = 0
      this.silentTimedOut = 0
      return false
    }
    this.failed++
    if (r.status === 'timeout') this.timedOut++
    if (r.status === 'timeout' || r.httpStatus === 0) {
      this.silent++
      if (r.status === 'timeout') this.silentTimedOut++
    }
    if (this.silent >= this.round) {
      this.declare(`${this.silent} request(s) in a row got no answer (${this.how(this.silent, this.silentTimedOut)})`)
    }
    return this.down !== null
  }

  /** At the end of the stage: down when nothing succeeded. */
  end(): void {
    if (!this.down && this.ok === 0 && this.failed > 0) {
      this.declare(`none of its ${this.failed} request(s) succeeded (${this.how(this.failed, this.timedOut)})`)
    }
    if (this.down) throw this.down
  }

  private how(count: number, timedOut: number): string {
    const limit = `${this.stage.run.load.timeoutSeconds} s`
    if (timedOut === count) return `${count === 1 ? 'it' : `all ${count}`} timed out after ${limit}`
    if (timedOut === 0) return count === 1 ? 'it failed' : `all ${count} failed`
    return `${timedOut} timed out after ${limit}, ${count - timedOut} failed`
  }

  private declare(what: string): void {
    const { side, name, run } = this.stage
    const other = side === 'baseline' ? 'candidate' : 'baseline'
    const now = performance.now()
    const launched = run.config.launch?.sides[side] ? ` (the launched ${side} server's output is in logs/${side}-server.log)` : ''
    this.down = new SideDownError(
      'load.side_down',
      `${side} is down in ${name}: ${what}; declared down after ${seconds(now - this.started)} s of it, ${seconds(now - run.began)} s into the load half. The load half stopped there and the ${other} was not loaded further${launched}`,
      { field: `deployments.${side}.base_url` }
    )
    this.onDown()
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1)
}

/** A watch that, once the side is down, cuts the connections' requests in flight short. */
function watchStage(stage: Stage, conn: Connection, round: number): DownWatch {
  // Destroying the pool fails every request still waiting at once: nothing more is learned by
  // waiting for their timeouts. The pool is not used again (the load half stops).
  return new DownWatch(stage, Math.max(1, round), () => void conn.pool.destroy().catch(() => {}))
}

/** Opens the side's connections and sends its warm-up requests at the level (not measured). */
async function warmUp(
  run: LoadRun,
  conn: Connection,
  side: LoadSide,
  ignoreEos: boolean,
  source: WorkloadSource,
  li: number,
  level: number
): Promise<void> {
  const { load, targets, timeoutMs } = run
  await openConnections(conn, targets[side], load, level, timeoutMs, {
    side,
    name: `the warm-up at ${levelName(load, level)} (opening its connections)`,
    run
  })
  if (load.warmupRequests <= 0) return
  const watch = watchStage({ side, name: `the warm-up at ${levelName(load, level)}`, run }, conn, roundOf(load, level))
  const warm = await runBlock(
    conn,
    targets[side],
    ignoreEos,
    load,
    source,
    `warmup:${li}`,
    level,
    load.warmupRequests,
    null,
    timeoutMs,
    watch
  )
  const failed = warm.filter(r => r.status !== 'ok').length
  if (failed > 0) run.say(`load: ${levelName(load, level)} warm-up (${side}): ${failed}/${counted(warm.length, 'request')} failed`)
}

export interface BlockAt {
  side: LoadSide
  level: number
  /** The level's index (the workload streams are named by it). */
  li: number
  repetition: number
  position: number
  /** Blocks at this level, for the progress line. */
  total: number
}

/** One measured block: its requests, figures and a progress line. */
async function measureBlock(
  run: LoadRun,
  conn: Connection,
  ignoreEos: boolean,
  source: WorkloadSource,
  at: BlockAt,
  blocks: LoadBlock[],
  timings: RequestTiming[]
): Promise<void> {
  const { load, targets, timeoutMs } = run
  const { side, level, li, repetition, position } = at
  const name = `block ${position + 1}/${at.total} at ${levelName(load, level)}`
  await openConnections(conn, targets[side], load, level, timeoutMs, { side, name: `${name} (opening its connections)`, run })
  const watch = watchStage({ side, name, run }, conn, roundOf(load, level))
  const perBlock = load.requestsPerLevel === null ? null : Math.ceil(load.requestsPerLevel / load.repetitions)
  const blockSeconds = load.durationSeconds === null ? null : load.durationSeconds / load.repetitions
  const startedAt = new Date()
  const wallStart = performance.now()
  const cpuStart = process.cpuUsage()
  const results = await runBlock(
    conn,
    targets[side],
    ignoreEos,
    load,
    source,
    `block:${li}:${repetition}`,
    level,
    perBlock,
    blockSeconds,
    timeoutMs,
    watch
  )
  const blockTimings = results.map((r, index) => toTiming(r, { side, level, block: position, repetition, index }, run.origin))
  timings.push(...blockTimings)
  const first = results.reduce((m, r) => Math.min(m, r.start), Infinity)
  const last = results.reduce((m, r) => Math.max(m, r.end ?? r.failedAt), -Infinity)
  const cpu = process.cpuUsage(cpuStart)
  const wallMs = performance.now() - wallStart
  const cpuMs = (cpu.user + cpu.system) / 1000
  const f = figures(blockTimings, Math.max(0, last - first) / 1000, load.slo)
  blocks.push({
    side,
    level,
    position,
    repetition,
    ...f,
    started_at: startedAt.toISOString(),
    ended_at: new Date().toISOString(),
    client_cpu_ms: Math.round(cpuMs),
    client_cpu_share: wallMs > 0 ? cpuMs / (wallMs * availableParallelism()) : 0
  })
  run.say(
    `load: ${levelName(load, level)}, block ${position + 1}/${at.total} (${side}): ${counted(f.requests, 'request')}, ` +
      `${f.output_tokens_per_second.toFixed(1)} output tok/s, TTFT p50 ${f.ttft_ms.p50 === null ? '-' : f.ttft_ms.p50.toFixed(1)} ms, ${f.failed} failed`
  )
}

/** The compare step: figures per level, ratios over the block pairs, checks and the verdict. */
function finishLoad(run: LoadRun, blocks: LoadBlock[], timings: RequestTiming[]): LoadOutcome {
  const { report, load, config } = run
  report.blocks = blocks
  report.summary = load.levels.map(level => summarize(level, timings, blocks, load))
  report.ratios = reportedRatios(blocks, report.summary, load.checks, config.statistics.confidence)
  report.checks = evaluateChecks(load.checks, blocks, report.summary, config.statistics.confidence)
  addNotes(report)
  promptNote(report, timings)
  const cpuWarning = clientCpuWarning(blocks, load.clientCpuWarnShare, availableParallelism())
  if (cpuWarning) report.warnings.push({ code: 'load.client_cpu', message: cpuWarning })
  for (const side of SIDES) {
    const note = chunkNote(side, timings)
    if (note) report.notes.push(note)
  }
  report.verdict = worstVerdict([...report.checks.map(c => c.verdict), ...(report.errors.length ? ['error' as const] : [])])
  report.headline = headline(report, load)
  return { report, timings }
}

/** The prompts' sizes: requested, realized by the tokenizer, and as each server counted them (usage). */
function promptNote(report: LoadReport, timings: RequestTiming[]): void {
  const p = report.prompt_tokens
  if (!p) return
  for (const side of SIDES) {
    const counted = timings.filter(t => t.side === side && t.status === 'ok' && typeof t.prompt_tokens === 'number')
    p.served[side] = counted.length ? counted.reduce((s, t) => s + (t.prompt_tokens as number), 0) / counted.length : null
  }
  const served = SIDES.map(side => `${side} ${p.served[side] === null ? 'unknown' : p.served[side]?.toFixed(1)}`).join(', ')
  report.notes.push(
    p.sized_by === 'server'
      ? `Synthetic prompts sized with the ${p.tokenizer}: requested mean ${p.requested_mean.toFixed(1)} tokens, realized ${p.realized_mean?.toFixed(1)} (${p.realized_min} to ${p.realized_max}) over ${p.prompts} prompts, the same texts on both sides; counted by the servers (usage, chat template included): ${served}.`
      : `Synthetic prompts sized at one word per token (the baseline serves no /tokenize): requested mean ${p.requested_mean.toFixed(1)} tokens; counted by the servers (usage): ${served}.`
  )
}

/**
 * On a small host the load client competes with a CPU engine for the cores: its CPU time is then
 * part of what is measured. Warned when a block's share of the host's CPU time is above `limit`
 * (docs/load.md, "Pinning the client and the engine apart").
 */
export function clientCpuWarning(blocks: LoadBlock[], limit: number, cores: number): string | null {
  const over = blocks.filter(b => (b.client_cpu_share ?? 0) > limit)
  if (over.length === 0) return null
  const worst = Math.max(...over.map(b => b.client_cpu_share ?? 0))
  return (
    `The load client used more than ${pct(limit)} of the host's CPU time (${cores} core${cores === 1 ? '' : 's'}) in ${over.length} of ${blocks.length} blocks ` +
    `(at most ${pct(worst)}): on a CPU engine the client competes with the server, so its own work is in the figures. Pin them apart (taskset, docs/load.md) or use a larger host.`
  )
}

function pct(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`
}

interface Sent extends StreamResult {
  failedAt: number
  /** Open loop: when the request was due (performance.now() clock); closed loop: none. */
  scheduled?: number
}

/** Opens every connection of the pool with one one-token request each, so no block pays a connect. */
async function openConnections(
  conn: Connection,
  target: Target,
  load: LoadSettings,
  level: number,
  timeoutMs: number,
  stage: Stage
): Promise<void> {
  if (load.mode !== 'concurrency') return
  const body = requestBody({ kind: 'text', text: 'Hi', maxTokens: 1 }, target.api, target.model, false)
  // One request per connection, all at once: if none gets an answer the side is down now, not
  // after the block has waited the timeout once more for each of its rounds.
  const watch = watchStage(stage, conn, level)
  await Promise.all(Array.from({ length: level }, async () => watch.seen(await streamRequest(conn, body, timeoutMs))))
  if (watch.down) throw watch.down
}

/** Requests in one round: one per connection (concurrency), or one second of arrivals (rate). */
function roundOf(load: LoadSettings, level: number): number {
  return load.mode === 'concurrency' ? level : Math.ceil(level)
}

async function send(conn: Connection, body: Buffer, timeoutMs: number): Promise<Sent> {
  const r = (await streamRequest(conn, body, timeoutMs)) as Sent
  r.failedAt = performance.now()
  return r
}

/** One block: `count` requests (or `seconds` of them) at the level, closed or open loop. */
async function runBlock(
  conn: Connection,
  target: Target,
  ignoreEos: boolean,
  load: LoadSettings,
  source: WorkloadSource,
  stream: string,
  level: number,
  count: number | null,
  seconds: number | null,
  timeoutMs: number,
  watch: DownWatch
): Promise<Sent[]> {
  const bodyAt = (i: number): Buffer => Buffer.from(requestBody(source.item(stream, i), target.api, target.model, ignoreEos))
  const bodies: Buffer[] = count === null ? [] : Array.from({ length: count }, (_, i) => bodyAt(i))
  const results: Sent[] = []
  const start = performance.now()
  const deadline = seconds === null ? Infinity : start + seconds * 1000
  const more = (i: number): boolean => watch.down === null && (count !== null ? i < count : performance.now() < deadline)
  const body = (i: number): Buffer => (count !== null ? bodies[i] : bodyAt(i))
  if (load.mode === 'concurrency') {
    let next = 0
    const worker = async (): Promise<void> => {
      while (more(next)) {
        const i = next++
        results[i] = await send(conn, body(i), timeoutMs)
        watch.seen(results[i])
      }
    }
    await Promise.all(Array.from({ length: level }, worker))
    watch.end()
    return results
  }
  // Open loop: the due times from the seed (the same for both sides of a pair), absolute from the
  // block's start so a late send does not delay the rest.
  const due = arrivalOffsets({
    arrival: load.arrival,
    rate: level,
    seed: load.seed,
    stream,
    trafficGap: source.arrivalGap ? (i: number) => source.arrivalGap!(stream, i, level) : undefined
  })
  const pending: Promise<void>[] = []
  let at = due.next().value
  // A block of `seconds` holds the arrivals scheduled before its end: the schedule decides, not
  // the clock, which may read just past an arrival sent up to 1 ms early (no timer for less).
  for (let i = 0; watch.down === null && (count !== null ? i < count : start + at < deadline); i++) {
    // A timer can fire early by as much as the event loop's cached clock is stale (libuv reads it
    // once per turn, in whole ms), so look at the clock again after each wait.
    for (let wait = start + at - performance.now(); wait > 1; wait = start + at - performance.now()) {
      await new Promise(r => setTimeout(r, wait))
    }
    if (watch.down) break
    const scheduled = start + at
    pending.push(
      send(conn, body(i), timeoutMs).then(r => {
        r.scheduled = scheduled
        results[i] = r
        watch.seen(r)
      })
    )
    at = due.next().value
  }
  await Promise.all(pending)
  watch.end()
  return results
}

function toTiming(r: Sent, where: Pick<RequestTiming, 'side' | 'level' | 'block' | 'repetition' | 'index'>, origin: number): RequestTiming {
  const itl: number[] = []
  for (let i = 1; i < r.contentTimes.length; i++) itl.push(r.contentTimes[i] - r.contentTimes[i - 1])
  const ok = r.status === 'ok'
  return {
    ...where,
    send_ms: r.start - origin,
    scheduled_ms: r.scheduled === undefined ? null : r.scheduled - origin,
    ttft_ms: r.firstContent === null ? null : r.firstContent - r.start,
    itl_ms: itl,
    latency_ms: ok && r.end !== null ? r.end - r.start : null,
    output_tokens: r.usageTokens ?? r.contentTimes.length,
    tokens_from: r.usageTokens === null ? 'chunks' : 'usage',
    prompt_tokens: r.promptTokens,
    status: r.status,
    error: r.error,
    id: r.id
  }
}

function summarize(level: number, timings: RequestTiming[], blocks: LoadBlock[], load: LoadSettings): LoadSummary {
  const pooled = (side: LoadSide) => {
    const duration = blocks.filter(b => b.level === level && b.side === side).reduce((s, b) => s + b.duration_s, 0)
    return figures(
      timings.filter(t => t.level === level && t.side === side),
      duration,
      load.slo
    )
  }
  return { level, baseline: pooled('baseline'), candidate: pooled('candidate') }
}

/**
 * llama.cpp's server holds back a token that ends inside a UTF-8 character and sends it with the
 * next, and vLLM can put several tokens in one chunk too: then the gaps between chunks (ITL) are
 * not gaps between tokens, and a chunk-based ITL looks better than the engine's per-token pace.
 * Said when the successful requests' content chunks are fewer than 90 % of their output tokens
 * (by usage); TPOT (latency over tokens) is unaffected.
 */
export function chunkNote(side: LoadSide, timings: RequestTiming[]): string | null {
  let chunks = 0
  let tokens = 0
  for (const t of timings) {
    if (t.side !== side || t.status !== 'ok' || t.tokens_from !== 'usage' || t.ttft_ms === null) continue
    chunks += t.itl_ms.length + 1
    tokens += t.output_tokens
  }
  if (tokens === 0 || chunks >= 0.9 * tokens) return null
  return `The ${side} sent ${chunks} content chunks for ${tokens} output tokens (${(tokens / chunks).toFixed(2)} tokens per chunk): its ITL is the gap between chunks, not between tokens; TPOT is per token.`
}

function addNotes(report: LoadReport): void {
  for (const side of SIDES) {
    if (report.sides[side].usage === false) {
      report.notes.push(
        `The ${side} sends no usage in its stream: its output tokens are content chunks counted, which equals tokens only when each chunk carries one.`
      )
    }
    if (report.sides[side].ignore_eos === false) {
      report.notes.push(
        `The ${side} rejected ignore_eos/min_tokens: its answers may stop before max_tokens, so the sides may not generate the same amount.`
      )
    }
  }
  for (const s of report.summary) {
    const b = s.baseline.mean_output_tokens
    const c = s.candidate.mean_output_tokens
    if (b !== null && c !== null && b > 0 && Math.abs(c / b - 1) > 0.05) {
      const message = `At ${report.mode} ${s.level} the sides generated different lengths: ${b.toFixed(1)} (baseline) vs ${c.toFixed(1)} (candidate) output tokens per request; throughput ratios compare different work.`
      report.warnings.push({ code: 'load.output_length', message })
    }
    for (const side of SIDES) {
      const f = s[side]
      if (f.failed > 0) {
        report.notes.push(
          `At ${report.mode} ${s.level} the ${side} had ${f.failed} failed request(s) of ${f.requests} (${f.timed_out} timed out): counted in the error rate and against goodput.`
        )
      }
    }
  }
}

function headline(report: LoadReport, load: LoadSettings): string {
  const checks = report.checks
  const bad = checks.filter(c => c.verdict === report.verdict)
  const where = (c: (typeof checks)[number]): string => `${c.metric} at ${levelName(load, c.level)}`
  if (report.verdict === 'pass') return `Performance: pass: all ${checks.length} load checks passed.`
  const first = bad[0]
  const more = bad.length > 1 ? ` (and ${bad.length - 1} more)` : ''
  if (!first) return `Performance: ${report.verdict}.`
  return `Performance: ${report.verdict}: ${where(first)}: ${first.reason}${more}.`
}
