/**
 * One helm-run process: spawned with an argument array in its own process group (so a timeout
 * can kill HELM's worker threads and any children at once), its output streamed line by line
 * to a log file and to the caller with a side prefix, with progress read from HELM's own log.
 *
 * The stall watch: helm-run marks each request's start and end on an inherited pipe (fd 3,
 * python/helm_gate_plugins/progress.py). When requests are waiting and none has completed for
 * `stallMs`, the server has stopped answering (a hung engine keeps its connections open, so no
 * client error comes for as long as the client's own timeouts and retries allow): helm-run is
 * stopped, and the result says so (docs/helm.md "A server that stops answering").
 */
import { counted } from '../words.js'
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { trackGroup } from '../process/registry.js'
import { masker } from '../secrets/mask.js'

export interface HelmProcessSettings {
  side: string
  command: string
  args: string[]
  env: NodeJS.ProcessEnv
  /** Working directory (default: helm-gate's own). */
  cwd?: string
  logFile: string
  timeoutMs: number
  /** Expected number of run specs, for progress lines. */
  expectedRuns: number
  /** Every output line, prefixed with the side. */
  log?: (line: string) => void
  /** Progress lines (run started, requests processed, heartbeat). */
  progress?: (line: string) => void
  /** Values that must never appear in logs (API keys); other credentials are found by the redactor. */
  secrets?: string[]
  heartbeatMs?: number
  /** Stop helm-run when requests wait and none completes for this long; null: no stall watch. */
  stallMs?: number | null
}

/** helm-run stopped by the stall watch: no request completed for `idleMs` while `waiting` waited. */
export interface Stall {
  idleMs: number
  waiting: number
  /** Requests completed before it stalled. */
  completed: number
}

export interface HelmProcessResult {
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  startedAt: string
  endedAt: string
  durationMs: number
  /** Sum of HELM's "Processed N requests" lines. */
  requests: number
  runsStarted: string[]
  /** Run names from HELM's final `RunnerError: Failed runs: [...]`. */
  failedRuns: string[]
  /** A spawn failure (missing executable...), if any. */
  spawnError: string | null
  /** Set when the stall watch stopped helm-run. */
  stalled: Stall | null
}

const KILL_GRACE_MS = 5_000
/** The file descriptor helm-run's progress plugin writes its request marks to. */
const PROGRESS_FD = 3
const STALL_CHECK_MS = 1_000

export async function runHelmProcess(settings: HelmProcessSettings): Promise<HelmProcessResult> {
  await mkdir(dirname(settings.logFile), { recursive: true })
  const file = createWriteStream(settings.logFile, { flags: 'a' })
  const started = Date.now()
  const state: OutputState = { requests: 0, runsStarted: [], failedRuns: [] }

  const watchStalls = settings.stallMs !== undefined && settings.stallMs !== null
  const child = spawn(settings.command, settings.args, {
    cwd: settings.cwd,
    env: watchStalls ? { ...settings.env, HELM_GATE_PROGRESS_FD: String(PROGRESS_FD) } : settings.env,
    stdio: watchStalls ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    detached: true
  })

  // A signal to helm-gate (a cancelled job) must not leave helm-run running in its own group.
  const pgid = child.pid
  const release = pgid ? trackGroup({ pgid, label: `${settings.side} helm-run`, stop: async () => killGroup(pgid, 'SIGKILL') }) : () => {}

  const onLine = outputLineReader(settings, state, line => file.write(`${line}\n`))
  const readers = ([child.stdout, child.stderr] as Readable[]).map(stream => {
    const reader = createInterface({ input: stream, crlfDelay: Infinity })
    reader.on('line', onLine)
    return new Promise<void>(resolve => reader.on('close', resolve))
  })

  const group = new GroupStopper(child.pid)
  let timedOut = false
  const stall = watchStalls ? new StallWatch(child.stdio[PROGRESS_FD] as Readable | null) : null
  stall?.start(
    settings.stallMs as number,
    () => timedOut,
    (idle, waiting) => {
      onLine(
        `helm-gate: ${settings.side}: no request completed for ${Math.round(idle / 1000)} s while ${waiting} waited; the server stopped answering; stopping process group ${child.pid}`
      )
      group.stop()
    }
  )
  const timeout = setTimeout(() => {
    if (stall?.stalled) return
    timedOut = true
    onLine(
      `helm-gate: ${settings.side} exceeded its timeout of ${Math.round(settings.timeoutMs / 1000)} s; killing process group ${child.pid}`
    )
    group.stop()
  }, settings.timeoutMs)
  const heartbeat = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000)
    settings.progress?.(
      `[${settings.side}] still running after ${seconds} s: run ${state.runsStarted.length}/${settings.expectedRuns}, ${counted(state.requests, 'request')} done`
    )
  }, settings.heartbeatMs ?? 30_000)

  const exit = await exitOf(child)
  clearTimeout(timeout)
  clearInterval(heartbeat)
  stall?.stop()
  group.cancelKill()
  // Children of helm-run that outlived it (none expected) must not keep running after the gate,
  // nor hold its output pipes open.
  killGroup(child.pid, 'SIGKILL')
  release()
  if (exit.spawnError === null) await Promise.all(readers)
  const ended = Date.now()
  if (exit.spawnError) onLine(`helm-gate: could not start ${settings.command}: ${exit.spawnError}`)
  await new Promise<void>(resolve => file.end(resolve))
  return {
    exitCode: exit.code,
    signal: exit.signal,
    timedOut,
    startedAt: new Date(started).toISOString(),
    endedAt: new Date(ended).toISOString(),
    durationMs: ended - started,
    ...state,
    spawnError: exit.spawnError,
    stalled: stall?.stalled ?? null
  }
}

/** What helm-run's output lines have said so far. */
interface OutputState {
  /** Sum of HELM's "Processed N requests" lines. */
  requests: number
  runsStarted: string[]
  failedRuns: string[]
}

/**
 * Every output line, redacted, goes to the log file and the caller's log; the lines HELM writes
 * when a run starts, when requests are processed and when runs failed update `state`.
 */
function outputLineReader(settings: HelmProcessSettings, state: OutputState, toFile: (line: string) => void): (raw: string) => void {
  const redact = masker(settings.secrets ?? [])
  const prefix = `[${settings.side}]`
  return raw => {
    const line = redact(raw)
    toFile(line)
    settings.log?.(`${prefix} ${line}`)
    const running = /\bRunning (\S.*) \{\s*$/.exec(line)
    if (running) {
      state.runsStarted.push(running[1])
      settings.progress?.(`${prefix} run ${state.runsStarted.length}/${settings.expectedRuns}: ${running[1]}`)
    }
    const processed = /\bProcessed (\d+) requests\b/.exec(line)
    if (processed) {
      state.requests += Number(processed[1])
      settings.progress?.(`${prefix} ${counted(state.requests, 'request')} done`)
    }
    const failed = /Failed runs: \[(.*)\]/.exec(line)
    if (failed) state.failedRuns = [...failed[1].matchAll(/"([^"]*)"/g)].map(m => m[1])
  }
}

/** SIGTERM to the process group once, then SIGKILL after a grace period unless it exited. */
class GroupStopper {
  private killTimer: NodeJS.Timeout | undefined

  constructor(private readonly pid: number | undefined) {}

  stop(): void {
    if (this.killTimer) return
    killGroup(this.pid, 'SIGTERM')
    this.killTimer = setTimeout(() => killGroup(this.pid, 'SIGKILL'), KILL_GRACE_MS)
  }

  cancelKill(): void {
    if (this.killTimer) clearTimeout(this.killTimer)
  }
}

/** The stall watch: request marks from helm-run's progress plugin (`s` started, `e` ended). */
class StallWatch {
  stalled: Stall | null = null
  private waiting = 0
  private completed = 0
  private since = Date.now()
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly pipe: Readable | null) {
    pipe?.on('data', (chunk: Buffer) => this.read(chunk))
    pipe?.on('error', () => {})
  }

  private read(chunk: Buffer): void {
    for (const byte of chunk) {
      if (byte === 0x73) {
        // The wait starts with the first request of an idle spell, not at helm-run's start-up.
        if (this.waiting === 0) this.since = Date.now()
        this.waiting++
      } else if (byte === 0x65) {
        this.waiting = Math.max(0, this.waiting - 1)
        this.completed++
        this.since = Date.now()
      }
    }
  }

  /** Checks every second; `onStall` once, when requests wait and none completed for `stallMs`. */
  start(stallMs: number, timedOut: () => boolean, onStall: (idleMs: number, waiting: number) => void): void {
    this.timer = setInterval(() => {
      const idle = Date.now() - this.since
      if (this.stalled || timedOut() || this.waiting === 0 || idle < stallMs) return
      this.stalled = { idleMs: idle, waiting: this.waiting, completed: this.completed }
      onStall(idle, this.waiting)
    }, STALL_CHECK_MS)
  }

  stop(): void {
    clearInterval(this.timer)
    // A grandchild that inherited the pipe must not keep this process's reader open.
    this.pipe?.destroy()
  }
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: string | null; spawnError: string | null }> {
  return new Promise(resolve => {
    child.once('error', error => resolve({ code: null, signal: null, spawnError: error.message }))
    child.once('exit', (code, signal) => resolve({ code, signal, spawnError: null }))
  })
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}
