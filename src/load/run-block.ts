/**
 * Sending requests (docs/load.md): the warm-up, one measured block (closed or open loop), and the
 * watch that declares a side down when it stops answering.
 */
import { counted } from '../words.js'
import { availableParallelism } from 'node:os'
import type { LoadSettings } from '../config/load-types.js'
import type { LoadBlock, LoadSide } from '../model/load-report.js'
import { GateError } from '../errors.js'
import { streamRequest, type Connection, type StreamResult, type Target } from './stream-client.js'
import { figures } from './metrics.js'
import { arrivalOffsets } from './arrivals.js'
import type { RequestTiming } from './types.js'
import { requestBody, type WorkloadSource } from './workload.js'
import { levelName, type LoadOutcome, type LoadRun } from './load-run.js'
import type { BlockAt } from './block-schedule.js'

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
  if (failed > 0) run.say(`load: ${levelName(load, level)} warm-up (${side}): ${failed}/${counted(warm.length, 'request')} failed`)
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
