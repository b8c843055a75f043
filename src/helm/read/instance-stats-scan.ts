/**
 * A targeted scanner for per_instance_stats.json held in memory: it returns the entries with only
 * the fields the reader uses (instance_id, train_trial_index, perturbation, and per stat its name,
 * count and sum), and checks the syntax of everything else without building it.
 *
 * Why not JSON.parse: a real-shaped file of 5,000 instances with HELM's 23 stats each is 31 MB,
 * and JSON.parse builds about 700,000 objects and a million key strings that the reader then
 * drops (six of a stat's nine fields are never used). Measured with bench/compare.mjs on such a
 * file (Node 20): toString + depth check + JSON.parse take about 2.5 times as long as this scan,
 * and the whole read of the file about twice as long.
 *
 * The scanner accepts only plain, well-formed JSON: an escape in a string is decoded, but anything
 * outside the usual shape is not interpreted here. On HELM's NaN/Infinity tokens, a syntax error,
 * nesting beyond a few levels, a `__proto__` key or a non-array top level it gives up (returns
 * undefined) and the caller reads the file with the general parser, which accepts those tokens
 * and reports real errors with their byte offset. So this scanner never decides that a file is
 * good: it only makes the common case fast, and gives the same values as the general parser
 * (tested on every fixture and on damaged files).
 */

/** Thrown inside the scanner to give up; never leaves this module. */
class GiveUp {}
const GIVE_UP = new GiveUp()

/** Deeper than this, leave the file to the general parser (it enforces MAX_JSON_DEPTH). */
const MAX_SKIP_DEPTH = 32
/** 10^k is exact for k <= 22, and a decimal of at most 15 digits is an exact integer. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k)
const MAX_FAST_DIGITS = 15

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const MINUS = 0x2d
const ZERO = 0x30
const NINE = 0x39
const DOT = 0x2e

/** A stat with the three fields the reader reads (others are checked and left out). */
export interface ScannedStat {
  name?: unknown
  count?: unknown
  sum?: unknown
}

export interface ScannedEntry {
  instance_id?: unknown
  train_trial_index?: unknown
  perturbation?: unknown
  stats?: unknown
}

/**
 * The entries of a per_instance_stats.json text, or undefined when the general parser must read it.
 * Equal stat names may be one shared object: the caller must not modify what it gets.
 */
export function scanPerInstanceStats(bytes: Uint8Array): ScannedEntry[] | undefined {
  try {
    return new Scanner(bytes).document()
  } catch (error) {
    if (error === GIVE_UP) return undefined
    throw error
  }
}

const ENTRY_KEYS = keyTable(['instance_id', 'train_trial_index', 'perturbation', 'stats'])
const STAT_KEYS = keyTable(['name', 'count', 'sum'])

/** Keys as byte arrays, to compare in place without building a string per key. */
function keyTable(keys: string[]): { name: string; bytes: Uint8Array }[] {
  return keys.map(name => ({ name, bytes: Buffer.from(name, 'latin1') }))
}

class Scanner {
  private p = 0
  /** Strings built, by fingerprint, to reuse one string for the thousands of equal metric names. */
  private readonly cache: (string | undefined)[] = new Array<string | undefined>(CACHE_SLOTS)

  /** Per stat position, where the last name object built there was, and the value. */
  private readonly names: { start: number; end: number; value: unknown }[] = []

  constructor(private readonly b: Uint8Array) {}

  document(): ScannedEntry[] {
    this.space()
    if (this.b[this.p] !== OPEN_BRACKET) throw GIVE_UP
    this.p++
    const entries: ScannedEntry[] = []
    if (this.next() === CLOSE_BRACKET) {
      this.p++
    } else {
      for (;;) {
        this.space()
        entries.push(this.b[this.p] === OPEN_BRACE ? this.entry() : (this.value(0) as ScannedEntry))
        if (this.endOfMember(CLOSE_BRACKET)) break
      }
    }
    this.space()
    if (this.p !== this.b.length) throw GIVE_UP
    return entries
  }

  private entry(): ScannedEntry {
    this.p++
    const entry: ScannedEntry = {}
    if (this.next() === CLOSE_BRACE) {
      this.p++
      return entry
    }
    for (;;) {
      const key = this.key(ENTRY_KEYS)
      this.space()
      if (key === 'stats' && this.b[this.p] === OPEN_BRACKET) entry.stats = this.stats()
      else if (key === null) this.skip(1)
      else entry[key as keyof ScannedEntry] = this.value(1)
      if (this.endOfMember(CLOSE_BRACE)) return entry
    }
  }

  private stats(): unknown[] {
    this.p++
    const stats: unknown[] = []
    if (this.next() === CLOSE_BRACKET) {
      this.p++
      return stats
    }
    for (;;) {
      this.space()
      stats.push(this.b[this.p] === OPEN_BRACE ? this.stat(stats.length) : this.value(2))
      if (this.endOfMember(CLOSE_BRACKET)) return stats
    }
  }

  private stat(position: number): ScannedStat {
    this.p++
    const stat: ScannedStat = {}
    if (this.next() === CLOSE_BRACE) {
      this.p++
      return stat
    }
    for (;;) {
      const key = this.key(STAT_KEYS)
      this.space()
      if (key === null) this.skip(3)
      else if (key === 'name') stat.name = this.statName(position)
      else stat[key as keyof ScannedStat] = this.value(3)
      if (this.endOfMember(CLOSE_BRACE)) return stat
    }
  }

  /**
   * A stat's name object. Entries list the same stats in the same order, so the name at a position
   * is usually byte for byte the one the previous entry had there: then that value is returned
   * again instead of building an equal one (a JSON value's text ends where it ends, so equal bytes
   * over the earlier value's length are the same value).
   */
  private statName(position: number): unknown {
    const b = this.b
    const start = this.p
    const earlier = this.names[position]
    if (earlier !== undefined) {
      const length = earlier.end - earlier.start
      if (start + length <= b.length) {
        let k = 0
        while (k < length && b[start + k] === b[earlier.start + k]) k++
        if (k === length) {
          this.p = start + length
          return earlier.value
        }
      }
    }
    const value = this.value(3)
    this.names[position] = { start, end: this.p, value }
    return value
  }

  /**
   * Reads `"key":` and returns the key when it is one of `known`, else null (its value is then
   * skipped). Any other key with an escape or a byte above 0x7f is left to the general parser.
   */
  private key(known: { name: string; bytes: Uint8Array }[]): string | null {
    this.space()
    const b = this.b
    if (b[this.p] !== QUOTE) throw GIVE_UP
    const start = this.p + 1
    let end = start
    for (;;) {
      const c = b[end]
      if (c === QUOTE) break
      if (c === undefined || c < 0x20 || c === BACKSLASH || c > 0x7e) throw GIVE_UP
      end++
    }
    this.p = end + 1
    if (this.next() !== COLON) throw GIVE_UP
    this.p++
    const length = end - start
    for (const { name, bytes } of known) {
      if (bytes.length !== length) continue
      let same = true
      for (let k = 0; k < length; k++) {
        if (b[start + k] !== bytes[k]) {
          same = false
          break
        }
      }
      if (same) return name
    }
    // JSON.parse makes `__proto__` an own property; the general parser handles that case.
    if (length === 9 && String.fromCharCode(...b.subarray(start, end)) === '__proto__') throw GIVE_UP
    return null
  }

  /** After a member: true at `close` (consumed), false after a comma; anything else gives up. */
  private endOfMember(close: number): boolean {
    const c = this.next()
    this.p++
    if (c === COMMA) return false
    if (c === close) return true
    throw GIVE_UP
  }

  /** Skips whitespace and returns the next byte (undefined at the end). */
  private next(): number | undefined {
    this.space()
    return this.b[this.p]
  }

  private space(): void {
    const b = this.b
    let p = this.p
    let c = b[p]
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++p]
    this.p = p
  }

  /** Builds the value at the cursor (a whole, small JSON value). */
  private value(depth: number): unknown {
    if (depth > MAX_SKIP_DEPTH) throw GIVE_UP
    const c = this.next()
    if (c === QUOTE) return this.string()
    if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) return this.number()
    if (c === OPEN_BRACE) {
      this.p++
      const object: Record<string, unknown> = {}
      if (this.next() === CLOSE_BRACE) {
        this.p++
        return object
      }
      for (;;) {
        this.space()
        if (this.b[this.p] !== QUOTE) throw GIVE_UP
        const key = this.string()
        if (key === '__proto__') throw GIVE_UP
        if (this.next() !== COLON) throw GIVE_UP
        this.p++
        object[key] = this.value(depth + 1)
        if (this.endOfMember(CLOSE_BRACE)) return object
      }
    }
    if (c === OPEN_BRACKET) {
      this.p++
      const array: unknown[] = []
      if (this.next() === CLOSE_BRACKET) {
        this.p++
        return array
      }
      for (;;) {
        array.push(this.value(depth + 1))
        if (this.endOfMember(CLOSE_BRACKET)) return array
      }
    }
    return this.literal()
  }

  /** Checks the value at the cursor and moves past it without building it. */
  private skip(depth: number): void {
    if (depth > MAX_SKIP_DEPTH) throw GIVE_UP
    const c = this.next()
    if (c === QUOTE) {
      this.stringEnd()
    } else if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) {
      this.numberEnd()
    } else if (c === OPEN_BRACE) {
      this.p++
      if (this.next() === CLOSE_BRACE) {
        this.p++
        return
      }
      for (;;) {
        this.space()
        if (this.b[this.p] !== QUOTE) throw GIVE_UP
        this.stringEnd()
        if (this.next() !== COLON) throw GIVE_UP
        this.p++
        this.skip(depth + 1)
        if (this.endOfMember(CLOSE_BRACE)) return
      }
    } else if (c === OPEN_BRACKET) {
      this.p++
      if (this.next() === CLOSE_BRACKET) {
        this.p++
        return
      }
      for (;;) {
        this.skip(depth + 1)
        if (this.endOfMember(CLOSE_BRACKET)) return
      }
    } else {
      this.literal()
    }
  }

  private literal(): boolean | null {
    if (this.word('true')) return true
    if (this.word('false')) return false
    if (this.word('null')) return null
    // NaN, Infinity and anything else: the general parser's business.
    throw GIVE_UP
  }

  private word(w: string): boolean {
    const b = this.b
    for (let k = 0; k < w.length; k++) if (b[this.p + k] !== w.charCodeAt(k)) return false
    this.p += w.length
    return true
  }

  /**
   * Moves past a string (cursor on its opening quote) and returns whether it is plain printable
   * ASCII without escapes. Raw control characters and bad escapes give up, as JSON.parse rejects them.
   */
  private stringEnd(): boolean {
    const b = this.b
    let p = this.p + 1
    let plain = true
    for (;;) {
      const c = b[p]
      if (c === QUOTE) break
      if (c === undefined || c < 0x20) throw GIVE_UP
      if (c === BACKSLASH) {
        plain = false
        const e = b[p + 1]
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) if (!isHex(b[p + k])) throw GIVE_UP
          p += 6
          continue
        }
        if (!(e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) {
          throw GIVE_UP
        }
        p += 2
        continue
      }
      if (c > 0x7e) plain = false
      p++
    }
    this.p = p + 1
    return plain
  }

  private string(): string {
    const start = this.p
    const plain = this.stringEnd()
    const end = this.p
    if (!plain) {
      // Escapes and UTF-8: decoded exactly as JSON.parse of the decoded text decodes them.
      return JSON.parse(Buffer.from(this.b.buffer, this.b.byteOffset + start, end - start).toString('utf8')) as string
    }
    return this.plainString(start + 1, end - 1)
  }

  /** Bytes [start, end) as a string, reusing an equal earlier one (metric names repeat per entry). */
  private plainString(start: number, end: number): string {
    const b = this.b
    const length = end - start
    if (length === 0) return ''
    // A cheap fingerprint picks the one cached string that may be equal; equality is then checked.
    const slot = (length * 31 + b[start] * 7 + b[end - 1] * 13 + b[start + (length >> 1)]) & (CACHE_SLOTS - 1)
    const cached = this.cache[slot]
    if (cached !== undefined && cached.length === length) {
      let k = 0
      while (k < length && cached.charCodeAt(k) === b[start + k]) k++
      if (k === length) return cached
    }
    const made = Buffer.from(b.buffer, b.byteOffset + start, length).toString('latin1')
    this.cache[slot] = made
    return made
  }

  /** Moves past a JSON number, checking its grammar; returns [start, digits, fast value or NaN]. */
  private numberEnd(): number {
    const b = this.b
    let p = this.p
    const negative = b[p] === MINUS
    if (negative) p++
    let c = b[p]
    let mantissa = 0
    let digits = 0
    if (c === ZERO) {
      c = b[++p]
      digits = 1
    } else if (c !== undefined && c > ZERO && c <= NINE) {
      while (c !== undefined && c >= ZERO && c <= NINE) {
        mantissa = mantissa * 10 + (c - ZERO)
        digits++
        c = b[++p]
      }
    } else {
      throw GIVE_UP
    }
    let scale = 0
    if (c === DOT) {
      c = b[++p]
      if (!(c !== undefined && c >= ZERO && c <= NINE)) throw GIVE_UP
      while (c !== undefined && c >= ZERO && c <= NINE) {
        mantissa = mantissa * 10 + (c - ZERO)
        digits++
        scale++
        c = b[++p]
      }
    }
    let exact = digits <= MAX_FAST_DIGITS
    if (c === 0x65 || c === 0x45) {
      exact = false
      c = b[++p]
      if (c === 0x2b || c === MINUS) c = b[++p]
      if (!(c !== undefined && c >= ZERO && c <= NINE)) throw GIVE_UP
      while (c !== undefined && c >= ZERO && c <= NINE) c = b[++p]
    }
    this.p = p
    if (!exact) return NaN
    // Both operands exact, so the one division is correctly rounded, as JSON.parse rounds.
    const magnitude = scale === 0 ? mantissa : mantissa / POWERS_OF_TEN[scale]
    return negative ? -magnitude : magnitude
  }

  private number(): number {
    const start = this.p
    const fast = this.numberEnd()
    if (!Number.isNaN(fast)) return fast
    return Number(Buffer.from(this.b.buffer, this.b.byteOffset + start, this.p - start).toString('latin1'))
  }
}

const CACHE_SLOTS = 1024

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))
}
