/**
 * Recognising and hiding credentials in anything helm-gate prints or stores: error values, the
 * prod_env files shown by `plan` and kept in run-manifest.json, URLs. Redaction goes by
 * structure (the key a value sits under, the parts of a URL), with value patterns as a second
 * net, because a key written under an unexpected name must not leak either.
 */

export const HIDDEN = '(hidden)'

/** Words of a key name that mark a credential; `tokenizer` and `max_tokens` are not. */
const CREDENTIAL_WORD = /^(?:.*key|.*token|.*secret|.*password|.*passwd|pwd|credentials?|auth.*|bearer|cookie|private)$/
const SAFE_WORDS = new Set(['tokenizer', 'tokenizers', 'monkey', 'turkey'])

/** Splits `client_spec.args.apiKey`, `HF-TOKEN` or `openaiApiKey` into lower-case words. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(w => w.toLowerCase())
}

/** Whether a key (or the last segment of a key path) names a credential. */
export function isCredentialKey(name: string): boolean {
  const last =
    name
      .split(/[.[\]]/)
      .filter(Boolean)
      .pop() ?? name
  return words(last).some(w => CREDENTIAL_WORD.test(w) && !SAFE_WORDS.has(w))
}

/**
 * `api_key_env: BASELINE_KEY` names an environment variable, not a key: shown, as long as it
 * really is a variable name (a key pasted there is still hidden).
 */
function isVariableName(key: string, value: unknown): boolean {
  return /_env$/i.test(key) && typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(value) && !looksLikeSecret(value)
}

/** Well-known key formats: OpenAI, GitHub, Slack, Hugging Face, AWS, Anthropic, bearer headers. */
const SECRET_PREFIX =
  /(?:^|[^A-Za-z0-9])(?:sk-[A-Za-z0-9_-]{8,}|sk_[A-Za-z0-9]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_\w{16,}|xox[abpr]-[A-Za-z0-9-]{8,}|hf_[A-Za-z0-9]{16,}|AKIA[0-9A-Z]{16}|Bearer\s+\S{8,})/

function entropyBitsPerChar(text: string): number {
  const counts = new Map<string, number>()
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length)
  return bits
}

/**
 * Whether a string looks like a credential: a known key format, or a long token of mixed-case
 * letters and digits with high entropy (random keys; not words, paths, URLs or version numbers).
 */
export function looksLikeSecret(text: string): boolean {
  if (SECRET_PREFIX.test(text)) return true
  const trimmed = text.trim()
  if (trimmed.length < 24 || trimmed.length > 512 || /\s/.test(trimmed)) return false
  if (!/^[A-Za-z0-9_\-+/=.]+$/.test(trimmed) || trimmed.includes('/') || trimmed.includes('.')) return false
  if (!/[a-z]/.test(trimmed) || !/[A-Z]/.test(trimmed) || !/[0-9]/.test(trimmed)) return false
  return entropyBitsPerChar(trimmed) >= 3.5
}

/**
 * Whether a value (of any shape) holds a credential: a credential-looking string anywhere, or
 * anything under a credential-like key. Walks at most `depth` levels; deeper is treated as
 * secret, so a hostile value can neither leak nor exhaust the stack.
 */
export function containsSecret(value: unknown, depth = 16): boolean {
  if (typeof value === 'string') return looksLikeSecret(value)
  if (value === null || typeof value !== 'object') return false
  if (depth <= 0) return true
  if (Array.isArray(value)) return value.some(item => containsSecret(item, depth - 1))
  return Object.entries(value as Record<string, unknown>).some(
    ([key, item]) =>
      (isCredentialKey(key) && !isVariableName(key, item) && item !== null && item !== undefined && item !== '') ||
      containsSecret(item, depth - 1)
  )
}

/** The value to show in a message about `keyPath`: the value itself, or HIDDEN. */
export function shownValue(keyPath: string, value: unknown): unknown {
  if (value === undefined || value === null) return value
  const key =
    keyPath
      .split(/[.[\]]/)
      .filter(Boolean)
      .pop() ?? keyPath
  if (isCredentialKey(keyPath) && !isVariableName(key, value)) return HIDDEN
  return containsSecret(value) ? HIDDEN : value
}

/**
 * A URL with its userinfo and every query value hidden: `https://u:p@h/v1?key=abc` becomes
 * `https://***:***@h/v1?key=***`. Text that is not a URL is returned unchanged.
 */
export function redactUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return text
  }
  if (!url.username && !url.password && !url.search) return text
  if (url.username) url.username = '***'
  if (url.password) url.password = '***'
  if (url.search) {
    const names = [...url.searchParams.keys()]
    url.search = names.map(name => `${encodeURIComponent(name)}=***`).join('&')
  }
  return url.href.replace(/%2A%2A%2A/g, '***')
}

/** Every URL inside a longer text (a message, a log line), redacted. */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, match => redactUrl(match))
}

/**
 * A copy of a parsed document (YAML or JSON) with every value under a credential-like key
 * hidden, every credential-looking string hidden and every URL redacted. Deeper than `depth`
 * levels the subtree is hidden whole.
 */
export function redactTree(value: unknown, depth = 32): unknown {
  if (typeof value === 'string') return looksLikeSecret(value) ? HIDDEN : redactUrl(value)
  if (value === null || typeof value !== 'object') return value
  if (depth <= 0) return HIDDEN
  if (Array.isArray(value)) return value.map(item => redactTree(item, depth - 1))
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const secret = isCredentialKey(key) && !isVariableName(key, item) && item !== null && item !== undefined && item !== ''
    out[key] = secret ? HIDDEN : redactTree(item, depth - 1)
  }
  return out
}
