/**
 * The efficiency intervals (ratiosOfQuantiles) on a worker thread, so that they run while the
 * main thread computes the gated bootstrap instead of after it. Both are CPU-bound and about the
 * same size (measured by bench/compare.mjs: 10,000 resamples of 5,000 instances each), so on a
 * machine with two cores the pair takes the time of the longer one. The worker draws from the
 * same seeded stream with the same code, so every figure is identical to the in-process result.
 *
 * The worker is the bundled `ratio-worker.js` next to the running bundle (dist/). Where it does
 * not exist (the TypeScript sources under test) or cannot start, the same function runs in
 * process: the result is the same, only the overlap is lost.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { GateError, GuardError, UsageError } from '../errors.js'
import { ratiosOfQuantiles } from './ratio.js'
import type { RatioEstimate, StatisticsSettings } from './types.js'

export interface RatioTask {
  id: number
  baseline: number[]
  candidate: number[]
  qs: number[]
  settings: StatisticsSettings
}

/** An expected failure crosses the thread boundary as plain data and is rebuilt on this side. */
export interface SentError {
  kind: string
  code: string
  message: string
  location: GateError['location']
}

export type RatioReply = { id: number; estimates: RatioEstimate[] } | { id: number; error: SentError }

export const WORKER_FILE = 'ratio-worker.js'

export function sendError(error: unknown): SentError {
  if (error instanceof GateError) return { kind: error.name, code: error.code, message: error.message, location: error.location }
  return { kind: 'Error', code: 'internal', message: error instanceof Error ? (error.stack ?? error.message) : String(error), location: {} }
}

export function rebuildError(sent: SentError): Error {
  if (sent.kind === 'GuardError') return new GuardError(sent.code, sent.message, sent.location)
  if (sent.kind === 'UsageError') return new UsageError(sent.code, sent.message, sent.location)
  return new Error(`efficiency worker: ${sent.message}`)
}

interface Pending {
  resolve: (estimates: RatioEstimate[]) => void
  reject: (error: Error) => void
  task: RatioTask
}

let worker: Worker | null = null
let broken = false
let nextId = 0
const pending = new Map<number, Pending>()

/** The worker script beside this bundle, or null when running from the sources. */
export function workerPath(moduleUrl: string = import.meta.url): string | null {
  const file = fileURLToPath(new URL(`./${WORKER_FILE}`, moduleUrl))
  return existsSync(file) ? file : null
}

function inProcess(task: RatioTask): RatioEstimate[] {
  return ratiosOfQuantiles(task.baseline, task.candidate, task.qs, task.settings)
}

/** A worker that failed to start or died: finish what it held here, and stop using it. */
function abandon(): void {
  broken = true
  const held = [...pending.values()]
  pending.clear()
  worker = null
  for (const p of held) {
    try {
      p.resolve(inProcess(p.task))
    } catch (error) {
      p.reject(error as Error)
    }
  }
}

function startWorker(file: string): Worker {
  const started = new Worker(file)
  started.on('message', (reply: RatioReply) => {
    const p = pending.get(reply.id)
    if (!p) return
    pending.delete(reply.id)
    // An idle worker never keeps the process alive: a finished compare exits without closing it.
    if (pending.size === 0) started.unref()
    if ('error' in reply) p.reject(rebuildError(reply.error))
    else p.resolve(reply.estimates)
  })
  started.on('error', abandon)
  started.on('exit', () => {
    if (worker === started) abandon()
  })
  return started
}

/**
 * Starts the worker now, so that its start-up (a thread and a module load, tens of milliseconds)
 * overlaps the reading of the run files instead of delaying the first interval.
 */
export function prewarmRatioWorker(file: string | null = workerPath()): void {
  if (file === null || broken || worker !== null) return
  try {
    worker = startWorker(file)
    worker.unref()
  } catch {
    abandon()
  }
}

/**
 * ratiosOfQuantiles with the default seeded stream, computed on the worker thread when the bundle
 * has one. Rejects with the same GuardError or UsageError the in-process call would throw.
 */
export function ratiosOfQuantilesOffThread(
  baseline: readonly number[],
  candidate: readonly number[],
  qs: readonly number[],
  settings: StatisticsSettings,
  file: string | null = workerPath()
): Promise<RatioEstimate[]> {
  const task: RatioTask = { id: nextId++, baseline: [...baseline], candidate: [...candidate], qs: [...qs], settings }
  if (file === null || broken) return new Promise(resolve => resolve(inProcess(task)))
  return new Promise((resolve, reject) => {
    pending.set(task.id, { resolve, reject, task })
    try {
      worker ??= startWorker(file)
      // Held while a task is out: an unreferenced worker would let the process exit mid-await.
      worker.ref()
      worker.postMessage(task)
    } catch {
      abandon()
    }
  })
}
