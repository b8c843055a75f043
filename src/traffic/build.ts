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
  const read = readLogs(files, options)
  joinResponses(read.requests, read.responses)
  const candidates = scrubbedCandidates(read.requests, options)
  const { pool, duplicates } = removeDuplicates(candidates)
  if (pool.length === 0) {
    throw new InputError('traffic.empty', 'the logs hold no chat request', { file: files.map(f => f.name).join(', ') })
  }
  const bounds = bucketBounds(pool.map(c => c.length))
  const strata = stratify(pool, bounds)
  const shares = allocate(new Map([...strata].map(([name, items]) => [name, items.length])), options.count)
  const { sample, stratumOf } = sampleStrata(pool, strata, shares, options.seed)
  const arrivals = sample.length > 0 && sample.every(c => c.record.timestamp !== null)
  const instances = toInstances(sample, stratumOf, arrivals)
  checkUniqueIds(sample, instances)
  const notes = buildNotes(sample, pool, strata, shares, options.count, arrivals)
  const summary: TrafficSummary = {
    seed: options.seed,
    count_requested: options.count,
    count_written: instances.length,
    tag_field: options.tagField,
    inputs: read.inputs,
    requests_read: read.requests.length,
    skipped_not_chat: read.skipped,
    duplicates_removed: duplicates,
    distinct_requests: pool.length,
    length_buckets: { short: `< ${bounds.low} chars`, medium: `${bounds.low}-${bounds.high - 1} chars`, long: `>= ${bounds.high} chars` },
    strata: [...strata.keys()].sort().map(name => ({
      stratum: name,
      available: (strata.get(name) as Candidate[]).length,
      sampled: shares.get(name) as number
    })),
    prompt_chars: promptChars(sample.map(c => c.length)),
    ...scrubTotals(sample),
    with_reference: instances.filter(i => i.reference !== null).length,
    with_logged_response: instances.filter(i => i.logged_response !== null).length,
    with_arrival: arrivals,
    notes
  }
  return { instances, summary }
}

interface ReadLogs {
  requests: LogRequest[]
  responses: Map<string, LogResponse>
  inputs: TrafficSummary['inputs']
  skipped: number
}

/** Step 1: every line of every file parsed, requests and Batch API outputs kept apart. */
function readLogs(files: LogFile[], options: BuildOptions): ReadLogs {
  const read: ReadLogs = { requests: [], responses: new Map(), inputs: [], skipped: 0 }
  for (const file of files) {
    const input = { file: file.name, requests: 0, responses: 0, skipped_not_chat: 0 }
    file.text.split('\n').forEach((text, i) => {
      if (text.trim() === '') return
      const record = parseLogLine(text, file.name, i + 1, { tagField: options.tagField })
      if (record.kind === 'request') {
        read.requests.push(record)
        input.requests++
      } else if (record.kind === 'response') {
        const earlier = read.responses.get(record.customId)
        if (earlier) {
          throw new InputError('traffic.duplicate_id', `line ${record.line}: a second Batch API output for one custom_id`, {
            file: record.file,
            field: `line ${record.line}: custom_id`,
            value: record.customId
          })
        }
        read.responses.set(record.customId, record)
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
        read.skipped++
      }
    })
    read.inputs.push(input)
  }
  return read
}

/** Step 2: fields dropped and strings scrubbed, with the keys deduplication compares. */
function scrubbedCandidates(requests: LogRequest[], options: BuildOptions): Candidate[] {
  const dropped = [...new Set([...DEFAULT_DROPPED_FIELDS, ...options.dropFields])]
  return requests.map((record, index) => {
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
}

/** Step 3: the first of each near-duplicate key kept, the others counted as exact or near. */
function removeDuplicates(candidates: Candidate[]): { pool: Candidate[]; duplicates: { exact: number; near: number } } {
  const seen = new Map<string, Candidate>()
  const duplicates = { exact: 0, near: 0 }
  for (const c of candidates) {
    const first = seen.get(c.key)
    if (!first) seen.set(c.key, c)
    else if (first.exact === c.exact) duplicates.exact++
    else duplicates.near++
  }
  return { pool: [...seen.values()], duplicates }
}

/** Step 4a: the distinct requests grouped by tag and length bucket, in the log's order. */
function stratify(pool: Candidate[], bounds: ReturnType<typeof bucketBounds>): Map<string, Candidate[]> {
  const strata = new Map<string, Candidate[]>()
  for (const c of pool) {
    const name = `${c.record.tag ?? 'all'}/${bucketOf(c.length, bounds)}`
    const members = strata.get(name)
    if (members) members.push(c)
    else strata.set(name, [c])
  }
  return strata
}

/** Step 4b: each stratum's share picked with the seed. */
function sampleStrata(
  pool: Candidate[],
  strata: Map<string, Candidate[]>,
  shares: Map<string, number>,
  seed: number
): { sample: Candidate[]; stratumOf: Map<Candidate, string> } {
  const chosen = new Set<Candidate>()
  const stratumOf = new Map<Candidate, string>()
  for (const [name, items] of strata) {
    for (const c of pick(items, shares.get(name) as number, seed, name)) {
      chosen.add(c)
      stratumOf.set(c, name)
    }
  }
  // The set keeps the log's order (files as given, then lines): a reviewer reads it as it happened.
  return { sample: pool.filter(c => chosen.has(c)), stratumOf }
}

function toInstances(sample: Candidate[], stratumOf: Map<Candidate, string>, arrivals: boolean): TrafficInstance[] {
  // Loops, not Math.min(...xs): a spread of a few hundred thousand arguments overflows the stack.
  const first = sample.reduce((m, c) => Math.min(m, c.record.timestamp ?? Infinity), Infinity)
  // Ids from the log's position, not the set's: the same request keeps its id whatever the seed.
  return sample.map(c => ({
    id: c.record.id ?? `t-${c.position}`,
    stratum: stratumOf.get(c) as string,
    tag: c.record.tag,
    request: c.request as TrafficInstance['request'],
    reference: c.reference,
    logged_response: c.response,
    arrival_ms: arrivals ? Math.round((c.record.timestamp as number) - first) : null
  }))
}

/** A log id and a `t-<n>` id can meet in the set: the second one is an error. */
function checkUniqueIds(sample: Candidate[], instances: TrafficInstance[]): void {
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
}

/** The summary's notes: what the set could not do as asked. */
function buildNotes(
  sample: Candidate[],
  pool: Candidate[],
  strata: Map<string, Candidate[]>,
  shares: Map<string, number>,
  count: number,
  arrivals: boolean
): string[] {
  const withTimes = sample.filter(c => c.record.timestamp !== null).length
  const notes: string[] = []
  if (withTimes > 0 && !arrivals) {
    notes.push(`${withTimes} of ${sample.length} sampled requests had a timestamp: arrival_ms is left out (it needs every one)`)
  }
  if (count > pool.length) {
    notes.push(`the log has ${pool.length} distinct requests, fewer than the ${count} asked for: all of them are in the set`)
  }
  const missing = [...strata.keys()].filter(name => shares.get(name) === 0)
  if (missing.length > 0)
    notes.push(`${missing.length} strata got no request (the count is below the number of strata): ${missing.join(', ')}`)
  return notes
}

/** Replacements and removed fields summed over the written set. */
function scrubTotals(sample: Candidate[]): Pick<TrafficSummary, 'replacements' | 'fields_removed'> {
  const replacements = noCounts()
  const fieldsRemoved: Record<string, number> = {}
  for (const c of sample) {
    for (const kind of Object.keys(replacements) as Array<keyof ScrubCounts>) replacements[kind] += c.counts[kind]
    for (const name of c.removed) fieldsRemoved[name] = (fieldsRemoved[name] ?? 0) + 1
  }
  const sorted = Object.fromEntries(Object.entries(fieldsRemoved).sort(([a], [b]) => (a < b ? -1 : 1)))
  return { replacements, fields_removed: sorted }
}

function promptChars(lengths: number[]): TrafficSummary['prompt_chars'] {
  if (lengths.length === 0) return null
  return {
    min: lengths.reduce((m, n) => Math.min(m, n), Infinity),
    p50: Math.round(quantile(lengths, 0.5)),
    p90: Math.round(quantile(lengths, 0.9)),
    p99: Math.round(quantile(lengths, 0.99)),
    max: lengths.reduce((m, n) => Math.max(m, n), 0)
  }
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
