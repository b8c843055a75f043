/**
 * One launched server process: spawned with an argument array in its own process group, its
 * output streamed to `logs/<side>-server.log` with secrets masked, the last lines kept for error
 * messages, and a stop that always ends with the whole group gone: the configured signal, a
 * wait, SIGKILL to the group, then `stop_command` (for containers started detached).
 */
import { spawn } from 'node:child_process'
import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import type { StopSignal } from '../config/launch.js'
import { groupAlive, killGroupNow, trackGroup } from '../process/registry.js'
import type { StopRecord } from '../model/launch-record.js'
export type { StopRecord } from '../model/launch-record.js'

export interface ServerProcessSettings {
  /** `baseline` or `candidate`, for messages. */
  label: string
  /** Expanded argument array: program first. */
  command: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  logFile: string
  mask: (line: string) => string
  stop: { signal: StopSignal; timeoutSeconds: number }
  /** Expanded `stop_command`, run in `cwd` after the group is gone. */
  stopCommand: string[] | null
  /** Each log line for the console, already masked. */
  echo?: (line: string) => void
}

export interface ServerExit {
  code: number | null
  signal: string | null
  /** The program could not be started (ENOENT, EACCES). */
  spawnError: string | null
}

const TAIL_LINES = 20
/** Urgent stops (a signal to helm-gate) wait at most this long before SIGKILL. */
const URGENT_GRACE_MS = 3_000
const STOP_COMMAND_TIMEOUT_MS = 120_000
const URGENT_STOP_COMMAND_TIMEOUT_MS = 5_000

export class ServerProcess {
  readonly pid: number | null
  readonly startedAt: Date
  /** Resolves when the leader exits (or could not start). */
  readonly exited: Promise<ServerExit>
  exit: ServerExit | null = null
  private readonly tail: string[] = []
  private readonly file: WriteStream
  private readonly readers: Promise<void>[]
  private stopping: Promise<StopRecord> | null = null
  private readonly release: () => void

  private constructor(
    private readonly settings: ServerProcessSettings,
    file: WriteStream
  ) {
    this.file = file
    this.startedAt = new Date()
    this.writeLine(`helm-gate: starting ${settings.label} server: ${settings.mask(JSON.stringify(settings.command))} in ${settings.cwd}`)
    const child = spawn(settings.command[0], settings.command.slice(1), {
      cwd: settings.cwd,
      env: settings.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true
    })
    this.pid = child.pid ?? null
    this.readers = [child.stdout, child.stderr].map(stream => {
      const reader = createInterface({ input: stream, crlfDelay: Infinity })
      reader.on('line', line => this.onLine(line))
      return new Promise<void>(resolve => reader.on('close', resolve))
    })
    this.exited = new Promise<ServerExit>(resolve => {
      child.once('error', error => resolve({ code: null, signal: null, spawnError: error.message }))
      child.once('exit', (code, signal) => resolve({ code, signal, spawnError: null }))
    }).then(exit => {
      this.exit = exit
      this.writeLine(
        exit.spawnError
          ? `helm-gate: could not start ${settings.command[0]}: ${exit.spawnError}`
          : `helm-gate: ${settings.label} server process exited (${exit.signal ?? `status ${exit.code}`})`
      )
      return exit
    })
    const pgid = this.pid
    this.release =
      pgid === null ? () => {} : trackGroup({ pgid, label: `${settings.label} server`, stop: urgent => this.stop(urgent).then(() => {}) })
  }

  static async start(settings: ServerProcessSettings): Promise<ServerProcess> {
    await mkdir(dirname(settings.logFile), { recursive: true })
    const file = createWriteStream(settings.logFile, { flags: 'a' })
    return new ServerProcess(settings, file)
  }

  /** helm-gate asked the server to stop (an exit after that is no death). */
  get stopRequested(): boolean {
    return this.stopping !== null
  }

  /** The last lines of the log (masked), for "exited before ready" messages. */
  lastLines(count = TAIL_LINES): string[] {
    return this.tail.slice(-count)
  }

  /**
   * Stops the server; every later call returns the same promise. Never throws: a stop that
   * cannot finish cleanly still kills the group and says so in the log.
   */
  stop(urgent = false): Promise<StopRecord> {
    this.stopping ??= this.doStop(urgent)
    return this.stopping
  }

  private async doStop(urgent: boolean): Promise<StopRecord> {
    const requested = new Date()
    let killed = false
    const pgid = this.pid
    if (pgid !== null && this.exit === null) {
      const signal = this.settings.stop.signal
      this.writeLine(`helm-gate: stopping the ${this.settings.label} server: ${signal} to process group ${pgid}`)
      killGroupNow(pgid, signal)
      const grace = urgent ? Math.min(URGENT_GRACE_MS, this.settings.stop.timeoutSeconds * 1000) : this.settings.stop.timeoutSeconds * 1000
      const exitedInTime = await settlesWithin(this.exited, grace)
      if (!exitedInTime) {
        this.writeLine(
          `helm-gate: the ${this.settings.label} server did not exit within ${Math.round(grace / 1000)} s; SIGKILL to the group`
        )
        killed = true
      }
    }
    const exitedAt = new Date()
    // Children that outlived the leader (or ignored the signal) go with the group, always.
    if (pgid !== null) {
      if (groupAlive(pgid)) killed = true
      killGroupNow(pgid, 'SIGKILL')
      await waitUntilGone(pgid, 5_000)
    }
    await this.exited
    await Promise.all(this.readers)
    let stopCommandExit: number | string | null = null
    if (this.settings.stopCommand) {
      stopCommandExit = await this.runStopCommand(urgent ? URGENT_STOP_COMMAND_TIMEOUT_MS : STOP_COMMAND_TIMEOUT_MS)
    }
    this.release()
    const stopped = new Date()
    this.writeLine(`helm-gate: ${this.settings.label} server stopped`)
    await new Promise<void>(resolve => this.file.end(resolve))
    return {
      requested_at: requested.toISOString(),
      exited_at: exitedAt.toISOString(),
      killed,
      stop_command_exit: stopCommandExit,
      stopped_at: stopped.toISOString()
    }
  }

  private async runStopCommand(timeoutMs: number): Promise<number | string> {
    const [program, ...args] = this.settings.stopCommand as string[]
    this.writeLine(`helm-gate: running stop_command ${this.settings.mask(JSON.stringify(this.settings.stopCommand))}`)
    const child = spawn(program, args, {
      cwd: this.settings.cwd,
      env: this.settings.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true
    })
    const release = child.pid
      ? trackGroup({ pgid: child.pid, label: 'stop_command', stop: async () => killGroupNow(child.pid as number) })
      : () => {}
    const readers = [child.stdout, child.stderr].map(stream => {
      const reader = createInterface({ input: stream, crlfDelay: Infinity })
      reader.on('line', line => this.onLine(line))
      return new Promise<void>(resolve => reader.on('close', resolve))
    })
    const timer = setTimeout(() => child.pid && killGroupNow(child.pid), timeoutMs)
    const result = await new Promise<number | string>(resolve => {
      child.once('error', error => resolve(`could not start: ${error.message}`))
      child.once('exit', (code, signal) => resolve(code ?? `killed by ${signal}`))
    })
    clearTimeout(timer)
    if (child.pid) killGroupNow(child.pid)
    await Promise.all(readers)
    release()
    this.writeLine(`helm-gate: stop_command finished: ${result}`)
    return result
  }

  private onLine(raw: string): void {
    const line = this.settings.mask(raw)
    this.tail.push(line)
    if (this.tail.length > TAIL_LINES * 2) this.tail.splice(0, this.tail.length - TAIL_LINES)
    this.file.write(`${line}\n`)
    this.settings.echo?.(line)
  }

  private writeLine(line: string): void {
    if (!this.file.writableEnded) this.file.write(`${line}\n`)
    this.settings.echo?.(line)
  }
}

async function waitUntilGone(pgid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (groupAlive(pgid) && Date.now() < deadline) await delay(25)
}

/** True when `promise` settles within `ms`; the timer never outlives the answer. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>(resolve => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([promise.then(() => true as const), timeout])
  } finally {
    clearTimeout(timer)
  }
}

function delay(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms))
}
