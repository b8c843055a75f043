/**
 * Scrubbing what must not go into a repository from a traffic record: credentials (the project's
 * one redactor, secrets/redact.ts, applied word by word so a key inside a sentence goes and the
 * sentence stays), e-mail addresses and phone numbers. Every replacement is counted by kind, so
 * the summary says what was taken out.
 *
 * Phone numbers are found by layout, not with a numbering-plan library (libphonenumber): the
 * scrubber must over-match any number written like a phone number in any country, while such a
 * library keeps only numbers valid in a known plan and would let a made-up or foreign one through.
 * Bare digit runs are left alone (order numbers, amounts, ids): a phone number is `+` and 7-15
 * digits, or digit groups joined by spaces, dots, dashes or parentheses, 7-15 digits in all.
 */
import { isCredentialKey, looksLikeSecret } from '../secrets/redact.js'

export const PLACEHOLDERS = { secret: '[secret]', email: '[email]', phone: '[phone]' } as const
export type ScrubKind = keyof typeof PLACEHOLDERS
export type ScrubCounts = Record<ScrubKind, number>

export function noCounts(): ScrubCounts {
  return { secret: 0, email: 0, phone: 0 }
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g
// Either + and digits with optional separators, or at least three groups of digits with separators
// (the groups keep "2024-05-01" out: a date has 8 digits in three groups, so the total is checked).
const PHONE = /(?<![\w+])(?:\+\d[\d\s().-]{5,20}\d|\(?\d{2,4}\)?[\s.-]\d{2,4}[\s.-]\d{2,5}(?:[\s.-]\d{2,5})?)(?![\w])/g
const BEARER = /\bBearer\s+\S{8,}/g
// Punctuation around a word that is not part of a key (a key at the end of a sentence).
const EDGES = /^([("'`<[{]*)(.*?)([)"'`>\]},.;:!?]*)$/s

function isPhone(match: string): boolean {
  const digits = match.replace(/\D/g, '').length
  if (digits < 7 || digits > 15) return false
  // Dates (2024-05-01, 01.05.2024) and times are digit groups too: not phone numbers.
  if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$/.test(match) || /^\d{1,2}[-./]\d{1,2}[-./]\d{4}$/.test(match)) return false
  // An IPv4 address is four dot-joined groups of up to three digits: not a phone number. Amounts
  // with spaces between thousands (1 200 000) are matched: a scrubber that leaves a phone number
  // written the same way (06 123 456) would be worse than one that hides an amount.
  if (/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(match)) return false
  return true
}

/** A string with credentials, e-mail addresses and phone numbers replaced, counting each. */
export function scrubText(text: string, counts: ScrubCounts): string {
  let out = text.replace(BEARER, () => {
    counts.secret++
    return PLACEHOLDERS.secret
  })
  out = out
    .split(/(\s+)/)
    .map(word => {
      if (word.trim() === '' || word.length < 8) return word
      const [, lead, core, trail] = EDGES.exec(word) as RegExpExecArray
      if (core === '' || !looksLikeSecret(core)) return word
      counts.secret++
      return `${lead}${PLACEHOLDERS.secret}${trail}`
    })
    .join('')
  out = out.replace(EMAIL, () => {
    counts.email++
    return PLACEHOLDERS.email
  })
  out = out.replace(PHONE, match => {
    if (!isPhone(match)) return match
    counts.phone++
    return PLACEHOLDERS.phone
  })
  return out
}

/**
 * A copy of a JSON value with every string scrubbed, every value under a credential-like key
 * (`api_key`, `password`, ...) replaced whole, and the JSON held in strings (tool-call
 * `arguments`) scrubbed as JSON, so a key name inside it is seen too.
 */
export function scrubValue(value: unknown, counts: ScrubCounts, depth = 64): unknown {
  if (typeof value === 'string') return scrubJsonString(value, counts, depth)
  if (value === null || typeof value !== 'object') return value
  if (depth <= 0) {
    // Deeper than any real request: hidden whole rather than walked without end.
    counts.secret++
    return PLACEHOLDERS.secret
  }
  if (Array.isArray(value)) return value.map(item => scrubValue(item, counts, depth - 1))
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (isCredentialKey(key) && typeof item === 'string' && item !== '') {
      counts.secret++
      out[key] = PLACEHOLDERS.secret
    } else out[key] = scrubValue(item, counts, depth - 1)
  }
  return out
}

function scrubJsonString(text: string, counts: ScrubCounts, depth: number): string {
  const trimmed = text.trim()
  if ((trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'))) {
    try {
      const parsed = JSON.parse(trimmed) as unknown
      const before = { ...counts }
      const scrubbed = scrubValue(parsed, counts, depth - 1)
      // Unchanged JSON keeps its own bytes (spacing, key order), so only scrubbed text differs.
      const changed = (Object.keys(counts) as ScrubKind[]).some(k => counts[k] !== before[k])
      return changed ? JSON.stringify(scrubbed) : text
    } catch {
      // Not JSON after all: scrubbed as text.
    }
  }
  return scrubText(text, counts)
}

/** Removes the named top-level request fields (`--drop-field`); returns the names that were there. */
export function dropFields(request: Record<string, unknown>, names: readonly string[]): string[] {
  const dropped: string[] = []
  for (const name of names) {
    if (name in request) {
      delete request[name]
      dropped.push(name)
    }
  }
  return dropped
}
