/**
 * The requests of the load half (docs/load.md, "Workload"). Both sides get exactly the same
 * prompts in the same block pair; every block, level and warm-up gets prompts of its own, so no
 * server can answer from a prefix cache what it saw in an earlier block.
 *
 * - synthetic: token counts drawn from the configured normal distributions (rounded, clipped),
 *   text made of common English words, one word per token (exact for a whitespace tokenizer,
 *   approximate for BPE tokenizers: the report takes output counts from the server's usage);
 * - gate-set: the prompts HELM sent in the quality half (scenario_state.json), cycled;
 * - file: a JSONL of OpenAI request bodies (`messages` or `prompt`), cycled;
 * - traffic: a frozen traffic set's messages and max_tokens (docs/traffic.md), cycled in arrival
 *   order, and with `arrival: traffic` its arrival gaps scaled to each rate.
 */
import { readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Api } from '../config/types.js'
import type { LoadSettings, TokenDistribution } from '../config/load-types.js'
import { InputError } from '../errors.js'
import { discoverRuns, RUN_FILES } from '../helm/read/discover.js'
import { createRandom, type Random } from '../stats/random.js'
import { readFileSync } from 'node:fs'
import { readTrafficSet } from '../config/traffic.js'

const VOCABULARY = (
  'time year people way day man thing woman life child world school state family student group country problem hand part ' +
  'place case week company system program question work government number night point home water room mother area money ' +
  'story fact month lot right study book eye job word business issue side kind head house service friend father power hour ' +
  'game line end member law car city community name president team minute idea kid body information back parent face ' +
  'others level office door health person art war history party result change morning reason research girl guy moment air ' +
  'teacher force education foot boy age policy music market sense nation plan college interest death experience effect use ' +
  'class control care field development role effort rate heart drug show leader light voice wife police mind price report'
).split(' ')

/** One request before it is addressed to a side. */
export type WorkItem =
  | { kind: 'text'; text: string; maxTokens: number }
  | { kind: 'messages'; messages: unknown[]; maxTokens: number }
  | { kind: 'body'; body: Record<string, unknown>; maxTokens: number }

export interface WorkloadSource {
  /** The request `index` of a block (or warm-up), the same for both sides. */
  item(stream: string, index: number): WorkItem
  /**
   * `arrival: traffic` only: milliseconds from request `index` of a stream to the next at `rate`
   * requests per second, the traffic set's own gap scaled so the mean gap is 1000 / rate.
   */
  arrivalGap?(stream: string, index: number, rate: number): number
}

function draw(random: Random, d: TokenDistribution): number {
  if (d.stddev === 0) return d.mean
  const u = random.double()
  const v = random.double()
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
  return Math.min(d.max, Math.max(d.min, Math.round(d.mean + d.stddev * z)))
}

function words(random: Random, n: number): string {
  const out = new Array<string>(n)
  for (let i = 0; i < n; i++) out[i] = VOCABULARY[random.below(VOCABULARY.length)]
  return out.join(' ')
}

export function syntheticSource(settings: LoadSettings): WorkloadSource {
  const { inputTokens, outputTokens } = settings.workload
  return {
    item(stream, index) {
      const random = createRandom(settings.seed, `load:${stream}:${index}`)
      const maxTokens = draw(random, outputTokens)
      return { kind: 'text', text: words(random, draw(random, inputTokens)), maxTokens }
    }
  }
}

function cycled(items: WorkItem[], settings: LoadSettings): WorkloadSource {
  // A fixed permutation per stream, so blocks draw different prompts but both sides the same.
  return {
    item(stream, index) {
      const random = createRandom(settings.seed, `load:${stream}`)
      const offset = random.below(items.length)
      return items[(offset + index) % items.length]
    }
  }
}

export async function fileSource(settings: LoadSettings, configFile: string): Promise<WorkloadSource> {
  const file = resolve(dirname(configFile), settings.workload.file as string)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new InputError('load.workload_unreadable', `cannot read the load workload file: ${(error as Error).message}`, {
      file,
      field: 'load.workload.file'
    })
  }
  const items: WorkItem[] = []
  const fallback = settings.workload.outputTokens.mean
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    let body: unknown
    try {
      body = JSON.parse(line)
    } catch {
      throw new InputError('load.workload_line', `line ${i + 1} is not JSON`, { file, field: `line ${i + 1}` })
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new InputError('load.workload_line', `line ${i + 1} must be an OpenAI request body (an object)`, {
        file,
        field: `line ${i + 1}`
      })
    }
    const b = body as Record<string, unknown>
    if (!Array.isArray(b.messages) && typeof b.prompt !== 'string') {
      throw new InputError('load.workload_line', `line ${i + 1} has neither messages (chat) nor a prompt string (completions)`, {
        file,
        field: `line ${i + 1}`
      })
    }
    const max =
      typeof b.max_tokens === 'number' ? b.max_tokens : typeof b.max_completion_tokens === 'number' ? b.max_completion_tokens : fallback
    items.push({ kind: 'body', body: b, maxTokens: max })
  })
  if (items.length === 0) throw new InputError('load.workload_empty', 'the load workload file has no requests', { file })
  return cycled(items, settings)
}

/**
 * The traffic set's requests: the messages and max_tokens as logged (output_tokens.mean when the
 * request had none). Only those: the load half measures serving speed on the team's prompts and
 * lengths; `response_format`, `tools` and `stop` are judged by the traffic gate's replay, and
 * sending them here would fail on a server that does not support them (a vLLM without a tool
 * parser) and, with ignore_eos, could force a guided decoder past the end of its grammar.
 */
export async function trafficSource(settings: LoadSettings, configFile: string, arrival: 'traffic' | null): Promise<WorkloadSource> {
  const file = resolve(dirname(configFile), settings.workload.file as string)
  const { instances } = readTrafficSet(file, readFileSync, 'load.workload.file')
  const fallback = settings.workload.outputTokens.mean
  const ordered =
    arrival === 'traffic'
      ? instances
          .map((instance, i) => ({ instance, i }))
          .sort((a, b) => (a.instance.arrival_ms as number) - (b.instance.arrival_ms as number) || a.i - b.i)
      : instances.map((instance, i) => ({ instance, i }))
  if (arrival === 'traffic') {
    const missing = instances.findIndex(x => x.arrival_ms === null)
    if (missing >= 0) {
      throw new InputError(
        'load.traffic_arrival',
        `load.arrival is traffic but instance ${JSON.stringify(instances[missing].id)} of the traffic set has no arrival_ms (the log had no timestamps); use arrival: poisson or constant`,
        { file, field: 'load.arrival' }
      )
    }
  }
  const items: WorkItem[] = ordered.map(({ instance }) => {
    const r = instance.request
    const max =
      typeof r.max_tokens === 'number' ? r.max_tokens : typeof r.max_completion_tokens === 'number' ? r.max_completion_tokens : fallback
    return { kind: 'messages', messages: r.messages, maxTokens: max }
  })
  const source = cycled(items, settings)
  if (arrival !== 'traffic') return source
  const times = ordered.map(({ instance }) => instance.arrival_ms as number)
  const span = times[times.length - 1] - times[0]
  if (times.length < 2 || span <= 0) {
    throw new InputError(
      'load.traffic_arrival',
      'load.arrival is traffic but the traffic set has fewer than two distinct arrival times to scale',
      {
        file,
        field: 'load.arrival'
      }
    )
  }
  const meanGap = span / (times.length - 1)
  // The gap after the last request is the mean gap, so a full cycle keeps the set's mean rate.
  const gaps = times.map((t, i) => (i + 1 < times.length ? times[i + 1] - t : meanGap))
  return {
    item: source.item,
    arrivalGap(stream, index, rate) {
      const offset = createRandom(settings.seed, `load:${stream}`).below(items.length)
      return (gaps[(offset + index) % gaps.length] * (1000 / rate)) / meanGap
    }
  }
}

/** The prompts the quality half sent, from the scenario_state.json files under `helmOutput`. */
export async function gateSetSource(settings: LoadSettings, helmOutput: string): Promise<WorkloadSource> {
  const runs = await discoverRuns(helmOutput)
  const items: WorkItem[] = []
  const maxTokens = settings.workload.outputTokens.mean
  for (const run of runs) {
    if (!run.files.scenarioState) continue
    const file = join(run.path, RUN_FILES.scenarioState)
    const state = JSON.parse(await readFile(file, 'utf8')) as {
      request_states?: Array<{ request?: { prompt?: string; messages?: unknown[] } }>
    }
    for (const rs of state.request_states ?? []) {
      const request = rs.request ?? {}
      if (Array.isArray(request.messages) && request.messages.length > 0)
        items.push({ kind: 'messages', messages: request.messages, maxTokens })
      else if (typeof request.prompt === 'string' && request.prompt !== '') items.push({ kind: 'text', text: request.prompt, maxTokens })
    }
  }
  if (items.length === 0) {
    throw new InputError(
      'load.gate_set_empty',
      'load.workload.prompts is gate-set but the quality half left no prompts (scenario_state.json)',
      { file: helmOutput, field: 'load.workload.prompts' }
    )
  }
  return cycled(items, settings)
}

/**
 * The JSON body for one side. `ignoreEos`: ask the server to generate exactly `max_tokens`
 * (vLLM's `ignore_eos` and `min_tokens`), so both sides produce the same amount of work.
 */
export function requestBody(item: WorkItem, api: Api, model: string, ignoreEos: boolean, maxTokensOverride?: number): string {
  const maxTokens = maxTokensOverride ?? item.maxTokens
  let body: Record<string, unknown>
  if (item.kind === 'body') {
    body = { ...item.body }
    if (api === 'chat' && !Array.isArray(body.messages)) body.messages = [{ role: 'user', content: String(body.prompt) }]
    if (api === 'completions' && typeof body.prompt !== 'string') {
      body.prompt = (body.messages as Array<{ content?: unknown }>).map(m => (typeof m.content === 'string' ? m.content : '')).join('\n')
    }
    if (api === 'chat') delete body.prompt
    else delete body.messages
    delete body.max_completion_tokens
  } else if (item.kind === 'messages') {
    body =
      api === 'chat'
        ? { messages: item.messages }
        : { prompt: item.messages.map(m => String((m as { content?: unknown }).content ?? '')).join('\n') }
  } else {
    body = api === 'chat' ? { messages: [{ role: 'user', content: item.text }] } : { prompt: item.text }
  }
  body.model = model
  body.max_tokens = maxTokens
  body.temperature = 0
  body.stream = true
  body.stream_options = { include_usage: true }
  if (ignoreEos) {
    body.ignore_eos = true
    body.min_tokens = maxTokens
  }
  return JSON.stringify(body)
}
