/**
 * The launched deployments of one run: what to start for each side, where (the checked-out
 * tree or a worktree of the base commit), and the records that go into manifest.json.
 * `up` starts a side's server and waits until it serves the model; `down` stops it; `close`
 * stops whatever is still up and removes the worktree. The runner calls them on a schedule
 * (side-schedule.ts) and `close` in a finally, so nothing outlives the run.
 */
import { realpath } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import type { LaunchSettings, LaunchSide, LaunchSpec } from '../config/launch.js'
import type { GateConfig } from '../config/types.js'
import { ConfigError, GateError, LaunchError } from '../errors.js'
import { request } from 'undici'
import type { ProbeResult } from '../server/readiness.js'
import { rootRouteUrl } from '../server/endpoint.js'
import { dockerIdentity } from './docker.js'
import { weightsIdentity } from './weights.js'
import { expandLaunch } from './expand.js'
import { repositoryRoot } from '../identity/git.js'
import { addressAnswers, waitUntilReady, type ReadySettings } from './ready.js'
import { cancelledBy } from '../process/registry.js'
import { ServerProcess } from './server-process.js'
import type { LaunchManifest, LaunchRecord } from '../model/launch-record.js'
export type { LaunchManifest, LaunchRecord } from '../model/launch-record.js'
import { addBaseWorktree, type Worktree } from './worktree.js'
import { redactUrl } from '../secrets/redact.js'
import { planSides, type SideEndpoint } from '../plan/run-plan.js'
import type { Side } from '../model/verdict.js'

export interface LauncherOptions {
  config: GateConfig
  /**
   * Each side's endpoint and key from the run plan (src/plan/run-plan.ts): where a launched
   * server must answer and the key it is asked with. Resolved from the gate file by the plan's
   * own function when not given (a launcher opened on its own).
   */
  endpoints?: Record<Side, SideEndpoint | null>
  /** The checked-out tree's working directory (`checkout: head`). */
  cwd: string
  /** The servers' environment: the runner's, without the runner's own credentials. */
  env: NodeJS.ProcessEnv
  /** The commit `checkout: base` runs from (the pull request's base, `--baseline-ref`). */
  baseRef: string | null
  /** The run's output folder; logs go to `<outDir>/logs/<side>-server.log`. */
  outDir: string
  /** Self-check: the baseline's server serves both sides; launched once. */
  selfCheck?: boolean
  /** API key values (masked in the logs). */
  secrets?: string[]
  progress?: (line: string) => void
  /** Every server output line (masked), for --verbose. */
  echo?: (line: string) => void
  /** Parent directory of the base worktree (default: the system temporary directory). */
  tempDir?: string
}

interface Prepared {
  spec: LaunchSpec
  /** The run plan's endpoint of the side: its base URL, model and key, in one place. */
  endpoint: SideEndpoint
  command: string[]
  env: NodeJS.ProcessEnv
  stopCommand: string[] | null
  mask: (line: string) => string
  cwd: string
  record: LaunchRecord
  server: ServerProcess | null
  users: number
}

export class Launcher {
  private worktree: Worktree | null = null

  private constructor(
    private readonly options: LauncherOptions,
    private readonly settings: LaunchSettings,
    private readonly prepared: Partial<Record<LaunchSide, Prepared>>
  ) {}

  /** Null when the gate file launches nothing. Checks every template now, before anything starts. */
  static async open(options: LauncherOptions): Promise<Launcher | null> {
    const settings = options.config.launch
    if (!settings || Object.keys(settings.sides).length === 0) return null
    const source = options.config.source
    const deployments = options.config.deployments
    if (!deployments) return null
    const prepared: Partial<Record<LaunchSide, Prepared>> = {}
    const endpoints = options.endpoints ?? planSides(options.config, options.env).endpoints
    for (const side of ['baseline', 'candidate'] as const) {
      const spec = settings.sides[side]
      if (!spec) continue
      const endpoint = endpoints[side]
      if (deployments[side].kind !== 'server' || !endpoint) {
        throw new ConfigError('config.invalid', `${spec.field} needs a server deployment`, { file: source, field: spec.field })
      }
      if (spec.checkout === 'base' && !options.baseRef) {
        throw new ConfigError(
          'launch.base_ref_missing',
          `${spec.field}.checkout is base but no base commit is known: outside a pull request give --baseline-ref REF`,
          { file: source, field: `${spec.field}.checkout`, value: 'base' }
        )
      }
      const expanded = expandLaunch(spec, options.env, source, options.secrets ?? [])
      const env = { ...options.env, ...expanded.extraEnv }
      const { command, stopCommand, mask } = expanded
      const logFile = resolve(options.outDir, 'logs', `${side}-server.log`)
      prepared[side] = {
        spec,
        endpoint,
        command,
        env,
        stopCommand,
        mask,
        cwd: options.cwd,
        server: null,
        users: 0,
        record: {
          side,
          command: spec.command,
          checkout: spec.checkout,
          commit: null,
          log_file: relative(options.outDir, logFile),
          pid: null,
          started_at: null,
          ready_at: null,
          ready_ms: null,
          stop: null,
          exit: null,
          docker: null,
          errors: []
        }
      }
    }
    const launcher = new Launcher(options, settings, prepared)
    try {
      await launcher.checkoutBase()
    } catch (error) {
      await launcher.close()
      throw error
    }
    return launcher
  }

  get schedule(): 'sequential' | 'concurrent' {
    return this.settings.schedule
  }

  /** Does `side` run against a server this launcher starts? */
  launches(side: LaunchSide): boolean {
    return this.entry(side) !== null
  }

  /** Starts the side's server (once, however many sides use it) and waits until it is ready. */
  async up(side: LaunchSide): Promise<ProbeResult> {
    const entry = this.entry(side)
    if (!entry) throw new LaunchError('launch.none', `${side} is not launched`)
    const key = this.keyOf(side)
    const signal = cancelledBy()
    if (signal) throw new LaunchError('launch.cancelled', `helm-gate received ${signal} (cancelled): the ${key} server was not launched`)
    entry.users++
    if (entry.users > 1 && entry.server) return this.ready(entry, key)
    const progress = this.options.progress ?? (() => {})
    const logName = entry.record.log_file
    try {
      const busy = await addressAnswers(entry.endpoint.baseUrl)
      if (busy !== null) {
        throw new LaunchError(
          'launch.address_in_use',
          `something already answers at ${redactUrl(entry.endpoint.baseUrl)} (HTTP ${busy}) before the ${key} server was launched; stop it first, or it would be measured in place of the launched server`,
          { field: `deployments.${key}.base_url`, value: redactUrl(entry.endpoint.baseUrl) }
        )
      }
      progress(
        `[${key}] launching the server (${entry.spec.checkout === 'base' ? `base commit ${this.worktree?.sha.slice(0, 12)}` : 'checked-out tree'}; log: ${logName})`
      )
      entry.server = await ServerProcess.start({
        label: key,
        command: entry.command,
        cwd: entry.cwd,
        env: entry.env,
        logFile: resolve(this.options.outDir, logName),
        mask: entry.mask,
        stop: entry.spec.stop,
        stopCommand: entry.stopCommand,
        echo: this.options.echo ? line => this.options.echo?.(`[${key} server] ${line}`) : undefined
      })
      entry.record.pid = entry.server.pid
      entry.record.started_at = entry.server.startedAt.toISOString()
      const result = await waitUntilReady(entry.server, { ...this.readySettings(entry, key), log: progress })
      const readyAt = new Date()
      entry.record.ready_at = readyAt.toISOString()
      entry.record.ready_ms = readyAt.getTime() - entry.server.startedAt.getTime()
      entry.record.docker = await dockerIdentity(entry.command, entry.env, entry.cwd)
      entry.record.weights = await weightsIdentity(entry.command, entry.cwd)
      progress(`[${key}] server ready after ${(entry.record.ready_ms / 1000).toFixed(1)} s: ${result.url} lists ${entry.endpoint.model}`)
      return result
    } catch (error) {
      if (error instanceof GateError) entry.record.errors.push({ code: error.code, message: error.message })
      throw error
    }
  }

  /**
   * The side's server exited by itself while in use, not stopped by helm-gate: an error naming
   * the signal or exit status and the server log's last lines, which is the cause of whatever the
   * client saw next ("Connection refused"); null while it is up. A launch command that detaches
   * (a stop command is set and it exited with status 0) did not die.
   */
  diedWhileUp(side: LaunchSide): LaunchError | null {
    const entry = this.entry(side)
    const server = entry?.server
    const exit = server?.exit
    if (!entry || !server || !exit || server.stopRequested) return null
    if (entry.stopCommand !== null && exit.code === 0 && exit.spawnError === null) return null
    const key = this.keyOf(side)
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code}`
    const lines = server.lastLines(5)
    const error = new LaunchError(
      'launch.server_died',
      `${key} server ${how} while the ${side} side was measured; last lines of ${entry.record.log_file}:${lines.length === 0 ? ' (empty)' : `\n${lines.map(line => `  ${line}`).join('\n')}`}`,
      { file: entry.record.log_file, field: `deployments.${key}.launch.command`, value: exit.signal ?? `status ${exit.code}` }
    )
    if (!entry.record.errors.some(e => e.code === error.code)) entry.record.errors.push({ code: error.code, message: error.message })
    return error
  }

  /**
   * vLLM's sleep mode (`switch: sleep`): `POST /sleep?level=1` frees the accelerator while the
   * server stays resident; `wake` takes it back and waits until the model is listed again. A
   * refusal (a server started without --enable-sleep-mode, or without VLLM_SERVER_DEV_MODE=1,
   * answers 404) is an error naming the side.
   */
  async sleep(side: LaunchSide): Promise<void> {
    await this.switchCall(side, 'sleep', 'put to sleep', { level: '1' })
  }

  async wake(side: LaunchSide): Promise<ProbeResult> {
    const key = this.keyOf(side)
    const signal = cancelledBy()
    if (signal) throw new LaunchError('launch.cancelled', `helm-gate received ${signal} (cancelled): the ${key} server was not woken`)
    await this.switchCall(side, 'wake_up', 'woken')
    const entry = this.entry(side) as Prepared
    return this.ready(entry, key)
  }

  private async switchCall(side: LaunchSide, route: string, what: string, query: Record<string, string> = {}): Promise<void> {
    const entry = this.entry(side)
    const key = this.keyOf(side)
    if (!entry?.server) throw new LaunchError('launch.none', `the ${key} server is not running: it cannot be ${what}`)
    const target = new URL(rootRouteUrl(entry.endpoint.baseUrl, route))
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value)
    const url = target.href
    const apiKey = entry.endpoint.apiKey
    let problem: string | null = null
    try {
      const answer = await request(url, {
        method: 'POST',
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        headersTimeout: entry.spec.readyTimeoutSeconds * 1000,
        bodyTimeout: entry.spec.readyTimeoutSeconds * 1000
      })
      await answer.body.dump()
      if (answer.statusCode >= 300) problem = `HTTP ${answer.statusCode}`
    } catch (error) {
      problem = (error as Error).message
    }
    if (problem !== null) {
      throw new LaunchError(
        'launch.switch_failed',
        `the ${key} server could not be ${what} (POST ${redactUrl(url)}: ${problem}); switch: sleep needs vLLM started with --enable-sleep-mode and VLLM_SERVER_DEV_MODE=1; its output is in ${entry.record.log_file}`,
        { field: `${entry.spec.field}.switch`, value: 'sleep' }
      )
    }
  }

  /** Stops the side's server when no other side still uses it. Never throws. */
  async down(side: LaunchSide): Promise<void> {
    const entry = this.entry(side)
    if (!entry) return
    entry.users = Math.max(0, entry.users - 1)
    if (entry.users > 0) return
    await this.stop(entry)
  }

  /** Stops everything still up and removes the base worktree. */
  async close(): Promise<void> {
    await Promise.all(Object.values(this.prepared).map(entry => this.stop(entry)))
    await this.worktree?.remove()
  }

  manifest(): LaunchManifest {
    return {
      schedule: this.settings.schedule,
      interleaving_possible: this.settings.schedule === 'concurrent',
      base_commit: this.worktree?.sha ?? null,
      sides: Object.fromEntries(Object.entries(this.prepared).map(([side, entry]) => [side, entry.record]))
    }
  }

  private async stop(entry: Prepared): Promise<void> {
    const server = entry.server
    if (!server) return
    const progress = this.options.progress ?? (() => {})
    const stop = await server.stop(false)
    if (!entry.record.stop) {
      entry.record.stop = stop
      entry.record.exit = server.exit ? { code: server.exit.code, signal: server.exit.signal } : null
      progress(`[${entry.record.side}] server stopped${stop.killed ? ' (killed)' : ''}`)
    }
  }

  private async ready(entry: Prepared, key: LaunchSide): Promise<ProbeResult> {
    // The second user of a shared server (self-check): it is up already; ask it again.
    return waitUntilReady(entry.server as ServerProcess, this.readySettings(entry, key))
  }

  /** What waiting for a side's server needs, for the first start and for the second user alike. */
  private readySettings(entry: Prepared, key: LaunchSide): ReadySettings {
    return {
      ...entry.endpoint,
      side: key,
      timeoutMs: entry.spec.readyTimeoutSeconds * 1000,
      detachedAllowed: entry.stopCommand !== null,
      logName: entry.record.log_file
    }
  }

  private keyOf(side: LaunchSide): LaunchSide {
    return this.options.selfCheck ? 'baseline' : side
  }

  private entry(side: LaunchSide): Prepared | null {
    return this.prepared[this.keyOf(side)] ?? null
  }

  private async checkoutBase(): Promise<void> {
    const base = Object.values(this.prepared).filter(entry => entry.spec.checkout === 'base')
    if (base.length === 0) return
    const root = await repositoryRoot(this.options.cwd, this.options.env)
    this.worktree = await addBaseWorktree(
      root,
      this.options.baseRef as string,
      this.options.env,
      this.options.progress,
      this.options.tempDir
    )
    // The same place in the base tree as the working directory in the checked-out one.
    const cwd = resolve(this.worktree.dir, relative(root, await realpath(resolve(this.options.cwd))))
    for (const entry of base) {
      entry.cwd = cwd
      entry.record.commit = this.worktree.sha
    }
  }
}
