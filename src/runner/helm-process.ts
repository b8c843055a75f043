/**
 * One helm-run process: spawned with an argument array in its own process group (so a timeout
 * can kill HELM's worker threads and any children at once), its output streamed line by line
 * to a log file and to the caller with a side prefix, with progress read from HELM's own log.
 */
import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import { trackGroup } from '../launch/registry.js'

export interface HelmProcessSettings {
  side: string
  command: string
  args: string[]
  env: NodeJS.ProcessEnv
  logFile: string
  timeoutMs: number
  /** Expected number of run specs, for progress lines. */
  expectedRuns: number
  /** Every output line, prefixed with the side. */
  log?: (line: string) => void
  /** Progress lines (run started, requests processed, heartbeat). */
  progress?: (line: string) => void
  /** Values that must never appear in logs (API keys). */
  secrets?: string[]
  heartbeatMs?: number
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
}

const KILL_GRACE_MS = 5_000

export async function runHelmProcess(settings: HelmProcessSettings): Promise<HelmProcessResult> {
  await mkdir(dirname(settings.logFile), { recursive: true })
  const file = createWriteStream(settings.logFile, { flags: 'a' })
  const started = Date.now()
  const state = { requests: 0, runsStarted: [] as string[], failedRuns: [] as string[] }
  const redact = redactor(settings.secrets ?? [])
  const prefix = `[${settings.side}]`

  const child = spawn(settings.command, settings.args, {
    env: settings.env,
    stdio: ['ignore', 'pipe', 'pipe'],
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
      settings.progress?.(`${prefix} ${state.requests} requests done`)
    }
    const failed = /Failed runs: \[(.*)\]/.exec(line)
    if (failed) state.failedRuns = [...failed[1].matchAll(/"([^"]*)"/g)].map(m => m[1])
  }
  const readers = [child.stdout, child.stderr].map(stream => {
    const reader = createInterface({ input: stream, crlfDelay: Infinity })
    reader.on('line', onLine)
    return new Promise<void>(resolve => reader.on('close', resolve))
  })

  let timedOut = false
  let killTimer: NodeJS.Timeout | undefined
  const timeout = setTimeout(() => {
    timedOut = true
    onLine(
      `helm-gate: ${settings.side} exceeded its timeout of ${Math.round(settings.timeoutMs / 1000)} s; killing process group ${child.pid}`
    )
    killGroup(child.pid, 'SIGTERM')
    killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS)
  }, settings.timeoutMs)
  const heartbeat = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000)
    settings.progress?.(
      `${prefix} still running after ${seconds} s: run ${state.runsStarted.length}/${settings.expectedRuns}, ${state.requests} requests done`
    )
  }, settings.heartbeatMs ?? 30_000)

  const exit = await new Promise<{ code: number | null; signal: string | null; spawnError: string | null }>(resolve => {
    child.once('error', error => resolve({ code: null, signal: null, spawnError: error.message }))
    child.once('exit', (code, signal) => resolve({ code, signal, spawnError: null }))
  })
  clearTimeout(timeout)
  clearInterval(heartbeat)
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
    spawnError: exit.spawnError
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

function redactor(secrets: string[]): (line: string) => string {
  const values = secrets.filter(secret => secret.length >= 4)
  if (values.length === 0) return line => line
  return line => values.reduce((text, secret) => text.split(secret).join('***'), line)
}
