/**
 * Readiness of a launched server: GET {base_url}/models must list the model (the runner's probe,
 * one attempt at a time) while the process is watched. A process that exits before it is ready
 * is an error quoting the last lines of its log; so is a server still not ready after
 * `ready_timeout_seconds`. A command that exits 0 while a `stop_command` is configured started
 * something detached (`docker run -d`): then only the probe decides.
 */
import { request } from 'undici'
import { routeUrl } from '../server/endpoint.js'
import { probeOnce, type ProbeResult, type ProbeSettings } from '../server/readiness.js'
import { LaunchError } from '../errors.js'
import type { ServerProcess } from './server-process.js'

/** What the readiness probe needs (server/readiness.ts), plus what only a launched server has. */
export interface ReadySettings extends Pick<ProbeSettings, 'side' | 'baseUrl' | 'model' | 'apiKey' | 'timeoutMs'> {
  /** `stop_command` is set: a clean exit of the command means "started detached". */
  detachedAllowed: boolean
  /** The log file as shown in messages, e.g. `logs/baseline-server.log`. */
  logName: string
  log?: (line: string) => void
}

const MAX_WAIT_MS = 2_000

export async function waitUntilReady(server: ServerProcess, settings: ReadySettings): Promise<ProbeResult> {
  const started = Date.now()
  let wait = 100
  let attempts = 0
  let lastProblem: string
  let lastReport = started
  for (;;) {
    const exit = server.exit
    if (exit && !(settings.detachedAllowed && exit.code === 0 && exit.spawnError === null)) {
      const how = exit.spawnError ? `could not be started (${exit.spawnError})` : `exited with ${exit.signal ?? `status ${exit.code}`}`
      throw new LaunchError(
        'launch.exited_before_ready',
        `${settings.side} server ${how} before it was ready, after ${seconds(Date.now() - started)} s; last lines of ${settings.logName}:${quote(server.lastLines())}`,
        { field: `deployments.${settings.side}.launch.command`, value: settings.logName }
      )
    }
    attempts++
    // One attempt at a time: the launched server's own timeout (ready_timeout_seconds) is this
    // loop's, so the attempt's problem is kept as it is for the message below.
    const attempt = await probeOnce(settings)
    if (attempt.ok) return { ...attempt.result, attempts, elapsedMs: Date.now() - started }
    lastProblem = attempt.problem
    const elapsed = Date.now() - started
    if (elapsed >= settings.timeoutMs) {
      throw new LaunchError(
        'launch.ready_timeout',
        `${settings.side} server was not ready after ${seconds(elapsed)} s: its readiness timeout is ${seconds(settings.timeoutMs).replace(/\.0$/, '')} s (deployments.${settings.side}.launch.ready_timeout_seconds; last probe: ${lastProblem}); last lines of ${settings.logName}:${quote(server.lastLines())}`,
        { field: `deployments.${settings.side}.launch.ready_timeout_seconds`, value: Math.round(settings.timeoutMs / 1000) }
      )
    }
    if (Date.now() - lastReport >= 30_000) {
      lastReport = Date.now()
      settings.log?.(`[${settings.side}] server starting for ${seconds(elapsed)} s (${lastProblem})`)
    }
    await sleepUnlessExited(server, Math.min(wait, settings.timeoutMs - elapsed))
    wait = Math.min(wait * 2, MAX_WAIT_MS)
  }
}

/**
 * Before launching: nothing may answer at the address yet. With a sequential schedule both
 * sides usually use the same port; a leftover server there (the previous side's container that
 * ignored its stop, someone else's) would be probed and measured in place of the launched one.
 */
export async function addressAnswers(baseUrl: string): Promise<number | null> {
  try {
    const response = await request(routeUrl(baseUrl, 'models'), { method: 'GET', headersTimeout: 2_000, bodyTimeout: 2_000 })
    await response.body.dump()
    return response.statusCode
  } catch {
    return null
  }
}

async function sleepUnlessExited(server: ServerProcess, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([server.exited, new Promise(resolve => (timer = setTimeout(resolve, Math.max(ms, 0))))])
  clearTimeout(timer)
}

function quote(lines: string[]): string {
  return lines.length === 0 ? ' (empty)' : `\n${lines.map(line => `  ${line}`).join('\n')}`
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1)
}
