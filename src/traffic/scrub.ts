/**
 * Scrubbing what must not go into a repository from a traffic record: credentials (the project's
 * one redactor, secrets/redact.ts, over the whole text, so a key inside a sentence, a URL, a JSON
 * value or a multi-line block goes and the rest stays), e-mail addresses and phone numbers. Every
 * replacement is counted by kind, so the summary says what was taken out.
 *
 * Phone numbers are found by layout, not with a numbering-plan library (libphonenumber-js): the
 * scrubber must over-match any number written like a phone number in any country, while such a
 * library needs a default region for national formats (`06 12 34 56 78`, `98765 43210`, `555-0123`
 * are found only when the right country is guessed) and keeps only numbers valid in a known plan
 * (bench/phone-matchers.mjs measures both on the same corpus). Bare digit runs are left alone
 * (order numbers, amounts, ids): a phone number is `+` and 7-15 digits, or digit groups joined by
 * spaces, dots, dashes or parentheses, 7-15 digits in all.
 */
import { isCredentialKey, redactText } from '../secrets/redact.js'

export const PLACEHOLDERS = { secret: '[secret]', email: '[email]', phone: '[phone]' } as const
export type ScrubKind = keyof typeof PLACEHOLDERS
export type ScrubCounts = Record<ScrubKind, number>

export function noCounts(): ScrubCounts {
  return { secret: 0, email: 0, phone: 0 }
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g
// `+` and 7-15 digits, or two or more digit groups (a group in parentheses too) joined by one
// space, dot, dash or a parenthesis. Not inside a word, a version, a path or a longer number: the
// look-behind and look-ahead refuse a digit group run on either side, so a number too long to be
// a phone number is left whole rather than cut into a phone-sized piece.
const PHONE =
  /(?<![\w+.\-/:@#$€£%,]|\d[ .-])(?:\+\d{7,15}|(?:\+[ ]?)?(?:\(\d{1,5}\)[ .-]?|\d{1,8}(?:[ .-]|(?=\()))(?:\(\d{1,5}\)[ .-]?|\d{1,8}[ .-])*\d{1,8})(?![\w+]|[ .,\-/:]\d)/g
const DATE = /(?:^|\D)(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4})(?:\D|$)/

/** Whether a digit-group run found by PHONE is written as a phone number is (see the docs). */
export function isPhoneLayout(match: string): boolean {
  const digits = match.replace(/\D/g, '').length
  if (digits < 7 || digits > 15) return false
  // Dates (2024-05-01, 01.05.2024, a date followed by an hour) are digit groups too.
  if (DATE.test(match)) return false
  const international = match.startsWith('+')
  const groups = [...match.matchAll(/\(?\d+\)?/g)].map(group => group[0])
  const dotted = /^\+?[\d.]+$/.test(match)
  // Dot-joined groups with a one-digit group are a version (10.0.19041.1234) or an amount
  // (1.234.567); two dot-joined groups are a decimal number; four groups of at most three digits
  // an IPv4 address.
  if (dotted && !international && (groups.length === 2 || groups.some(group => group.length === 1))) return false
  if (dotted && /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(match)) return false
  // A list or range of years (2019 2020 2021, 1990-2020).
  if (!international && groups.every(group => /^(?:19|20)\d\d$/.test(group))) return false
  // A one-digit group is a trunk or country prefix at the start (1 800 555 0199, 8 (495) ...), the
  // first group after a country code (+33 6 12 34 56 78, +81 3-1234-5678) or in parentheses
  // ((0)20); anywhere else the digits are a list or an ISBN, not a phone number.
  if (groups.some((group, index) => /^\d$/.test(group) && index > (international ? 1 : 0))) return false
  return true
}

/** A string with credentials, e-mail addresses and phone numbers replaced, counting each. */
export function scrubText(text: string, counts: ScrubCounts): string {
  let out = redactText(text, PLACEHOLDERS.secret, () => counts.secret++)
  out = out.replace(EMAIL, () => {
    counts.email++
    return PLACEHOLDERS.email
  })
  out = out.replace(PHONE, match => {
    if (!isPhoneLayout(match)) return match
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
