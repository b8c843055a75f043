/**
 * `GET {base_url}/version` (vLLM answers `{"version": "0.6.3"}` at its root, so the origin's
 * /version is tried too), asked once a server is ready (src/server/readiness.ts). llama.cpp's
 * llama-server has no /version: its `GET /props` says `build_info` (`b1234-<commit>`, also each
 * response's `system_fingerprint`). Information only: a server that does not answer is not an
 * error.
 */
import { createHash } from 'node:crypto'
import { request } from 'undici'
import type { ServingConfig } from '../model/side-identity.js'
import { rootRouteUrl, routeUrl } from './endpoint.js'

const VERSION_TIMEOUT_MS = 3_000
const MAX_VERSION_LENGTH = 100

/** The engine version a server reports, or null when it does not say (never throws). */
export async function probeEngineVersion(baseUrl: string, apiKey: string | null): Promise<string | null> {
  return (await probeEngine(baseUrl, apiKey))?.version ?? null
}

/**
 * What a server says about itself, and where: `props` (llama.cpp's llama-server, `build_info`) or
 * `version` (vLLM and servers like it). Fidelity picks its route by it (src/fidelity/). Null when
 * neither answers (never throws).
 */
export async function probeEngine(
  baseUrl: string,
  apiKey: string | null
): Promise<{ endpoint: 'version' | 'props'; version: string } | null> {
  const urls: string[] = []
  try {
    urls.push(routeUrl(baseUrl, 'version'))
    const root = rootRouteUrl(baseUrl, 'version')
    if (!urls.includes(root)) urls.push(root)
    urls.push(rootRouteUrl(baseUrl, 'props'))
  } catch {
    return null
  }
  for (const url of urls) {
    try {
      const response = await request(url, {
        method: 'GET',
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        headersTimeout: VERSION_TIMEOUT_MS,
        bodyTimeout: VERSION_TIMEOUT_MS
      })
      const text = await response.body.text()
      if (response.statusCode !== 200) continue
      const body = JSON.parse(text) as { version?: unknown; build_info?: unknown } | null
      const endpoint = url.endsWith('/props') ? 'props' : 'version'
      const version = endpoint === 'props' ? body?.build_info : body?.version
      if (typeof version === 'string' && version.length > 0) return { endpoint, version: version.slice(0, MAX_VERSION_LENGTH) }
    } catch {
      // Not every server has /version or /props; the next URL, or none.
    }
  }
  return null
}

/**
 * llama.cpp's sampling-relevant defaults in `/props` `default_generation_settings` (`.params` in
 * current builds, the object itself in older ones); what a request does not set comes from these.
 */
const SAMPLING_KEYS = [
  'temperature',
  'dynatemp_range',
  'dynatemp_exponent',
  'top_k',
  'top_p',
  'min_p',
  'top_n_sigma',
  'typical_p',
  'xtc_probability',
  'xtc_threshold',
  'repeat_last_n',
  'repeat_penalty',
  'presence_penalty',
  'frequency_penalty',
  'dry_multiplier',
  'dry_base',
  'dry_allowed_length',
  'dry_penalty_last_n',
  'mirostat',
  'mirostat_tau',
  'mirostat_eta',
  'n_predict',
  'max_tokens',
  'seed',
  'ignore_eos',
  'min_keep',
  'samplers',
  'chat_format',
  'reasoning_format'
]
/** A template this short without markup is a built-in template's name (llama.cpp keeps e.g. `--chat-template llama2` as given). */
const TEMPLATE_NAME = /^[A-Za-z0-9][\w.-]{0,39}$/
/**
 * Built-in templates an engine reports by their text, known by its sha256: llama.cpp replaces
 * `--chat-template chatml` (and a model without a template) with its own ChatML source
 * (CHATML_TEMPLATE_SRC in common/chat.cpp), so /props shows the text, not the name.
 */
const KNOWN_TEMPLATES = new Map([['cc145ac597328b60dbce2631dce17c0c84bb6a87b2380cc0473e2e1291965db7', 'chatml (llama.cpp built-in)']])

/**
 * The serving configuration a server reports, or null (never throws): llama.cpp's `GET /props`
 * (chat template, default generation settings), else vLLM's `GET /tokenizer_info` (its chat
 * template; vLLM answers only with `--enable-tokenizer-info-endpoint`).
 */
export async function probeServingConfig(baseUrl: string, apiKey: string | null): Promise<ServingConfig | null> {
  for (const [route, read] of [
    ['props', servingFromProps],
    ['tokenizer_info', servingFromTokenizerInfo]
  ] as const) {
    let url: string
    try {
      url = rootRouteUrl(baseUrl, route)
    } catch {
      return null
    }
    try {
      const response = await request(url, {
        method: 'GET',
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        headersTimeout: VERSION_TIMEOUT_MS,
        bodyTimeout: VERSION_TIMEOUT_MS
      })
      const text = await response.body.text()
      if (response.statusCode !== 200) continue
      const found = read(JSON.parse(text) as unknown)
      if (found) return found
    } catch {
      // Not every server has these routes; the next one, or none.
    }
  }
  return null
}

/** llama.cpp's `/props` body as a serving configuration (pure); null when it says neither. */
export function servingFromProps(body: unknown): ServingConfig | null {
  if (!isRecord(body)) return null
  const chat_template = templateIdentity(body.chat_template)
  const settings = isRecord(body.default_generation_settings) ? body.default_generation_settings : null
  const params = settings && isRecord(settings.params) ? settings.params : settings
  const sampling: Record<string, string | number | boolean> = {}
  if (params) {
    for (const key of SAMPLING_KEYS) {
      const value = scalar(params[key])
      if (value !== null) sampling[key] = value
    }
  }
  const nCtx = settings ? scalar(settings.n_ctx) : null
  if (nCtx !== null) sampling.n_ctx = nCtx
  if (!chat_template && Object.keys(sampling).length === 0) return null
  return { source: 'llama.cpp GET /props', chat_template, sampling: Object.keys(sampling).length > 0 ? sampling : null }
}

/** vLLM's `/tokenizer_info` (the tokenizer config with the chat template it applies); null without a template. */
export function servingFromTokenizerInfo(body: unknown): ServingConfig | null {
  if (!isRecord(body)) return null
  const chat_template = templateIdentity(body.chat_template)
  return chat_template ? { source: 'vLLM GET /tokenizer_info', chat_template, sampling: null } : null
}

function templateIdentity(value: unknown): ServingConfig['chat_template'] {
  // A list of named templates (Hugging Face's tokenizer_config form) is hashed as JSON.
  const text = typeof value === 'string' ? value : Array.isArray(value) ? JSON.stringify(value) : null
  if (text === null || text === '') return null
  const sha256 = createHash('sha256').update(text, 'utf8').digest('hex')
  return { sha256, name: TEMPLATE_NAME.test(text) ? text : (KNOWN_TEMPLATES.get(sha256) ?? null), length: text.length }
}

/** A setting as the report shows it: floats to 6 significant digits (llama.cpp reports float32), lists joined. */
function scalar(value: unknown): string | number | boolean | null {
  if (typeof value === 'number') return !Number.isFinite(value) ? null : Number.isInteger(value) ? value : Number(value.toPrecision(6))
  if (typeof value === 'boolean') return value
  if (typeof value === 'string') return value.slice(0, 200)
  if (Array.isArray(value) && value.every(v => typeof v === 'string' || typeof v === 'number')) return value.join(',').slice(0, 200)
  return null
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
