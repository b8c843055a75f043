/**
 * A lenient, streaming JSON parser for HELM's output files: the byte-level push parser.
 *
 * Why not JSON.parse: scenario_state.json can be several GB, more than one JS string can hold,
 * and HELM writes the non-JSON tokens `NaN`, `Infinity` and `-Infinity` (json.dumps default,
 * docs/helm.md "Serialisation"). The parser reads bytes chunk by chunk and materialises only the
 * values a caller asks for (the elements of a big array), so memory is bounded by the largest
 * element, not by the file.
 *
 * Apart from the three extra number tokens it is as strict as JSON.parse: no comments, no
 * trailing commas, no raw control characters in strings. Values inside skipped subtrees are
 * only scanned for structure (brackets and string ends), not validated.
 *
 * Reading files with it, and the native fast path, are in json-stream.ts.
 */
import { StringDecoder } from 'node:string_decoder'
import { InputError } from '../../errors.js'
import { MAX_JSON_DEPTH, tooDeep } from './json-depth.js'

export type JsonPathSegment = string | number

/** What to do with a value found at a path outside any materialised value. */
export type JsonPlan = 'descend' | 'emit' | 'skip'

export interface JsonStreamOptions {
  /**
   * Called for the root and for every member of a `descend`ed container. `emit` materialises the
   * value and yields it; `descend` walks into it (yielding an `open` event); `skip` ignores it.
   * Default: descend into the root, emit its members.
   */
  plan?: (path: readonly JsonPathSegment[]) => JsonPlan
  /**
   * Subtrees to leave out of emitted values, as paths relative to the emitted value, `*`
   * matching any key or index (e.g. `['result', 'completions', '*', 'tokens']`). A skipped
   * object member is omitted; a skipped array element becomes null so indices stay put.
   */
  skip?: readonly (readonly string[])[]
  /** Bytes read per chunk (default 1 MiB). */
  chunkSize?: number
  /** Fed every byte of the file, in order (a content digest at no extra read). */
  digest?: { update(data: Uint8Array): unknown }
}

export type JsonStreamEvent =
  { kind: 'open'; path: JsonPathSegment[]; type: 'object' | 'array' } | { kind: 'value'; path: JsonPathSegment[]; value: unknown }

const enum Mode {
  Descend,
  Build,
  Skip
}

const enum State {
  Value,
  ArrayFirst,
  ObjectFirst,
  Key,
  Colon,
  AfterValue,
  String,
  Escape,
  Unicode,
  Bare,
  End
}

interface Frame {
  isArray: boolean
  mode: Mode
  container: Record<string, unknown> | unknown[] | null
  key: string
  index: number
  /** Partial matches of skip patterns: pairs of (pattern index, next segment position). */
  live: number[] | null
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const MAX_BARE_WORD = 64
const NUMBER_PATTERN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

const SIMPLE_ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t'
}

function isWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09
}

function isBareWordByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2b || b === 0x2e
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30
  if (b >= 0x41 && b <= 0x46) return b - 0x37
  if (b >= 0x61 && b <= 0x66) return b - 0x57
  return -1
}

function describeByte(b: number): string {
  return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`
}

/** `request_states[14].result.cached` style path. */
export function formatJsonPath(path: readonly JsonPathSegment[]): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (/^[A-Za-z_$][\w$@]*$/.test(segment)) out += out ? `.${segment}` : segment
    else out += `[${JSON.stringify(segment)}]`
  }
  return out
}

export const defaultPlan = (path: readonly JsonPathSegment[]): JsonPlan => (path.length === 0 ? 'descend' : 'emit')

/**
 * Push parser: feed chunks with write(), call end() at EOF, take events with drain().
 * Exposed for tests and for callers that read from something other than a file.
 */
export class JsonStreamParser {
  private readonly file: string
  private readonly plan: (path: readonly JsonPathSegment[]) => JsonPlan
  private readonly skipPatterns: readonly (readonly string[])[]
  private readonly stack: Frame[] = []
  private events: JsonStreamEvent[] = []
  private state: State = State.Value
  /** Bytes consumed before the current chunk. */
  private consumed = 0
  // The value being scanned (string or bare word) and where it goes.
  private valueMode: Mode = Mode.Descend
  private stringIsKey = false
  private stringText = ''
  private decoderHolds = false
  private readonly decoder = new StringDecoder('utf8')
  private unicodeDigits = 0
  private unicodeValue = 0
  private bareWord = ''
  private bareStart = 0

  constructor(file: string, options: Pick<JsonStreamOptions, 'plan' | 'skip'> = {}) {
    this.file = file
    this.plan = options.plan ?? defaultPlan
    this.skipPatterns = options.skip ?? []
  }

  /** Events produced so far; the internal queue is emptied. */
  drain(): JsonStreamEvent[] {
    const out = this.events
    this.events = []
    return out
  }

  get bytesConsumed(): number {
    return this.consumed
  }

  write(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const n = buf.length
    let i = 0
    while (i < n) {
      switch (this.state) {
        case State.String: {
          i = this.scanString(buf, i, n)
          break
        }
        case State.Escape: {
          this.takeEscape(buf[i], i)
          i++
          break
        }
        case State.Unicode: {
          const h = hexValue(buf[i])
          if (h < 0) this.fail(i, `invalid \\u escape digit ${describeByte(buf[i])}`)
          this.unicodeValue = this.unicodeValue * 16 + h
          i++
          if (++this.unicodeDigits === 4) {
            // Surrogate halves are appended as single UTF-16 code units; two consecutive halves
            // form the pair in the JS string wherever the chunk boundary fell.
            if (this.valueMode !== Mode.Skip) this.stringText += String.fromCharCode(this.unicodeValue)
            this.state = State.String
          }
          break
        }
        case State.Bare: {
          let j = i
          while (j < n && isBareWordByte(buf[j])) j++
          this.bareWord += buf.toString('latin1', i, j)
          if (this.bareWord.length > MAX_BARE_WORD) this.fail(this.bareStart - this.consumed, 'token too long')
          i = j
          if (j < n) this.finishBareWord()
          break
        }
        default: {
          const b = buf[i]
          if (isWhitespace(b)) {
            i++
            while (i < n && isWhitespace(buf[i])) i++
            break
          }
          this.structural(b, i)
          i++
        }
      }
    }
    this.consumed += n
  }

  /** Signals EOF; throws if the document is incomplete. */
  end(): void {
    if (this.state === State.Bare) this.finishBareWord()
    if (this.state !== State.End) {
      const what = this.state === State.Value && this.stack.length === 0 ? 'empty input' : 'unexpected end of file (truncated?)'
      this.fail(0, what)
    }
  }

  private structural(b: number, i: number): void {
    switch (this.state) {
      case State.Value:
        this.startValue(b, i)
        return
      case State.ArrayFirst:
        if (b === 0x5d) this.closeContainer(true, i)
        else this.startValue(b, i)
        return
      case State.ObjectFirst:
        if (b === 0x7d) this.closeContainer(false, i)
        else this.startKey(b, i)
        return
      case State.Key:
        this.startKey(b, i)
        return
      case State.Colon:
        if (b !== 0x3a) this.fail(i, `expected ':' after object key, found ${describeByte(b)}`)
        this.state = State.Value
        return
      case State.AfterValue: {
        const top = this.stack[this.stack.length - 1]
        if (b === 0x2c) {
          if (top.isArray) {
            top.index++
            this.state = State.Value
          } else {
            this.state = State.Key
          }
        } else if (b === 0x5d || b === 0x7d) {
          this.closeContainer(b === 0x5d, i)
        } else {
          this.fail(i, `expected ',' or '${top.isArray ? ']' : '}'}', found ${describeByte(b)}`)
        }
        return
      }
      case State.End:
        this.fail(i, `unexpected ${describeByte(b)} after the end of the JSON value`)
    }
  }

  private startKey(b: number, i: number): void {
    if (b !== QUOTE) this.fail(i, `expected a string key, found ${describeByte(b)}`)
    this.beginString(true, this.stack[this.stack.length - 1].mode === Mode.Skip ? Mode.Skip : Mode.Descend)
  }

  private startValue(b: number, i: number): void {
    const { mode, live } = this.childMode()
    if (b === 0x7b || b === 0x5b) {
      if (this.stack.length >= MAX_JSON_DEPTH) throw tooDeep(this.file, this.consumed + i)
      const isArray = b === 0x5b
      const container = mode === Mode.Build ? (isArray ? [] : {}) : null
      if (mode === Mode.Descend) this.events.push({ kind: 'open', path: this.currentPath(), type: isArray ? 'array' : 'object' })
      this.stack.push({ isArray, mode, container, key: '', index: 0, live })
      this.state = isArray ? State.ArrayFirst : State.ObjectFirst
      return
    }
    this.valueMode = mode
    if (b === QUOTE) {
      this.beginString(false, mode)
      return
    }
    if (b === 0x2d || (b >= 0x30 && b <= 0x39) || b === 0x4e || b === 0x49 || b === 0x74 || b === 0x66 || b === 0x6e) {
      this.bareWord = String.fromCharCode(b)
      this.bareStart = this.consumed + i
      this.state = State.Bare
      return
    }
    this.fail(i, `unexpected ${describeByte(b)} where a value was expected`)
  }

  /** How the value about to start is handled, from its parent frame (or the plan at the root). */
  private childMode(): { mode: Mode; live: number[] | null } {
    const parent = this.stack[this.stack.length - 1]
    if (!parent || parent.mode === Mode.Descend) {
      const plan = this.plan(this.currentPath())
      if (plan === 'descend') return { mode: Mode.Descend, live: null }
      if (plan === 'skip') return { mode: Mode.Skip, live: null }
      const live: number[] = []
      for (let p = 0; p < this.skipPatterns.length; p++) if (this.skipPatterns[p].length > 0) live.push(p, 0)
      return { mode: Mode.Build, live: live.length ? live : null }
    }
    if (parent.mode === Mode.Skip) return { mode: Mode.Skip, live: null }
    if (!parent.live) return { mode: Mode.Build, live: null }
    const segment = parent.isArray ? String(parent.index) : parent.key
    let next: number[] | null = null
    for (let k = 0; k < parent.live.length; k += 2) {
      const pattern = this.skipPatterns[parent.live[k]]
      const pos = parent.live[k + 1]
      if (pattern[pos] !== '*' && pattern[pos] !== segment) continue
      if (pos + 1 === pattern.length) return { mode: Mode.Skip, live: null }
      ;(next ??= []).push(parent.live[k], pos + 1)
    }
    return { mode: Mode.Build, live: next }
  }

  private beginString(isKey: boolean, mode: Mode): void {
    this.stringIsKey = isKey
    if (isKey) this.valueMode = mode
    this.stringText = ''
    this.decoderHolds = false
    this.state = State.String
  }

  /** Scans string bytes from i; returns the index to continue from. */
  private scanString(buf: Buffer, i: number, n: number): number {
    let j = i
    while (j < n) {
      const b = buf[j]
      if (b === QUOTE || b === BACKSLASH || b < 0x20) break
      j++
    }
    const decode = this.valueMode !== Mode.Skip
    if (j === n) {
      if (decode && j > i) {
        // The chunk may end inside a multi-byte character: the decoder holds its first bytes.
        this.stringText += this.decoder.write(buf.subarray(i, j))
        this.decoderHolds = true
      }
      return n
    }
    const b = buf[j]
    if (b < 0x20) this.fail(j, `raw control character ${describeByte(b)} in a string`)
    if (decode) {
      if (this.decoderHolds) {
        // end() flushes (and resets) what the decoder held back from the previous chunk.
        this.stringText += this.decoder.write(buf.subarray(i, j)) + this.decoder.end()
        this.decoderHolds = false
      } else if (j > i) {
        this.stringText += buf.toString('utf8', i, j)
      }
    }
    if (b === BACKSLASH) {
      this.state = State.Escape
    } else {
      this.finishString()
    }
    return j + 1
  }

  private takeEscape(b: number, i: number): void {
    if (b === 0x75) {
      this.unicodeDigits = 0
      this.unicodeValue = 0
      this.state = State.Unicode
      return
    }
    const text = SIMPLE_ESCAPES[b]
    if (text === undefined) this.fail(i, `invalid escape \\${String.fromCharCode(b)}`)
    if (this.valueMode !== Mode.Skip) this.stringText += text
    this.state = State.String
  }

  private finishString(): void {
    const text = this.stringText
    this.stringText = ''
    if (this.stringIsKey) {
      this.stack[this.stack.length - 1].key = text
      this.state = State.Colon
      return
    }
    this.completeValue(text, this.valueMode)
  }

  private finishBareWord(): void {
    const word = this.bareWord
    this.bareWord = ''
    if (this.valueMode === Mode.Skip) {
      this.completeValue(null, Mode.Skip)
      return
    }
    let value: number | boolean | null
    if (word === 'true') value = true
    else if (word === 'false') value = false
    else if (word === 'null') value = null
    else if (word === 'NaN') value = Number.NaN
    else if (word === 'Infinity') value = Number.POSITIVE_INFINITY
    else if (word === '-Infinity') value = Number.NEGATIVE_INFINITY
    else if (NUMBER_PATTERN.test(word)) value = Number(word)
    else {
      this.fail(this.bareStart - this.consumed, `invalid token ${JSON.stringify(word)}`)
    }
    this.completeValue(value, this.valueMode)
  }

  private closeContainer(isArray: boolean, i: number): void {
    const frame = this.stack[this.stack.length - 1]
    if (frame.isArray !== isArray) this.fail(i, `unexpected '${isArray ? ']' : '}'}'`)
    this.stack.pop()
    if (frame.mode === Mode.Descend) {
      this.afterValue()
      return
    }
    this.completeValue(frame.container, frame.mode)
  }

  private completeValue(value: unknown, mode: Mode): void {
    const parent = this.stack[this.stack.length - 1]
    if (mode === Mode.Skip) {
      if (parent && parent.mode === Mode.Build && parent.isArray) (parent.container as unknown[]).push(null)
    } else if (parent && parent.mode === Mode.Build) {
      if (parent.isArray) (parent.container as unknown[]).push(value)
      else if (parent.key === '__proto__') {
        // Plain assignment would replace the prototype; JSON.parse makes an own property.
        Object.defineProperty(parent.container, parent.key, { value, enumerable: true, writable: true, configurable: true })
      } else (parent.container as Record<string, unknown>)[parent.key] = value
    } else {
      // A value emitted by the plan, or a scalar where the plan expected a container to descend
      // into: the caller sees it and decides whether its type is acceptable.
      this.events.push({ kind: 'value', path: this.currentPath(), value })
    }
    this.afterValue()
  }

  private afterValue(): void {
    this.state = this.stack.length === 0 ? State.End : State.AfterValue
  }

  private currentPath(): JsonPathSegment[] {
    return this.stack.map(frame => (frame.isArray ? frame.index : frame.key))
  }

  private fail(i: number, what: string): never {
    const offset = this.consumed + i
    const path = formatJsonPath(this.currentPath())
    throw new InputError(
      'input.malformed_json',
      `Malformed JSON in ${this.file} at byte ${offset}${path ? ` (in ${path})` : ''}: ${what}`,
      {
        file: this.file,
        field: path || undefined,
        value: offset
      }
    )
  }
}
