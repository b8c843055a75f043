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
import { spawn } from 'node:child_process'
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
  const state = { requests: 0, runsStarted: [] as string[], failedRuns: [] as string[] }
  const redact = masker(settings.secrets ?? [])
  const prefix = `[${settings.side}]`

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

  const onLine = (raw: string): void => {
    const line = redact(raw)
    file.write(`${line}\n`)
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
  const readers = ([child.stdout, child.stderr] as Readable[]).map(stream => {
    const reader = createInterface({ input: stream, crlfDelay: Infinity })
    reader.on('line', onLine)
    return new Promise<void>(resolve => reader.on('close', resolve))
  })

  let timedOut = false
  let killTimer: NodeJS.Timeout | undefined
  const stopGroup = (): void => {
    if (killTimer) return
    killGroup(child.pid, 'SIGTERM')
    killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS)
  }
  const timeout = setTimeout(() => {
    if (stalled) return
    timedOut = true
    onLine(
      `helm-gate: ${settings.side} exceeded its timeout of ${Math.round(settings.timeoutMs / 1000)} s; killing process group ${child.pid}`
    )
    stopGroup()
  }, settings.timeoutMs)

  // The stall watch: request marks from helm-run's progress plugin (`s` started, `e` ended).
  let stalled: Stall | null = null
  const marks = { waiting: 0, completed: 0, since: Date.now() }
  const progressPipe = watchStalls ? (child.stdio[PROGRESS_FD] as Readable | null) : null
  progressPipe?.on('data', (chunk: Buffer) => {
    for (const byte of chunk) {
      if (byte === 0x73) {
        // The wait starts with the first request of an idle spell, not at helm-run's start-up.
        if (marks.waiting === 0) marks.since = Date.now()
        marks.waiting++
      } else if (byte === 0x65) {
        marks.waiting = Math.max(0, marks.waiting - 1)
        marks.completed++
        marks.since = Date.now()
      }
    }
  })
  progressPipe?.on('error', () => {})
  const stallWatch = watchStalls
    ? setInterval(() => {
        const idle = Date.now() - marks.since
        if (stalled || timedOut || marks.waiting === 0 || idle < (settings.stallMs as number)) return
        stalled = { idleMs: idle, waiting: marks.waiting, completed: marks.completed }
        onLine(
          `helm-gate: ${settings.side}: no request completed for ${Math.round(idle / 1000)} s while ${marks.waiting} waited; the server stopped answering; stopping process group ${child.pid}`
        )
        stopGroup()
      }, STALL_CHECK_MS)
    : undefined
  const heartbeat = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000)
    settings.progress?.(
      `${prefix} still running after ${seconds} s: run ${state.runsStarted.length}/${settings.expectedRuns}, ${counted(state.requests, 'request')} done`
    )
  }, settings.heartbeatMs ?? 30_000)

  const exit = await new Promise<{ code: number | null; signal: string | null; spawnError: string | null }>(resolve => {
    child.once('error', error => resolve({ code: null, signal: null, spawnError: error.message }))
    child.once('exit', (code, signal) => resolve({ code, signal, spawnError: null }))
  })
  clearTimeout(timeout)
  clearInterval(heartbeat)
  clearInterval(stallWatch)
  // A grandchild that inherited the pipe must not keep this process's reader open.
  progressPipe?.destroy()
  if (killTimer) clearTimeout(killTimer)
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
    requests: state.requests,
    runsStarted: state.runsStarted,
    failedRuns: state.failedRuns,
    spawnError: exit.spawnError,
    stalled
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}
