/**
 * Recognising and hiding credentials in anything helm-gate prints or stores: error values, the
 * prod_env files shown by `plan` and kept in run-manifest.json, URLs. Redaction goes by
 * structure (the key a value sits under, the parts of a URL), with value patterns as a second
 * net, because a key written under an unexpected name must not leak either.
 */

import { secretlintFindings } from './secretlint-rules.js'

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

/**
 * A hand-written second net for vendor prefixes, for keys shorter or looser than the rule set's
 * exact formats (secretlint matches an OpenAI key only with its full length and marker; a scrubber
 * must hide a truncated or test key too).
 */
const VENDOR_PREFIX =
  /(?<![A-Za-z0-9])(?:sk-[A-Za-z0-9_-]{8,}|sk_(?:live_|test_)?[A-Za-z0-9]{8,}|rk_(?:live|test)_[A-Za-z0-9]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_\w{16,}|xox[abeoprs]-[A-Za-z0-9-]{8,}|xapp-[A-Za-z0-9-]{8,}|hf_[A-Za-z0-9]{16,}|(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}|AIza[0-9A-Za-z_-]{30,}|ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}|npm_[A-Za-z0-9]{30,}|glpat-[0-9A-Za-z_-]{20,})/g
/** A JSON Web Token: base64url header (always `{"...` so `eyJ`), payload and signature. */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g
/**
 * A private key, every line of it: from its BEGIN line to the matching END line, or to the end of
 * the text when the END line is missing (a key cut short by a log's line limit is still a key).
 * Lines may be real newlines or JSON's `\n`.
 */
const PRIVATE_KEY = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/g
/** An authorisation scheme and its credential (`Bearer abc...`, `Basic dXNlcjpwYXNz`). */
const AUTH_SCHEME = /\b(?:[Bb]earer|Basic|Digest|token)[ \t]+([A-Za-z0-9._~+/=-]{7,}[A-Za-z0-9_~+/=-])/g
/** `name = value`, `"name": "value"`, `name: value`, `\"name\": \"value\"` (JSON inside JSON). */
const ASSIGNMENT =
  /(\\?["']?)([A-Za-z_][A-Za-z0-9_.-]{0,80})\1[ \t]*(?:=>|:=|=|:)[ \t]*(?:\\"((?:[^"\\\n]|\\(?!"))*)\\"|"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s,;&"'<>(){}[\]]+))/g
/** `--api-key VALUE`, `-password VALUE`: a command-line flag and its separate argument. */
const FLAG_ARGUMENT = /(?<![\w-])--?([A-Za-z][A-Za-z0-9_-]*)[ \t]+(["']?)([^\s"']+)\2/g
/**
 * Words of a name in text whose last word marks a credential: `api_key`, `X-Api-Key`,
 * `aws_secret_access_key`. Not `pass` (`pass: 3` is a verdict count far more often than a password).
 */
const CREDENTIAL_LAST_WORD =
  /^(?:.*key|.*token|.*secret|.*password|.*passwd|pwd|passphrase|credentials?|auth|authorization|authentication|bearer|cookie)$/
const NOT_CREDENTIAL_WORDS = new Set(['monkey', 'turkey', 'donkey', 'hockey', 'jockey', 'whiskey', 'hotkey', 'keypass'])
/**
 * Values that already are placeholders, `${NAME}` templates or empty-ish words: nothing to hide. A
 * bare `$NAME` is hidden: a password may start with `$`.
 */
const NOT_A_VALUE = /^(?:\*+|\(hidden\)|\[secret\]|<[^>]*>|\$\{[A-Za-z_][A-Za-z0-9_]*\}|null|none|true|false|undefined|required|optional)$/i
/** Type names and literals that follow a key name in code, not a credential. */
const CODE_WORD = /^(?:string|number|boolean|bigint|symbol|object|unknown|any|never|void|str|int|bytes|dict|Optional\[?\w*\]?)$/
/** Ids with a known prefix that are not credentials (completion, call, request, message ids). */
const ID_PREFIX = /^(?:chatcmpl|cmpl|call|req|msg|run|resp|file|asst|thread|batch|evt|toolu|srvtoolu|span|trace)[-_]/

/** Whether a name written in text (a key, a header, a flag) names a credential: its last word does. */
function namesCredentialInText(name: string): boolean {
  const last = words(name).pop()
  return last !== undefined && CREDENTIAL_LAST_WORD.test(last) && !NOT_CREDENTIAL_WORDS.has(last)
}

function entropyBitsPerChar(text: string): number {
  const counts = new Map<string, number>()
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length)
  return bits
}

/**
 * A long random token with no known format: mixed-case letters and digits with high entropy. A
 * `/` is allowed (base64 keys have it) unless a segment is a path word (`/home/runner/...`); `.`
 * is not (host names, file names and versions have it).
 */
function isRandomToken(token: string): boolean {
  if (token.length < 24 || token.length > 512 || ID_PREFIX.test(token)) return false
  if (!/^[A-Za-z0-9_\-+/=]+$/.test(token)) return false
  if (token.includes('/') && token.split('/').some(segment => /^[a-z][a-z_-]{3,}$/.test(segment))) return false
  // A path or a name made of words with a random suffix (mkdtemp's `/tmp/helm-gate-launch-repo-XTM7GJ`)
  // is not a key: two or more of its parts are lowercase words. Whether the suffix happens to hold
  // an upper-case letter and a digit must not decide it (it did, and hid temporary folders in logs).
  if (token.split(/[/_.-]/).filter(part => /^[a-z]{3,}$/.test(part)).length >= 2) return false
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/[0-9]/.test(token)) return false
  return entropyBitsPerChar(token) >= 3.5
}

/** The kinds of credential the redactor finds, for the docs and the tests. */
export type CredentialKind =
  | 'private-key'
  | 'url-userinfo'
  | 'url-query'
  | 'key-value'
  | 'flag-argument'
  | 'auth-scheme'
  | 'jwt'
  | 'secretlint'
  | 'vendor-prefix'
  | 'random-token'

export interface CredentialFinding {
  start: number
  end: number
  kind: CredentialKind
}

/** The user and password of a URL and the values of its query and fragment, as ranges of `text`. */
function urlFindings(text: string): CredentialFinding[] {
  const found: CredentialFinding[] = []
  for (const match of text.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi)) {
    const url = match[0]
    const at = match.index
    const afterScheme = url.indexOf('://') + 3
    const rest = url.slice(afterScheme)
    // The user part ends at the first `@`; a `:` before it that is not a port (digits up to the
    // next `/`) means a password follows. A password with `/`, `!` or `#` in it still ends at `@`.
    const userEnd = rest.indexOf('@')
    if (userEnd > 0) {
      const userinfo = rest.slice(0, userEnd)
      const colon = userinfo.indexOf(':')
      const hostFirst = /^[^:/?#]*:\d+(?:[/?#]|$)/.test(userinfo) || (colon < 0 && /[/?#]/.test(userinfo))
      if (!hostFirst) {
        const base = at + afterScheme
        if (colon < 0) found.push({ start: base, end: base + userEnd, kind: 'url-userinfo' })
        else {
          if (colon > 0) found.push({ start: base, end: base + colon, kind: 'url-userinfo' })
          if (colon + 1 < userEnd) found.push({ start: base + colon + 1, end: base + userEnd, kind: 'url-userinfo' })
        }
      }
    }
    // Query and fragment values: `?key=abc&x=1#access_token=...`.
    const query = url.search(/[?#]/)
    if (query >= 0) {
      for (const pair of url.slice(query + 1).matchAll(/([^=&#?]*)=([^&#]*)/g)) {
        if (pair[2] === '') continue
        const start = at + query + 1 + pair.index + pair[1].length + 1
        found.push({ start, end: start + pair[2].length, kind: 'url-query' })
      }
    }
  }
  return found
}

function assignmentFindings(text: string): CredentialFinding[] {
  const found: CredentialFinding[] = []
  const assignment = new RegExp(ASSIGNMENT.source, 'g')
  for (let match = assignment.exec(text); match !== null; match = assignment.exec(text)) {
    const name = match[2]
    const groups = [match[3], match[4], match[5], match[6]]
    const index = groups.findIndex(value => value !== undefined)
    const value = groups[index] as string
    if (!namesCredentialInText(name)) {
      // `"note": "password: abc"`: the quoted value of an ordinary key may hold an assignment of
      // its own, so the search goes on right after this key rather than after its value.
      assignment.lastIndex = match.index + match[1].length + name.length
      continue
    }
    if (value === '' || NOT_A_VALUE.test(value)) continue
    // `key => !known.has(key)` is an arrow function, not a hash entry (`'password' => 'x'` is).
    if (index === 3 && match[1] === '' && /^[^=:]*=>/.test(match[0].slice(name.length))) continue
    // Code about keys rather than a key: a call (`key = requestKey(s)`), a type (`apiKey: string`),
    // an operator (`key === 'path'`).
    if (index === 3 && (text[match.index + match[0].length] === '(' || CODE_WORD.test(value) || !/[A-Za-z0-9]/.test(value))) continue
    // `api_key_env: BASELINE_KEY` names a variable, not a key.
    if (/_env$/i.test(name) && /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(value) && !isRandomToken(value)) continue
    // An unquoted scheme word (`Authorization: Bearer abc`) is left to AUTH_SCHEME, which hides
    // what follows it.
    if (index === 3 && /^(?:Bearer|Basic|Digest|token)$/i.test(value)) continue
    const end = match.index + match[0].length - (index === 0 ? 2 : index === 3 ? 0 : 1)
    found.push({ start: end - value.length, end, kind: 'key-value' })
  }
  for (const match of text.matchAll(FLAG_ARGUMENT)) {
    if (!namesCredentialInText(match[1]) || match[3].startsWith('-') || NOT_A_VALUE.test(match[3])) continue
    const end = match.index + match[0].length - match[2].length
    found.push({ start: end - match[3].length, end, kind: 'flag-argument' })
  }
  return found
}

function patternFindings(text: string, pattern: RegExp, kind: CredentialKind, group = 0): CredentialFinding[] {
  return [...text.matchAll(pattern)].map(match => {
    const start = match.index + (group === 0 ? 0 : match[0].lastIndexOf(match[group]))
    return { start, end: start + match[group].length, kind }
  })
}

function randomTokenFindings(text: string): CredentialFinding[] {
  return [...text.matchAll(/[A-Za-z0-9_\-+/=]{24,}/g)]
    .filter(match => isRandomToken(match[0]))
    .map(match => ({
      start: match.index,
      end: match.index + match[0].length,
      kind: 'random-token' as const
    }))
}

/**
 * Every credential in a text, as ranges: the structural rules first (private-key blocks, the user,
 * password and query values of URLs, values under credential-like names, authorisation schemes),
 * then the value rules (JWTs, secretlint's recommended rule set, vendor prefixes, random tokens).
 * Ranges may overlap; `redactText` merges them.
 */
export function findCredentials(text: string): CredentialFinding[] {
  if (text.length === 0) return []
  return [
    ...patternFindings(text, PRIVATE_KEY, 'private-key'),
    ...urlFindings(text),
    ...assignmentFindings(text),
    // A scheme word followed by a plain word is prose (`token expiring`), not a credential.
    ...patternFindings(text, AUTH_SCHEME, 'auth-scheme', 1).filter(
      f => /[0-9._~+/=-]/.test(text.slice(f.start, f.end)) || f.end - f.start >= 20
    ),
    ...patternFindings(text, JWT, 'jwt'),
    ...secretlintFindings(text).map(({ start, end }) => ({ start, end, kind: 'secretlint' as const })),
    ...patternFindings(text, VENDOR_PREFIX, 'vendor-prefix'),
    ...randomTokenFindings(text)
  ]
}

/**
 * A text with every credential replaced by `placeholder` (overlapping findings are merged into
 * one). `onHidden` is called once per hidden range, so a caller can count them.
 */
export function redactText(text: string, placeholder = '***', onHidden?: (kind: CredentialKind) => void): string {
  const findings = findCredentials(text).sort((a, b) => a.start - b.start || b.end - a.end)
  if (findings.length === 0) return text
  let out = ''
  let at = 0
  let current: CredentialFinding | null = null
  for (const finding of findings) {
    if (current !== null && finding.start <= current.end) {
      current.end = Math.max(current.end, finding.end)
      continue
    }
    if (current !== null) {
      out += text.slice(at, current.start) + placeholder
      at = current.end
      onHidden?.(current.kind)
    }
    current = { ...finding }
  }
  if (current !== null) {
    out += text.slice(at, current.start) + placeholder
    at = current.end
    onHidden?.(current.kind)
  }
  return out + text.slice(at)
}

/**
 * Whether a string looks like a credential: it holds one of the redactor's findings, or it is a
 * long random token (not words, paths, URLs or version numbers).
 */
export function looksLikeSecret(text: string): boolean {
  const trimmed = text.trim()
  if (trimmed.length >= 24 && !/\s/.test(trimmed) && !trimmed.includes('/') && isRandomToken(trimmed)) return true
  return findCredentials(text).some(finding => finding.kind !== 'url-query')
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

/**
 * One stored or shown string, redacted: a string that is a credential and nothing else becomes
 * the one word for hidden values, HIDDEN; otherwise each credential in it becomes `***`.
 */
export function redactString(value: string, redactOne: (text: string) => string = redactText): string {
  const redacted = redactOne(value)
  return redacted === '***' && value !== '***' ? HIDDEN : redacted
}

/**
 * A copy of a parsed document (YAML or JSON) with every value under a credential-like key
 * hidden and every credential inside a string (URL parts included) redacted by `redactOne`
 * (the redactor, or a log masker that also knows the run's own keys). Each string is redacted on
 * its own, so the document stays valid whatever a finding spans. Deeper than `depth` levels the
 * subtree is hidden whole.
 */
export function redactTree(value: unknown, depth = 32, redactOne: (text: string) => string = redactText): unknown {
  if (typeof value === 'string') return redactString(value, redactOne)
  if (value === null || typeof value !== 'object') return value
  if (depth <= 0) return HIDDEN
  if (Array.isArray(value)) return value.map(item => redactTree(item, depth - 1, redactOne))
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const secret = isCredentialKey(key) && !isVariableName(key, item) && item !== null && item !== undefined && item !== ''
    out[key] = secret ? HIDDEN : redactTree(item, depth - 1, redactOne)
  }
  return out
}
