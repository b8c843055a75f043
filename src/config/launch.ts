/**
 * The launch part of the gate file: how helm-gate starts and stops a deployment's server
 * (`deployments.<side>.launch`), whether the two run one after the other (`schedule`), and which
 * files of the base commit join the baseline fingerprint (`fingerprint_paths`). See docs/launch.md.
 *
 *   deployments:
 *     baseline:
 *       ...
 *       launch:
 *         command: [docker, run, --rm, -p, "8000:8000", "vllm/vllm-openai:${VLLM_TAG}", ...]
 *         checkout: base            # head (default) or base
 *         env: { CUDA_VISIBLE_DEVICES: "0" }
 *         ready_timeout_seconds: 900
 *         stop: { signal: SIGTERM, timeout_seconds: 60 }
 *         stop_command: [docker, stop, hg-baseline]
 *   schedule: sequential            # default when a side launches; concurrent otherwise
 *   fingerprint_paths: [serving/**]
 *
 * Only `${NAME}` is expanded (from the environment, never through a shell); `$$` is a literal `$`.
 * The templates are checked here, the values are looked up when the side is launched.
 */
import { Fields } from './validate.js'

export type LaunchSide = 'baseline' | 'candidate'
export type Schedule = 'sequential' | 'concurrent'
export type Checkout = 'head' | 'base'

export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGQUIT', 'SIGHUP', 'SIGUSR1', 'SIGUSR2', 'SIGKILL'] as const
export type StopSignal = (typeof STOP_SIGNALS)[number]

export interface LaunchSpec {
  /** Argument array; `${NAME}` templates are expanded at launch time. */
  command: string[]
  /** `head`: the checked-out tree (the change under test); `base`: a worktree of the base commit. */
  checkout: Checkout
  /** Added to the server's environment (values may use `${NAME}` too). */
  env: Record<string, string>
  /** How long GET /models may take to list the model (loading weights takes minutes). */
  readyTimeoutSeconds: number
  stop: { signal: StopSignal; timeoutSeconds: number }
  /** Run after the process group is gone, e.g. `docker stop <name>` for detached containers. */
  stopCommand: string[] | null
  /**
   * How the side is swapped in and out between load blocks when the sides are up one at a time:
   * `restart` (stop the server, start it again), `sleep` (vLLM's sleep mode: the server stays
   * resident, `POST /sleep?level=1` frees the accelerator and `POST /wake_up` takes it back; the
   * command must pass --enable-sleep-mode), or `none` (this side cannot be swapped: each side is
   * measured in its own period).
   */
  switch: SideSwitchKind
  /** The key path, for messages: `deployments.baseline.launch`. */
  field: string
}

export type SideSwitchKind = 'restart' | 'sleep' | 'none'

export interface LaunchSettings {
  sides: Partial<Record<LaunchSide, LaunchSpec>>
  schedule: Schedule
  /** Globs over repository paths; their blob digests at the base commit join the fingerprint. */
  fingerprintPaths: string[]
}

export const DEFAULT_READY_TIMEOUT_SECONDS = 900
export const DEFAULT_STOP_TIMEOUT_SECONDS = 60

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Reads `deployments.<side>.launch`. */
export function parseLaunch(f: Fields): LaunchSpec {
  f.allow(['command', 'checkout', 'env', 'ready_timeout_seconds', 'stop', 'stop_command', 'switch'])
  const command = argumentList(f, 'command', true) as string[]
  const checkout = f.choice('checkout', ['head', 'base'] as const, 'head')
  const env: Record<string, string> = {}
  const envFields = f.object('env')
  if (envFields) {
    for (const name of envFields.keys()) {
      if (!VARIABLE.test(name)) envFields.fail(name, `${envFields.at(name)} is not a valid environment variable name`, name)
      const value = envFields.raw(name)
      if (typeof value === 'number' && Number.isFinite(value)) env[name] = String(value)
      else if (typeof value === 'string') env[name] = value
      else envFields.fail(name, `${envFields.at(name)} must be a string (quote it)`)
      checkTemplate(envFields, name, env[name])
    }
    envFields.done()
  }
  const readyTimeoutSeconds = f.number(
    'ready_timeout_seconds',
    DEFAULT_READY_TIMEOUT_SECONDS,
    n => n > 0 && n <= 86_400,
    'seconds between 0 and 86400'
  )
  const stopFields = f.object('stop')
  let stop: LaunchSpec['stop'] = { signal: 'SIGTERM', timeoutSeconds: DEFAULT_STOP_TIMEOUT_SECONDS }
  if (stopFields) {
    stopFields.allow(['signal', 'timeout_seconds'])
    stop = {
      signal: stopFields.choice('signal', STOP_SIGNALS, 'SIGTERM'),
      timeoutSeconds: stopFields.number(
        'timeout_seconds',
        DEFAULT_STOP_TIMEOUT_SECONDS,
        n => n >= 0 && n <= 3600,
        'seconds between 0 and 3600'
      )
    }
    stopFields.done()
  }
  const stopCommand = argumentList(f, 'stop_command', false)
  const sideSwitch = f.choice('switch', ['restart', 'sleep', 'none'] as const, 'restart')
  f.done()
  return { command, checkout, env, readyTimeoutSeconds, stop, stopCommand, switch: sideSwitch, field: f.path }
}

/** Reads the top-level `schedule` and `fingerprint_paths`, given the parsed launch sections. */
export function parseLaunchSettings(top: Fields, sides: Partial<Record<LaunchSide, LaunchSpec>>): LaunchSettings {
  const launches = Object.keys(sides).length > 0
  const schedule = top.choice('schedule', ['sequential', 'concurrent'] as const, launches ? 'sequential' : 'concurrent')
  const list = top.list('fingerprint_paths') ?? []
  const fingerprintPaths = list.map((item, i) => {
    const at = `fingerprint_paths[${i}]`
    if (typeof item !== 'string' || item.trim() === '') top.fail('fingerprint_paths', `${at} must be a non-empty glob`, item)
    if (item.startsWith('/') || item.split('/').includes('..')) {
      top.fail('fingerprint_paths', `${at} must be a path inside the repository (no leading / and no ..)`, item)
    }
    return item
  })
  return { sides, schedule, fingerprintPaths }
}

/**
 * Two servers launched at once must not share an address: the second could not bind, or worse,
 * its readiness probe would be answered by the first. One after the other they may (the usual
 * `-p 8000:8000` for both images): the runner checks the address is free before each launch.
 */
export function checkScheduleFits(top: Fields, settings: LaunchSettings, baseUrls: Partial<Record<LaunchSide, string>>): void {
  if (!settings.sides.baseline || !settings.sides.candidate) return
  const origin = (url: string | undefined): string | null => (url ? new URL(url).host : null)
  // A sleeping server stays resident and keeps its port: the other side cannot start on it.
  const sleeper = (['baseline', 'candidate'] as const).find(side => settings.sides[side]?.switch === 'sleep')
  if (sleeper && origin(baseUrls.baseline) === origin(baseUrls.candidate)) {
    top.fail(
      'schedule',
      `deployments.${sleeper}.launch.switch is sleep, which keeps the server resident on its port, but both launched servers use the same host and port; give each its own port`,
      'sleep'
    )
  }
  if (settings.schedule !== 'concurrent') return
  if (origin(baseUrls.baseline) === origin(baseUrls.candidate)) {
    top.fail(
      'schedule',
      'schedule is concurrent but both launched servers use the same host and port; use schedule: sequential or another port',
      'concurrent'
    )
  }
}

/** Launch needs a URL to probe and a model to look for: only `server` deployments can launch. */
export function launchNeedsServer(f: Fields): never {
  f.fail('launch', `${f.at('launch')} needs a server deployment (api, base_url, model), not prod_env`)
}

function argumentList(f: Fields, key: string, required: true): string[]
function argumentList(f: Fields, key: string, required: false): string[] | null
function argumentList(f: Fields, key: string, required: boolean): string[] | null {
  const list = f.list(key)
  if (list === null) {
    if (required) f.fail(key, `${f.at(key)} is required: the server's command as a list of arguments`, null)
    return null
  }
  if (list.length === 0) f.fail(key, `${f.at(key)} must list at least the program to run`)
  return list.map((item, i) => {
    if (typeof item === 'number' && Number.isFinite(item)) return String(item)
    if (typeof item !== 'string' || item === '') {
      f.fail(key, `${f.at(key)}[${i}] must be a non-empty string (one argument; no shell is involved)`, item)
    }
    checkTemplate(f, key, item, `${f.at(key)}[${i}]`)
    return item
  })
}

/** Rejects a malformed `${...}` now, so a typo is a config error and not a half-started server. */
function checkTemplate(f: Fields, key: string, text: string, at = f.at(key)): void {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '$') continue
    if (text[i + 1] === '$') {
      i++
      continue
    }
    if (text[i + 1] !== '{') continue
    const end = text.indexOf('}', i + 2)
    const name = end < 0 ? '' : text.slice(i + 2, end)
    if (end < 0 || !VARIABLE.test(name)) {
      f.fail(key, `${at} has a malformed variable reference; write \${NAME} (or $$ for a literal $)`, text)
    }
    i = end
  }
}
