/**
 * Pre-flight: is the server up and does it serve the model the gate file names? HELM itself
 * never calls /models (docs/helm.md "What the server sees"), so a wrong model name would only show up as failed
 * requests in the middle of a run. The answer is kept as the server's identity in the manifest.
 */
import { request } from 'undici'
import { redactUrl, redactText } from '../secrets/redact.js'
import { ServerNotReadyError } from '../errors.js'
import type { ServingConfig } from '../model/side-identity.js'
import { probeEngineVersion, probeServingConfig } from './engine-version.js'
import { routeUrl } from './endpoint.js'

export interface ProbeSettings {
  side: string
  /** Includes `/v1`; the probe is `GET {baseUrl}/models`. */
  baseUrl: string
  model: string
  apiKey: string | null
  /** Give up after this long (the server may still be loading weights). */
  timeoutMs: number
  /** First wait between attempts; doubles up to `maxDelayMs`. */
  initialDelayMs?: number
  maxDelayMs?: number
  /**
   * Where the timeout is set, for the message when it runs out: `run --ready-timeout SEC` unless
   * given; null when nothing sets it (the action).
   */
  timeoutHint?: string | null
  /** Progress lines while waiting: one every `progressEveryMs` (default 10 s), not one per attempt. */
  log?: (line: string) => void
  progressEveryMs?: number
}

export interface ProbeResult {
  url: string
  status: number
  attempts: number
  elapsedMs: number
  models: string[]
  /** The parsed response body (the server's identity), bounded in size. */
  response: unknown
  /** What `GET /version` answered (src/server/engine-version.ts), or null. */
  engine_version?: string | null
  /** The chat template and sampling defaults the server reports (llama.cpp /props, vLLM /tokenizer_info), or null. */
  serving_config?: ServingConfig | null
}

const ATTEMPT_TIMEOUT_MS = 5_000
const PROGRESS_EVERY_MS = 10_000
const MAX_RECORDED_BYTES = 64 * 1024

/** One attempt: the server's answer, or why it is not ready yet. Throws what retrying cannot fix. */
export type ProbeAttempt = { ok: true; result: ProbeResult } | { ok: false; problem: string }

/**
 * One `GET {baseUrl}/models`. A wrong key or a missing model is thrown (ServerNotReadyError):
 * waiting cannot fix them. Anything else (refused, HTTP 503 while loading) is returned as the
 * problem of this attempt, for the caller's retry loop and its message.
 */
export async function probeOnce(settings: Pick<ProbeSettings, 'side' | 'baseUrl' | 'model' | 'apiKey'>): Promise<ProbeAttempt> {
  const url = routeUrl(settings.baseUrl, 'models')
  // What messages and the manifest show: userinfo and query values hidden.
  const shown = redactUrl(url)
  try {
    const response = await request(url, {
      method: 'GET',
      headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
      headersTimeout: ATTEMPT_TIMEOUT_MS,
      bodyTimeout: ATTEMPT_TIMEOUT_MS
    })
    const text = await response.body.text()
    if (response.statusCode === 401 || response.statusCode === 403) {
      // Retrying cannot fix a wrong key.
      throw new ServerNotReadyError(
        'server.unauthorized',
        `${settings.side} server at ${shown} refused the API key (HTTP ${response.statusCode})`,
        { field: `deployments.${settings.side}.api_key_env`, value: shown }
      )
    }
    if (response.statusCode !== 200) return { ok: false, problem: `HTTP ${response.statusCode}` }
    const body = parseJson(text)
    const models = modelIds(body)
    if (!models.includes(settings.model)) {
      throw new ServerNotReadyError(
        'server.model_missing',
        `${settings.side} server at ${shown} does not serve model ${JSON.stringify(settings.model)} (it lists ${JSON.stringify(models)})`,
        { field: `deployments.${settings.side}.model`, value: settings.model }
      )
    }
    return {
      ok: true,
      result: {
        url: shown,
        status: response.statusCode,
        attempts: 1,
        elapsedMs: 0,
        models,
        response: text.length <= MAX_RECORDED_BYTES ? body : { truncated: true, models },
        engine_version: await probeEngineVersion(settings.baseUrl, settings.apiKey),
        serving_config: await probeServingConfig(settings.baseUrl, settings.apiKey)
      }
    }
  } catch (error) {
    if (error instanceof ServerNotReadyError) throw error
    return { ok: false, problem: redactText((error as Error).message || String(error)) }
  }
}

export async function probeServer(settings: ProbeSettings): Promise<ProbeResult> {
  const shown = redactUrl(routeUrl(settings.baseUrl, 'models'))
  const started = Date.now()
  let delay = settings.initialDelayMs ?? 250
  const maxDelay = settings.maxDelayMs ?? 5_000
  let attempts = 0
  const progressEvery = settings.progressEveryMs ?? PROGRESS_EVERY_MS
  let nextProgress = progressEvery
  for (;;) {
    attempts++
    const attempt = await probeOnce(settings)
    if (attempt.ok) return { ...attempt.result, attempts, elapsedMs: Date.now() - started }
    const lastProblem = attempt.problem
    const elapsed = Date.now() - started
    // The last attempt is made at the deadline, so the whole timeout is used.
    if (elapsed >= settings.timeoutMs) {
      const hint = settings.timeoutHint === null ? '' : ` (${settings.timeoutHint ?? 'run --ready-timeout SEC'})`
      throw new ServerNotReadyError(
        'server.not_ready',
        `${settings.side} server at ${shown} was not ready after ${Math.round(elapsed / 1000)} s and ${attempts} attempts (last: ${lastProblem}); the readiness timeout is ${seconds(settings.timeoutMs)} s${hint}`,
        { field: `deployments.${settings.side}.base_url`, value: redactUrl(settings.baseUrl) }
      )
    }
    if (elapsed >= nextProgress) {
      settings.log?.(
        `${settings.side} server at ${shown} not ready after ${seconds(elapsed)} s (${lastProblem}); waiting up to ${seconds(settings.timeoutMs)} s`
      )
      while (nextProgress <= elapsed) nextProgress += progressEvery
    }
    // Wake up at the next progress mark too, so a line comes every interval whatever the back-off.
    const wait = Math.min(delay, settings.timeoutMs - elapsed, Math.max(0, nextProgress - elapsed))
    await new Promise(resolve => setTimeout(resolve, wait))
    delay = Math.min(delay * 2, maxDelay)
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** OpenAI's shape: `{ data: [{ id }] }`. */
function modelIds(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) return []
  return data.map(item => (item as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string')
}

function seconds(ms: number): number {
  return Math.round(ms / 1000)
}
