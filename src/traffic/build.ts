/**
 * `helm-gate traffic build`, the pure part (docs/traffic.md, "Building a set"): log lines in, the
 * frozen set and its summary out. Order of the steps, and why:
 *
 * 1. every line parsed (an error names the file, line and field; other endpoints are an error, or
 *    a counted skip with `skipNonChat`), Batch API output lines joined to their input lines;
 * 2. fields kept out of the set removed, then every string scrubbed (credentials, e-mail
 *    addresses, phone numbers), before deduplication, so two requests that differ only in an
 *    address are one request in the set;
 * 3. duplicates removed: the same messages after whitespace normalisation (the first one kept);
 * 4. stratified by tag and prompt-length bucket, and sampled with the seed (sample.ts).
 *
 * The output is a function of the inputs, the options and the seed only: no clock, no machine.
 */
import { createHash } from 'node:crypto'
import { InputError } from '../errors.js'
import type { TrafficInstance, TrafficMessage } from '../config/traffic-set.js'
import { quantile } from '../stats/quantile.js'
import { parseLogLine, type LogRequest, type LogResponse } from './log-lines.js'
import { allocate, bucketBounds, bucketOf, pick } from './sample.js'
import { dropFields, noCounts, scrubValue, type ScrubCounts } from './scrub.js'

/**
 * Request fields left out by default: `user` identifies an end user, `metadata` and `store` are
 * the team's logging settings; none of them changes the answer.
 */
export const DEFAULT_DROPPED_FIELDS = ['user', 'metadata', 'store'] as const

export interface BuildOptions {
  count: number
  seed: number
  tagField: string
  /** Top-level request fields kept out of the set, besides the defaults. */
  dropFields: string[]
  /** Count Batch lines for other endpoints as skipped instead of failing on them. */
  skipNonChat: boolean
}

export interface LogFile {
  /** The name shown in errors and in the summary (as the user gave it). */
  name: string
  text: string
}

export interface StratumCount {
  stratum: string
  available: number
  sampled: number
}

export interface TrafficSummary {
  seed: number
  count_requested: number
  count_written: number
  tag_field: string
  inputs: Array<{ file: string; requests: number; responses: number; skipped_not_chat: number }>
  requests_read: number
  skipped_not_chat: number
  duplicates_removed: { exact: number; near: number }
  distinct_requests: number
  /** Prompt length in characters of message text; buckets are the distinct requests' tertiles. */
  length_buckets: { short: string; medium: string; long: string }
  strata: StratumCount[]
  prompt_chars: { min: number; p50: number; p90: number; p99: number; max: number } | null
  /** Replacements made in the written set, by kind. */
  replacements: ScrubCounts
  /** Top-level request fields removed from the written set, with how many requests had each. */
  fields_removed: Record<string, number>
  with_reference: number
  with_logged_response: number
  with_arrival: boolean
  notes: string[]
}

export interface BuiltSet {
  instances: TrafficInstance[]
  summary: TrafficSummary
}

interface Candidate {
  record: LogRequest
  request: LogRequest['request']
  reference: string | null
  response: LogRequest['response']
  counts: ScrubCounts
  removed: string[]
  length: number
  key: string
  exact: string
  /** 1-based position among the requests read (files in order): `t-<n>` when the log has no id. */
  position: number
}

export function buildTrafficSet(files: LogFile[], options: BuildOptions): BuiltSet {
  const requests: LogRequest[] = []
  const responses = new Map<string, LogResponse>()
  const inputs: TrafficSummary['inputs'] = []
  let skipped = 0
  for (const file of files) {
    const input = { file: file.name, requests: 0, responses: 0, skipped_not_chat: 0 }
    file.text.split('\n').forEach((text, i) => {
      if (text.trim() === '') return
      const record = parseLogLine(text, file.name, i + 1, { tagField: options.tagField })
      if (record.kind === 'request') {
        requests.push(record)
        input.requests++
      } else if (record.kind === 'response') {
        const earlier = responses.get(record.customId)
        if (earlier) {
          throw new InputError('traffic.duplicate_id', `line ${record.line}: a second Batch API output for one custom_id`, {
            file: record.file,
            field: `line ${record.line}: custom_id`,
            value: record.customId
          })
        }
        responses.set(record.customId, record)
        input.responses++
      } else {
        if (!options.skipNonChat) {
          throw new InputError(
            'traffic.not_chat',
            `line ${record.line}: a Batch API request for ${record.url}, not chat completions (give --skip-non-chat to count and skip such lines)`,
            { file: record.file, field: `line ${record.line}: url`, value: record.url }
          )
        }
        input.skipped_not_chat++
        skipped++
      }
    })
    inputs.push(input)
  }
  joinResponses(requests, responses)

  const dropped = [...new Set([...DEFAULT_DROPPED_FIELDS, ...options.dropFields])]
  const candidates: Candidate[] = requests.map((record, index) => {
    const counts = noCounts()
    const copy = { ...record.request }
    const removed = dropFields(copy, dropped)
    const request = scrubValue(copy, counts) as LogRequest['request']
    const reference = record.reference === null ? null : (scrubValue(record.reference, counts) as string)
    const response = record.response === null ? null : (scrubValue(record.response, counts) as LogRequest['response'])
    return {
      record,
      request,
      reference,
      response,
      counts,
      removed,
      length: promptLength(request.messages),
      // Digests, not the JSON itself: a log of 100,000 requests held twice more as text was
      // most of the build's memory.
      key: digest(JSON.stringify(request.messages.map(normalised))),
      exact: digest(JSON.stringify(request)),
      position: index + 1
    }
  })

  const seen = new Map<string, Candidate>()
  const duplicates = { exact: 0, near: 0 }
  for (const c of candidates) {
    const first = seen.get(c.key)
    if (!first) seen.set(c.key, c)
    else if (first.exact === c.exact) duplicates.exact++
    else duplicates.near++
  }
  const pool = [...seen.values()]
  if (pool.length === 0) {
    throw new InputError('traffic.empty', 'the logs hold no chat request', { file: files.map(f => f.name).join(', ') })
  }
  const bounds = bucketBounds(pool.map(c => c.length))
  const strata = new Map<string, Candidate[]>()
  for (const c of pool) {
    const name = `${c.record.tag ?? 'all'}/${bucketOf(c.length, bounds)}`
    const members = strata.get(name)
    if (members) members.push(c)
    else strata.set(name, [c])
  }
  const shares = allocate(new Map([...strata].map(([name, items]) => [name, items.length])), options.count)
  const chosen = new Set<Candidate>()
  const stratumOf = new Map<Candidate, string>()
  for (const [name, items] of strata) {
    for (const c of pick(items, shares.get(name) as number, options.seed, name)) {
      chosen.add(c)
      stratumOf.set(c, name)
    }
  }
  // The set keeps the log's order (files as given, then lines): a reviewer reads it as it happened.
  const sample = pool.filter(c => chosen.has(c))
  const withTimes = sample.filter(c => c.record.timestamp !== null).length
  // Loops, not Math.min(...xs): a spread of a few hundred thousand arguments overflows the stack.
  const first = sample.reduce((m, c) => Math.min(m, c.record.timestamp ?? Infinity), Infinity)
  const arrivals = sample.length > 0 && withTimes === sample.length
  const notes: string[] = []
  if (withTimes > 0 && !arrivals) {
    notes.push(`${withTimes} of ${sample.length} sampled requests had a timestamp: arrival_ms is left out (it needs every one)`)
  }
  if (options.count > pool.length) {
    notes.push(`the log has ${pool.length} distinct requests, fewer than the ${options.count} asked for: all of them are in the set`)
  }
  const missing = [...strata.keys()].filter(name => shares.get(name) === 0)
  if (missing.length > 0)
    notes.push(`${missing.length} strata got no request (the count is below the number of strata): ${missing.join(', ')}`)

  // Ids from the log's position, not the set's: the same request keeps its id whatever the seed.
  const instances: TrafficInstance[] = sample.map(c => ({
    id: c.record.id ?? `t-${c.position}`,
    stratum: stratumOf.get(c) as string,
    tag: c.record.tag,
    request: c.request as TrafficInstance['request'],
    reference: c.reference,
    logged_response: c.response,
    arrival_ms: arrivals ? Math.round((c.record.timestamp as number) - first) : null
  }))
  const ids = new Map<string, Candidate>()
  sample.forEach((c, i) => {
    const other = ids.get(instances[i].id)
    if (other) {
      throw new InputError(
        'traffic.duplicate_id',
        `line ${c.record.line}: the id is already used by ${other.record.file} line ${other.record.line}`,
        {
          file: c.record.file,
          field: `line ${c.record.line}: id`,
          value: instances[i].id
        }
      )
    }
    ids.set(instances[i].id, c)
  })

  const replacements = noCounts()
  const fieldsRemoved: Record<string, number> = {}
  for (const c of sample) {
    for (const kind of Object.keys(replacements) as Array<keyof ScrubCounts>) replacements[kind] += c.counts[kind]
    for (const name of c.removed) fieldsRemoved[name] = (fieldsRemoved[name] ?? 0) + 1
  }
  const lengths = sample.map(c => c.length)
  const summary: TrafficSummary = {
    seed: options.seed,
    count_requested: options.count,
    count_written: instances.length,
    tag_field: options.tagField,
    inputs,
    requests_read: requests.length,
    skipped_not_chat: skipped,
    duplicates_removed: duplicates,
    distinct_requests: pool.length,
    length_buckets: { short: `< ${bounds.low} chars`, medium: `${bounds.low}-${bounds.high - 1} chars`, long: `>= ${bounds.high} chars` },
    strata: [...strata.keys()].sort().map(name => ({
      stratum: name,
      available: (strata.get(name) as Candidate[]).length,
      sampled: shares.get(name) as number
    })),
    prompt_chars:
      lengths.length === 0
        ? null
        : {
            min: lengths.reduce((m, n) => Math.min(m, n), Infinity),
            p50: Math.round(quantile(lengths, 0.5)),
            p90: Math.round(quantile(lengths, 0.9)),
            p99: Math.round(quantile(lengths, 0.99)),
            max: lengths.reduce((m, n) => Math.max(m, n), 0)
          },
    replacements,
    fields_removed: Object.fromEntries(Object.entries(fieldsRemoved).sort(([a], [b]) => (a < b ? -1 : 1))),
    with_reference: instances.filter(i => i.reference !== null).length,
    with_logged_response: instances.filter(i => i.logged_response !== null).length,
    with_arrival: arrivals,
    notes
  }
  return { instances, summary }
}

/** Batch API outputs onto their inputs; an output without its input is an error, not dropped. */
function joinResponses(requests: LogRequest[], responses: Map<string, LogResponse>): void {
  const byId = new Map<string, LogRequest>()
  for (const r of requests) {
    if (r.id === null) continue
    const earlier = byId.get(r.id)
    if (earlier) {
      throw new InputError('traffic.duplicate_id', `line ${r.line}: the id is already used by ${earlier.file} line ${earlier.line}`, {
        file: r.file,
        field: `line ${r.line}: custom_id`,
        value: r.id
      })
    }
    byId.set(r.id, r)
  }
  for (const [id, out] of responses) {
    const input = byId.get(id)
    if (!input) {
      throw new InputError('traffic.unmatched_response', `line ${out.line}: a Batch API output whose custom_id is in no input line`, {
        file: out.file,
        field: `line ${out.line}: custom_id`,
        value: id
      })
    }
    if (input.response === null) input.response = out.response
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64')
}

/** The text of a message's content: a string, or the text of its parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    return content.map(p => (p && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('\n')
  }
  return ''
}

/** Prompt length in characters: every message's text and tool-call arguments. */
export function promptLength(messages: TrafficMessage[]): number {
  let n = 0
  for (const m of messages) {
    n += contentText(m.content).length
    for (const call of m.tool_calls ?? []) {
      const args = (call as { function?: { arguments?: unknown } }).function?.arguments
      if (typeof args === 'string') n += args.length
    }
  }
  return n
}

/** A message with its text's whitespace collapsed: the near-duplicate key. */
function normalised(m: TrafficMessage): unknown {
  const squash = (s: string): string => s.replace(/\s+/g, ' ').trim()
  const content =
    typeof m.content === 'string'
      ? squash(m.content)
      : Array.isArray(m.content)
        ? m.content.map(p =>
            p && typeof (p as { text?: unknown }).text === 'string' ? { ...(p as object), text: squash((p as { text: string }).text) } : p
          )
        : m.content
  return { ...m, content }
}

/** The summary as printed for review. */
export function renderSummary(summary: TrafficSummary, outFile: string, summaryFile: string): string {
  const lines: string[] = []
  lines.push(
    `Traffic set: ${summary.count_written} requests written to ${outFile} (asked for ${summary.count_requested}, seed ${summary.seed})`
  )
  lines.push(
    `Read ${summary.requests_read} requests from ${summary.inputs.length} file(s); ${summary.skipped_not_chat} non-chat lines skipped; duplicates removed: ${summary.duplicates_removed.exact} exact, ${summary.duplicates_removed.near} near (whitespace); ${summary.distinct_requests} distinct`
  )
  lines.push(
    `Length buckets (prompt characters): short ${summary.length_buckets.short}, medium ${summary.length_buckets.medium}, long ${summary.length_buckets.long}`
  )
  lines.push('Strata (sampled / available):')
  const width = Math.max(...summary.strata.map(s => s.stratum.length), 8)
  for (const s of summary.strata) lines.push(`  ${s.stratum.padEnd(width)}  ${String(s.sampled).padStart(5)} / ${s.available}`)
  const p = summary.prompt_chars
  if (p) lines.push(`Prompt characters: min ${p.min}, p50 ${p.p50}, p90 ${p.p90}, p99 ${p.p99}, max ${p.max}`)
  const r = summary.replacements
  lines.push(`Scrubbed in the set: ${r.secret} credentials, ${r.email} e-mail addresses, ${r.phone} phone numbers`)
  const removed = Object.entries(summary.fields_removed)
  lines.push(`Fields removed: ${removed.length ? removed.map(([k, n]) => `${k} (${n})`).join(', ') : 'none'}`)
  lines.push(
    `With a reference: ${summary.with_reference}; with a logged response: ${summary.with_logged_response}; arrival times: ${summary.with_arrival ? 'yes' : 'no'}`
  )
  for (const note of summary.notes) lines.push(`Note: ${note}`)
  lines.push(`Summary: ${summaryFile}`)
  return `${lines.join('\n')}\n`
}
