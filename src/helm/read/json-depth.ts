/**
 * The nesting-depth limit of every HELM file the gate parses, and the one-pass check that guards
 * JSON.parse with it (json-stream.ts parses natively what fits in memory; json-stream-parser.ts
 * checks the depth as it goes).
 */
import { InputError } from '../../errors.js'

/**
 * Deepest nesting accepted in any HELM file. HELM's own files nest about a dozen levels; the
 * limit keeps every later walk over a parsed value (canonical JSON, error messages) far from the
 * call-stack limit, and a 100,000-deep array is reported as what it is instead of a crash.
 */
export const MAX_JSON_DEPTH = 256

const QUOTE = 0x22
const BACKSLASH = 0x5c

export function tooDeep(file: string, offset?: number): InputError {
  return new InputError(
    'input.too_deep',
    `${file} nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep${offset === undefined ? '' : ` (at byte ${offset})`}; no HELM file does, so it is damaged or hostile`,
    { file, field: `depth > ${MAX_JSON_DEPTH}`, value: offset }
  )
}

/**
 * Whether JSON text nests deeper than `limit`, by one pass over its characters (brackets inside
 * strings do not count). No recursion and no allocation, so any depth is safe and the check costs
 * a small fraction of the parse it guards. Given the UTF-8 bytes, it reads them instead: every
 * byte of a multi-byte character is above 0x7f, so quotes, backslashes and brackets are the same
 * bytes as characters, and indexing bytes is several times faster than `charCodeAt`.
 */
export function textExceedsDepth(text: string | Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  if (typeof text !== 'string') return bytesExceedDepth(text, limit)
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) {
      inString = true
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return false
}

/**
 * Inside a string only its closing quote matters, so the search for it is left to the native
 * `indexOf` (memchr speed) instead of a JavaScript loop over every byte: scenario_state.json is
 * mostly prompt and completion text, and this made the check about three times faster on a
 * real-shaped file (bench/compare.mjs). A quote preceded by an odd run of backslashes is escaped.
 */
function bytesExceedDepth(bytes: Uint8Array, limit: number): boolean {
  let depth = 0
  const n = bytes.length
  for (let i = 0; i < n; i++) {
    const c = bytes[i]
    if (c === QUOTE) {
      let close = bytes.indexOf(QUOTE, i + 1)
      for (;;) {
        if (close < 0) return false
        let slashes = 0
        while (bytes[close - 1 - slashes] === BACKSLASH) slashes++
        if (slashes % 2 === 0) break
        close = bytes.indexOf(QUOTE, close + 1)
      }
      i = close
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return false
}
