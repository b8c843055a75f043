/**
 * Synthetic prompts sized in the server's own tokens (docs/load.md, "Workload"). Words are not
 * tokens: on the real-engine example's small vocabulary 100 requested words became 404 prompt
 * tokens. llama.cpp's server and vLLM's both serve `POST /tokenize` and `POST /detokenize` at
 * their root (llama.cpp: `{content}` / `{tokens}` -> `{content}`; vLLM: `{model, prompt}` /
 * `{model, tokens}` -> `{prompt}`): each prompt's words are tokenized, cut to the drawn count and
 * turned back into text, which is tokenized once more for the realized count. The baseline's
 * tokenizer sizes them, and both sides get exactly the same texts.
 */
import { request } from 'undici'
import type { LoadSettings } from '../config/load-types.js'
import { rootRouteUrl } from '../server/endpoint.js'
import type { Target } from './stream-client.js'
import { syntheticSource, type WorkItem, type WorkloadSource } from './workload.js'

type Shape = 'vllm' | 'llama.cpp'

export interface ServerTokenizer {
  shape: Shape
  tokenize(text: string): Promise<number[]>
  detokenize(tokens: number[]): Promise<string>
}

async function post(target: Target, route: string, body: unknown, timeoutMs: number): Promise<{ status: number; json: unknown }> {
  const answer = await request(rootRouteUrl(target.baseUrl, route), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}) },
    body: JSON.stringify(body),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs
  })
  const text = await answer.body.text()
  let json: unknown = null
  try {
    json = JSON.parse(text)
  } catch {
    // not JSON: the shape check below fails
  }
  return { status: answer.statusCode, json }
}

function tokensOf(json: unknown): number[] | null {
  const tokens = (json as { tokens?: unknown } | null)?.tokens
  return Array.isArray(tokens) && tokens.every(t => Number.isInteger(t)) ? (tokens as number[]) : null
}

/** The server's tokenizer, or null when it serves none (then prompts are sized in words). */
export async function serverTokenizer(target: Target, timeoutMs: number): Promise<ServerTokenizer | null> {
  const shapes: Record<Shape, { tokenize: (text: string) => unknown; detokenize: (tokens: number[]) => unknown; text: string }> = {
    // add_special_tokens false: the prompt's own tokens; the chat template adds its own anyway.
    vllm: {
      tokenize: text => ({ model: target.model, prompt: text, add_special_tokens: false }),
      detokenize: tokens => ({ model: target.model, tokens }),
      text: 'prompt'
    },
    'llama.cpp': { tokenize: text => ({ content: text, add_special: false }), detokenize: tokens => ({ tokens }), text: 'content' }
  }
  for (const shape of ['vllm', 'llama.cpp'] as const) {
    const spec = shapes[shape]
    let tried: { status: number; json: unknown }
    try {
      tried = await post(target, 'tokenize', spec.tokenize('time year people'), timeoutMs)
    } catch {
      return null
    }
    const tokens = tokensOf(tried.json)
    if (tried.status !== 200 || !tokens || tokens.length === 0) continue
    return {
      shape,
      async tokenize(text) {
        const answer = await post(target, 'tokenize', spec.tokenize(text), timeoutMs)
        const ids = tokensOf(answer.json)
        if (answer.status !== 200 || !ids) throw new Error(`POST /tokenize answered HTTP ${answer.status}`)
        return ids
      },
      async detokenize(ids) {
        const answer = await post(target, 'detokenize', spec.detokenize(ids), timeoutMs)
        const text = (answer.json as Record<string, unknown> | null)?.[spec.text]
        if (answer.status !== 200 || typeof text !== 'string') throw new Error(`POST /detokenize answered HTTP ${answer.status}`)
        return text
      }
    }
  }
  return null
}

export interface SizedPrompts {
  source: WorkloadSource
  requested: number[]
  realized: number[]
}

/**
 * The synthetic prompts of `streams` (name and count) sized with `tokenizer`; any other item (a
 * block of `duration_seconds` that outruns its count) falls back to the words, scaled by the
 * tokens per word seen here.
 */
export async function sizedSyntheticSource(
  settings: LoadSettings,
  tokenizer: ServerTokenizer,
  streams: { stream: string; count: number }[]
): Promise<SizedPrompts> {
  const sized = new Map<string, WorkItem>()
  const requested: number[] = []
  const realized: number[] = []
  // The word draws stay those of syntheticSource (one word per requested token): its text's word
  // count is the requested count, and workload.ts, whose bytes key the real-engine model's cache,
  // is left as it is.
  const words = syntheticSource(settings)
  let wordCount = 0
  let tokenCount = 0
  for (const { stream, count } of streams) {
    for (let index = 0; index < count; index++) {
      const item = words.item(stream, index)
      if (item.kind !== 'text') continue
      const target = item.text.split(' ').length
      let text = item.text
      let ids = await tokenizer.tokenize(text)
      wordCount += target
      tokenCount += ids.length
      // A tokenizer that merges words into fewer tokens than words: the same words again.
      for (let more = 0; ids.length < target && more < 8; more++) {
        text = `${text} ${item.text}`
        ids = await tokenizer.tokenize(text)
      }
      const cut = await tokenizer.detokenize(ids.slice(0, target))
      requested.push(target)
      realized.push((await tokenizer.tokenize(cut)).length)
      sized.set(`${stream}\n${index}`, { kind: 'text', text: cut, maxTokens: item.maxTokens })
    }
  }
  const perWord = wordCount > 0 && tokenCount > 0 ? tokenCount / wordCount : 1
  return {
    requested,
    realized,
    source: {
      item(stream, index) {
        const known = sized.get(`${stream}\n${index}`)
        if (known) return known
        // Beyond the sized prompts (blocks of duration_seconds): the words, scaled to the tokens per word seen.
        const item = words.item(stream, index)
        if (item.kind !== 'text') return item
        const all = item.text.split(' ')
        const keep = Math.max(1, Math.min(all.length, Math.round(all.length / perWord)))
        return { ...item, text: all.slice(0, keep).join(' ') }
      }
    }
  }
}
