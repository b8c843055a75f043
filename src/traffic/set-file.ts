/**
 * Reading a frozen traffic set (model/traffic.ts) back: one instance per line, checked enough
 * that what is replayed is what the set says. A line that is not an instance is an error naming
 * the file, the line and the field: a set is written by `traffic build`, so a bad line means the
 * file was edited or is not a set, and guessing would replay something else.
 */
import { readFile } from 'node:fs/promises'
import { InputError } from '../errors.js'
import type { TrafficInstance } from '../model/traffic.js'

export async function readTrafficSet(file: string, field: string): Promise<TrafficInstance[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new InputError('traffic.set_unreadable', `cannot read the traffic set: ${(error as Error).message}`, { file, field })
  }
  return parseTrafficSet(text, file)
}

export function parseTrafficSet(text: string, file: string): TrafficInstance[] {
  const instances: TrafficInstance[] = []
  const ids = new Set<string>()
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    const fail = (where: string | null, message: string, value?: unknown): never => {
      throw new InputError('traffic.set_line', `line ${i + 1} of the traffic set: ${message}`, {
        file,
        field: where === null ? `line ${i + 1}` : `line ${i + 1}: ${where}`,
        ...(value === undefined ? {} : { value })
      })
    }
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      fail(null, 'is not JSON')
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(null, 'must be an instance object')
    const v = value as Record<string, unknown>
    if (typeof v.id !== 'string' || v.id === '') fail('id', 'id must be a non-empty string', v.id)
    if (ids.has(v.id as string)) fail('id', 'the id is used by an earlier line', v.id)
    ids.add(v.id as string)
    const request = v.request as Record<string, unknown> | undefined
    if (request === null || typeof request !== 'object' || Array.isArray(request))
      return fail('request', 'request must be a chat-completions body')
    if (!Array.isArray(request.messages) || request.messages.length === 0)
      fail('request.messages', 'must be a non-empty list', request.messages)
    for (const key of ['max_tokens', 'max_completion_tokens']) {
      const n = request[key]
      if (n !== undefined && n !== null && !(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
        fail(`request.${key}`, `${key} must be a positive integer`, n)
      }
    }
    const arrival = v.arrival_ms
    if (arrival !== null && arrival !== undefined && !(typeof arrival === 'number' && Number.isFinite(arrival) && arrival >= 0)) {
      fail('arrival_ms', 'arrival_ms must be milliseconds >= 0 or null', arrival)
    }
    instances.push({
      id: v.id as string,
      stratum: typeof v.stratum === 'string' ? v.stratum : 'all',
      tag: typeof v.tag === 'string' ? v.tag : null,
      request: request as TrafficInstance['request'],
      reference: typeof v.reference === 'string' ? v.reference : null,
      logged_response: (v.logged_response ?? null) as TrafficInstance['logged_response'],
      arrival_ms: typeof arrival === 'number' ? arrival : null
    })
  })
  if (instances.length === 0) throw new InputError('traffic.set_empty', 'the traffic set has no instances', { file })
  return instances
}
