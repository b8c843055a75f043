/**
 * A lenient, streaming JSON parser for HELM's output files.
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
 * This file reads files (natively parsed when they fit in memory); the byte-level parser is
 * json-stream-parser.ts, the depth limit json-depth.ts.
 */
import { open, readFile, stat } from 'node:fs/promises'
import { InputError } from '../../errors.js'
import { textExceedsDepth, tooDeep } from './json-depth.js'
import {
  defaultPlan,
  JsonStreamParser,
  type JsonPathSegment,
  type JsonPlan,
  type JsonStreamEvent,
  type JsonStreamOptions
} from './json-stream-parser.js'

// The module the readers import: the parser's and the depth check's names are part of it.
export { MAX_JSON_DEPTH, textExceedsDepth } from './json-depth.js'
export {
  formatJsonPath,
  JsonStreamParser,
  type JsonPathSegment,
  type JsonPlan,
  type JsonStreamEvent,
  type JsonStreamOptions
} from './json-stream-parser.js'

/**
 * Streams the events of a JSON file. Reads `chunkSize` bytes at a time into one reused buffer;
 * every yielded value is a fresh copy, so callers may keep it.
 */
export async function* streamJson(file: string, options: JsonStreamOptions = {}): AsyncGenerator<JsonStreamEvent> {
  const native = options.chunkSize === undefined ? await parseNatively(file, options.digest) : undefined
  if (native !== undefined) {
    yield* walkParsed(native.value, [], options.plan ?? defaultPlan)
    return
  }
  const parser = new JsonStreamParser(file, options)
  let handle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    throw new InputError('input.unreadable', `Cannot open ${file}: ${(error as Error).message}`, { file })
  }
  try {
    const buffer = Buffer.allocUnsafe(options.chunkSize ?? 1 << 20)
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null)
      if (bytesRead === 0) break
      options.digest?.update(buffer.subarray(0, bytesRead))
      parser.write(buffer.subarray(0, bytesRead))
      yield* parser.drain()
    }
    parser.end()
    yield* parser.drain()
  } finally {
    await handle.close()
  }
}

/**
 * Files up to this size are parsed with the native JSON.parse first: it is about ten times
 * faster than the byte-level parser, and at this size the whole document fits in memory
 * comfortably. A file it rejects (HELM's NaN/Infinity tokens, truncation) falls through to the
 * streaming parser, which accepts those tokens and names the byte offset of real errors. Larger
 * files always stream, so memory stays bounded by one element.
 */
export const NATIVE_PARSE_LIMIT = 64 * 1024 * 1024

async function parseNatively(file: string, digest: JsonStreamOptions['digest']): Promise<{ value: unknown } | undefined> {
  let text: string
  let bytes: Buffer
  try {
    const info = await stat(file)
    if (!info.isFile() || info.size > NATIVE_PARSE_LIMIT) return undefined
    bytes = await readFile(file)
    text = bytes.toString('utf8')
  } catch {
    // Let the streaming path report the problem with its usual message.
    return undefined
  }
  // JSON.parse itself copes with any depth; every later walk over the value must not have to.
  if (textExceedsDepth(bytes)) throw tooDeep(file)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  digest?.update(bytes)
  return { value }
}

/** The events the streaming parser would yield for an already parsed document. */
function* walkParsed(
  value: unknown,
  path: JsonPathSegment[],
  plan: (path: readonly JsonPathSegment[]) => JsonPlan
): Generator<JsonStreamEvent> {
  const action = plan(path)
  if (action === 'skip') return
  const container = value !== null && typeof value === 'object'
  if (action === 'emit' || !container) {
    yield { kind: 'value', path: [...path], value }
    return
  }
  if (Array.isArray(value)) {
    yield { kind: 'open', path: [...path], type: 'array' }
    for (let i = 0; i < value.length; i++) yield* walkParsed(value[i], [...path, i], plan)
    return
  }
  yield { kind: 'open', path: [...path], type: 'object' }
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) yield* walkParsed(member, [...path, key], plan)
}

/**
 * Yields the elements of a file whose top level is an array (stats.json,
 * per_instance_stats.json), with their index.
 */
export async function* streamJsonArray(
  file: string,
  options: Omit<JsonStreamOptions, 'plan'> = {}
): AsyncGenerator<{ index: number; value: unknown }> {
  for await (const event of streamJson(file, options)) {
    if (event.kind === 'open' && event.type === 'array') continue
    if (event.kind === 'value' && typeof event.path[0] === 'number') {
      yield { index: event.path[0], value: event.value }
      continue
    }
    const found = event.kind === 'open' ? `an ${event.type}` : describeJsonType(event.value)
    throw new InputError('input.wrong_type', `Expected a JSON array at the top of ${file}, found ${found}`, { file })
  }
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}

/** Parses a small document held in memory (run_spec.json, scenario.json) with the same leniency. */
export function parseLenientJson(text: string | Uint8Array, file: string): unknown {
  const parser = new JsonStreamParser(file, { plan: () => 'emit' })
  parser.write(typeof text === 'string' ? Buffer.from(text, 'utf8') : text)
  parser.end()
  const events = parser.drain()
  return events.length === 1 && events[0].kind === 'value' ? events[0].value : undefined
}
