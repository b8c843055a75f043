/**
 * The load half (docs/load.md): probe both deployments, then per level warm the connections and
 * run the blocks A B B A ..., never both sides at once; then the figures, ratios and checks.
 * The I/O edge around the pure parts (workload, metrics, compare).
 */
import type { GateConfig, ServerDeployment } from '../config/types.js'
import type { LoadSettings } from '../config/load-types.js'
import type { LoadBlock, LoadReport, LoadSide, LoadSummary } from '../model/load-report.js'
import { GateError } from '../errors.js'
import { apiKeyOf } from '../secrets/api-keys.js'
import { LOG_RATIO_METHOD } from '../stats/log-ratio.js'
import { createRandom } from '../stats/random.js'
import { connect, streamRequest, type Connection, type StreamResult, type Target } from './client.js'
import { evaluateChecks, reportedRatios, worstVerdict } from './compare.js'
import { figures, PERCENTILE_METHOD } from './metrics.js'
import { probeSide, type StreamProbe } from './probe.js'
import { abbaOrder } from './schedule.js'
import type { RequestTiming } from './types.js'
import { fileSource, gateSetSource, requestBody, syntheticSource, trafficSource, type WorkloadSource } from './workload.js'

export interface LoadRunOptions {
  env: Record<string, string | undefined>
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

function targetOf(deployment: ServerDeployment, env: Record<string, string | undefined>): Target {
  return {
    api: deployment.api,
    baseUrl: deployment.baseUrl,
    model: deployment.model,
    apiKey: apiKeyOf(deployment, env)
  }
}

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

/**
 * One load half in progress: the settings, the report being filled and the two targets. Shared by
 * the interleaved run (runLoad) and the per-side run of launched servers that are up one at a
 * time (per-side.ts).
 */
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
        `the load half needs deployments.${side} as api/base_url/model, not a prod_env reference`,
        `deployments.${side}`
      )
    }
  }
  const targets = {
    baseline: targetOf(deployments.baseline as ServerDeployment, options.env),
    candidate: targetOf(deployments.candidate as ServerDeployment, options.env)
  }
  const say = options.progress ?? (() => {})
  const now = performance.now()
  return { config, load, report, targets, timeoutMs: load.timeoutSeconds * 1000, say, origin: now, began: now, fail }
}

/** Probes one side (is it there, does it stream) and records what it accepts. */
export async function probeLoadSide(run: LoadRun, side: LoadSide): Promise<StreamProbe> {
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
export async function workloadOf(run: LoadRun, options: LoadRunOptions): Promise<WorkloadSource | LoadOutcome> {
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

export async function runLoad(config: GateConfig, options: LoadRunOptions): Promise<LoadOutcome> {
  const run = beginLoad(config, options)
  if (isOutcome(run)) return run
  const { load, targets, timeoutMs } = run

  // Probe: both deployments live and streaming. Load figures are comparable only within one run
  // on one machine, so an archived baseline never stands in for a live one.
  const probes = {} as Record<LoadSide, StreamProbe>
  for (const side of SIDES) probes[side] = await probeLoadSide(run, side)
  const judged = judgeProbes(run, probes)
  if (judged) return judged
  const source = await workloadOf(run, options)
  if (isOutcome(source)) return source

  run.origin = performance.now()
  const timings: RequestTiming[] = []
  const blocks: LoadBlock[] = []
  try {
    for (const [li, level] of load.levels.entries()) {
      const connections = {} as Record<LoadSide, Connection>
      for (const side of SIDES) connections[side] = connect(targets[side], load.mode === 'concurrency' ? level : null, timeoutMs)
      try {
        for (const side of SIDES) await warmUp(run, connections[side], side, probes[side].ignoreEos, source, li, level)
        const order = abbaOrder(load.repetitions)
        for (const { side, repetition, position } of order) {
          const block = { side, level, li, repetition, position, total: order.length }
          await measureBlock(run, connections[side], probes[side].ignoreEos, source, block, blocks, timings)
        }
      } finally {
        for (const side of SIDES) await connections[side].pool.close().catch(() => {})
      }
    }
  } catch (error) {
    if (error instanceof SideDownError) return sideDown(run, error, timings)
    throw error
  }
  return finishLoad(run, blocks, timings)
}

/**
 * A side that answered none of a block's requests (every one timed out or failed) is down: the
 * load half stops there with this error, and the other side is not loaded further. Without it, a
 * server that stops answering without closing its connections (a hung engine) held the job for
 * the per-request timeout times every request of every block left (docs/load.md, "A side that
 * stops answering").
 */
export class SideDownError extends GateError {}

/** The load half's outcome once a side is down: an error, with what was measured until then. */
export function sideDown(run: LoadRun, error: SideDownError, timings: RequestTiming[]): LoadOutcome {
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
export async function warmUp(
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
  if (failed > 0) run.say(`load: ${levelName(load, level)} warm-up (${side}): ${failed}/${warm.length} requests failed`)
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
export async function measureBlock(
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
  const f = figures(blockTimings, Math.max(0, last - first) / 1000, load.slo)
  blocks.push({ side, level, position, repetition, ...f })
  run.say(
    `load: ${levelName(load, level)}, block ${position + 1}/${at.total} (${side}): ${f.requests} requests, ` +
      `${f.output_tokens_per_second.toFixed(1)} output tok/s, TTFT p50 ${f.ttft_ms.p50 === null ? '-' : f.ttft_ms.p50.toFixed(1)} ms, ${f.failed} failed`
  )
}

/** The compare step: figures per level, ratios over the block pairs, checks and the verdict. */
export function finishLoad(run: LoadRun, blocks: LoadBlock[], timings: RequestTiming[]): LoadOutcome {
  const { report, load, config } = run
  report.blocks = blocks
  report.summary = load.levels.map(level => summarize(level, timings, blocks, load))
  report.ratios = reportedRatios(blocks, report.summary, load.checks, config.statistics.confidence)
  report.checks = evaluateChecks(load.checks, blocks, report.summary, config.statistics.confidence)
  addNotes(report)
  for (const side of SIDES) {
    const note = chunkNote(side, timings)
    if (note) report.notes.push(note)
  }
  report.verdict = worstVerdict([...report.checks.map(c => c.verdict), ...(report.errors.length ? ['error' as const] : [])])
  report.headline = headline(report, load)
  return { report, timings }
}

interface Sent extends StreamResult {
  failedAt: number
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
  // Open loop: arrival times from the seed (the same for both sides of a pair).
  const random = createRandom(load.seed, `arrivals:${stream}`)
  const pending: Promise<void>[] = []
  let at = 0
  // A block of `seconds` holds the arrivals scheduled before its end: the schedule decides, not
  // the clock, which may read just past an arrival sent up to 1 ms early (no timer for less).
  for (let i = 0; watch.down === null && (count !== null ? i < count : start + at < deadline); i++) {
    const wait = start + at - performance.now()
    if (wait > 1) await new Promise(r => setTimeout(r, wait))
    if (watch.down) break
    pending.push(
      send(conn, body(i), timeoutMs).then(r => {
        results[i] = r
        watch.seen(r)
      })
    )
    at +=
      load.arrival === 'traffic' && source.arrivalGap
        ? source.arrivalGap(stream, i, level)
        : load.arrival === 'constant'
          ? 1000 / level
          : (-Math.log(random.double()) * 1000) / level
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
