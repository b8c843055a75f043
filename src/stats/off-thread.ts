/**
 * The information-only intervals (the efficiency ratios of quantiles and the answer-length ratio
 * of means) on worker threads, so that they run while the main thread computes the gated
 * bootstrap instead of after it. All three are CPU-bound and of about the same size (measured by
 * bench/compare.mjs: 10,000 resamples of 5,000 instances each). The work is shared by a pool of
 * up to POOL_SIZE workers, each task going to the least busy one, so the answer-length interval
 * never waits behind the request-time one where there are cores for both; on two cores one
 * worker and two measured the same (bench/release-compare.mjs, docs/benchmarks.md). A worker draws
 * from the same seeded stream with the same code, so every figure is identical to the in-process
 * result.
 *
 * The workers run the bundled `ratio-worker.js` next to the running bundle (dist/). Where it does
 * not exist (the TypeScript sources under test) or cannot start, the same function runs in
 * process: the result is the same, only the overlap is lost.
 */
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { GateError, GuardError, UsageError } from '../errors.js'
import { max, min } from './math.js'
import { ratioOfMeans, type MeanRatioEstimate } from './mean-ratio.js'
import { ratiosOfQuantiles } from './ratio.js'
import type { RatioEstimate, StatisticsSettings } from './types.js'

/** What a worker computes: the quantile ratios of the efficiency row, or an answer-length ratio. */
type TaskInput =
  | { kind: 'quantile-ratios'; baseline: number[]; candidate: number[]; qs: number[]; settings: StatisticsSettings }
  | { kind: 'mean-ratio'; baseline: number[]; candidate: number[]; settings: MeanRatioSettings }

export type OffThreadTask = TaskInput & { id: number }

type MeanRatioSettings = Pick<StatisticsSettings, 'confidence' | 'resamples' | 'seed'>

export type TaskResult = RatioEstimate[] | MeanRatioEstimate

/** An expected failure crosses the thread boundary as plain data and is rebuilt on this side. */
export interface SentError {
  kind: string
  code: string
  message: string
  location: GateError['location']
}

export type OffThreadReply = { id: number; result: TaskResult } | { id: number; error: SentError }

export const WORKER_FILE = 'ratio-worker.js'

/**
 * Two workers beside the main thread: the gated bootstrap, the efficiency intervals and the
 * answer-length interval each get a thread. Never more than the machine's cores.
 */
export const POOL_SIZE = 2

export function sendError(error: unknown): SentError {
  if (error instanceof GateError) return { kind: error.name, code: error.code, message: error.message, location: error.location }
  return { kind: 'Error', code: 'internal', message: error instanceof Error ? (error.stack ?? error.message) : String(error), location: {} }
}

export function rebuildError(sent: SentError): Error {
  if (sent.kind === 'GuardError') return new GuardError(sent.code, sent.message, sent.location)
  if (sent.kind === 'UsageError') return new UsageError(sent.code, sent.message, sent.location)
  return new Error(`statistics worker: ${sent.message}`)
}

/** The task's figures, computed here: what a worker runs, and the fallback without one. */
export function computeTask(task: OffThreadTask): TaskResult {
  if (task.kind === 'mean-ratio') return ratioOfMeans(task.baseline, task.candidate, task.settings)
  return ratiosOfQuantiles(task.baseline, task.candidate, task.qs, task.settings)
}

interface Pending {
  resolve: (result: TaskResult) => void
  reject: (error: Error) => void
  task: OffThreadTask
}

interface PoolWorker {
  thread: Worker
  pending: Map<number, Pending>
}

let pool: PoolWorker[] = []
let broken = false
let nextId = 0

/** The worker script beside this bundle, or null when running from the sources. */
export function workerPath(moduleUrl: string = import.meta.url): string | null {
  const file = fileURLToPath(new URL(`./${WORKER_FILE}`, moduleUrl))
  return existsSync(file) ? file : null
}

function settle(p: Pending): void {
  try {
    p.resolve(computeTask(p.task))
  } catch (error) {
    p.reject(error as Error)
  }
}

/** A worker that failed to start or died: finish what every worker held here, and stop using them. */
function abandon(): void {
  broken = true
  const held = pool.flatMap(w => [...w.pending.values()])
  const stopped = pool
  pool = []
  for (const w of stopped) {
    w.pending.clear()
    void w.thread.terminate().catch(() => undefined)
  }
  for (const p of held) settle(p)
}

function startWorker(file: string): PoolWorker {
  const member: PoolWorker = { thread: new Worker(file), pending: new Map() }
  member.thread.on('message', (reply: OffThreadReply) => {
    const p = member.pending.get(reply.id)
    if (!p) return
    member.pending.delete(reply.id)
    // An idle worker never keeps the process alive: a finished compare exits without closing it.
    if (member.pending.size === 0) member.thread.unref()
    if ('error' in reply) p.reject(rebuildError(reply.error))
    else p.resolve(reply.result)
  })
  member.thread.on('error', abandon)
  member.thread.on('exit', () => {
    if (pool.includes(member)) abandon()
  })
  member.thread.unref()
  pool.push(member)
  return member
}

function poolLimit(): number {
  return max(1, min(POOL_SIZE, availableParallelism()))
}

/** The least busy worker, starting another while the pool has room and every worker is busy. */
function pickWorker(file: string): PoolWorker {
  const idle = pool.find(w => w.pending.size === 0)
  if (idle) return idle
  if (pool.length < poolLimit()) return startWorker(file)
  return pool.reduce((a, b) => (b.pending.size < a.pending.size ? b : a))
}

/**
 * Starts one worker now, so that its start-up (a thread and a module load, tens of milliseconds)
 * overlaps the reading of the run files instead of delaying the first interval.
 */
export function prewarmRatioWorker(file: string | null = workerPath()): void {
  if (file === null || broken || pool.length > 0) return
  try {
    startWorker(file)
  } catch {
    abandon()
  }
}

function offThread(input: TaskInput, file: string | null): Promise<TaskResult> {
  const task: OffThreadTask = { ...input, id: nextId++ }
  if (file === null || broken) return new Promise(resolve => resolve(computeTask(task)))
  return new Promise((resolve, reject) => {
    const pending: Pending = { resolve, reject, task }
    try {
      const member = pickWorker(file)
      member.pending.set(task.id, pending)
      // Held while a task is out: an unreferenced worker would let the process exit mid-await.
      member.thread.ref()
      member.thread.postMessage(task)
    } catch {
      abandon()
      settle(pending)
    }
  })
}

/**
 * ratiosOfQuantiles with the default seeded stream, computed on a worker thread when the bundle
 * has one. Rejects with the same GuardError or UsageError the in-process call would throw.
 */
export async function ratiosOfQuantilesOffThread(
  baseline: readonly number[],
  candidate: readonly number[],
  qs: readonly number[],
  settings: StatisticsSettings,
  file: string | null = workerPath()
): Promise<RatioEstimate[]> {
  const input: TaskInput = { kind: 'quantile-ratios', baseline: [...baseline], candidate: [...candidate], qs: [...qs], settings }
  return (await offThread(input, file)) as RatioEstimate[]
}

/** ratioOfMeans (the answer-length interval) on a worker thread, as ratiosOfQuantilesOffThread. */
export async function ratioOfMeansOffThread(
  baseline: readonly number[],
  candidate: readonly number[],
  settings: MeanRatioSettings,
  file: string | null = workerPath()
): Promise<MeanRatioEstimate> {
  // Only the fields the interval uses cross the thread boundary.
  const own = { confidence: settings.confidence, resamples: settings.resamples, seed: settings.seed }
  const input: TaskInput = { kind: 'mean-ratio', baseline: [...baseline], candidate: [...candidate], settings: own }
  return (await offThread(input, file)) as MeanRatioEstimate
}
