/**
 * Talking to a side for fidelity (docs/fidelity.md "Routes"): the baseline's greedy answer with
 * its top-k log-probabilities, and the candidate scored on that answer. One HTTP helper, one
 * client per route:
 * - llama.cpp (`llama-server`): `/completion` with `n_probs` and `post_sampling_probs: false`
 *   (probabilities from the raw logits, before any sampler or grammar). The candidate is forced
 *   along the baseline's tokens by a grammar of token ids (`root ::= <[id]> <[id]> ...`), one
 *   request per instance; the prompt-prefix route (one request per position) is kept as the
 *   reference it was checked against.
 * - OpenAI-style servers without prompt log-probabilities: chat completions with `logprobs` and
 *   `top_logprobs`, greedy on both sides, compared along the shared greedy prefix up to and
 *   including the first position where the answers part (every such position has the same prefix
 *   on both sides). Not teacher-forced, and said so.
 */
import { request } from 'undici'
import { GateError } from '../errors.js'
import type { FidelityRoute } from '../model/fidelity-report.js'
import { redactText } from '../secrets/redact.js'
import { rootRouteUrl, routeUrl } from '../server/endpoint.js'
import { probeEngine } from '../server/engine-version.js'
import type { PositionDistribution, TopEntry } from './token-metrics.js'

export type SideName = 'baseline' | 'candidate'

/** A side as fidelity needs it: where it is, the model it serves, its key, and the API its prompts are for. */
export interface FidelitySide {
  side: SideName
  /** Includes `/v1`. */
  baseUrl: string
  model: string
  apiKey: string | null
  api: 'chat' | 'completions'
}

export interface FidelityPrompt {
  id: string
  text: string
  /**
   * The prompt as token ids, sent as they are instead of the text (completions only): the truth
   * bench uses it to score exactly the token windows llama-perplexity scores.
   */
  ids?: number[]
  /**
   * A given answer to teacher-force instead of the baseline's greedy one (the reference-text
   * mode): a text, tokenized by the side, or token ids.
   */
  reference?: string | number[]
}

/** An answer with its per-position distributions; `ids` are token ids where the server gives them. */
export interface ScoredAnswer {
  positions: PositionDistribution[]
  ids: number[] | null
  /** Tokens generated (the answer's length). */
  length: number
  /**
   * The last token is the end of sequence (llama-server includes it in `tokens` and scores it). A
   * grammar cannot name it (a grammar that admits it never completes), so it is forced by the
   * grammar's own end: once the grammar is complete only end-of-generation tokens are allowed.
   */
  endsWithEos?: boolean
}

export interface FidelityClient {
  readonly route: FidelityRoute
  /** The side's greedy answer to the prompt, with the top-k at each position. */
  generate(prompt: FidelityPrompt, maxTokens: number, topK: number): Promise<ScoredAnswer>
  /** The side scored on another side's answer (teacher forcing), or null when this route cannot force. */
  score(prompt: FidelityPrompt, answer: ScoredAnswer, topK: number): Promise<PositionDistribution[] | null>
  /** The largest top-k the side returns; a named error when it returns fewer than asked. */
  checkTopK(prompt: FidelityPrompt, topK: number): Promise<void>
  /** A text's token ids by the side's own tokenizer, with no special tokens added (a reference answer). */
  tokenize(prompt: FidelityPrompt, text: string): Promise<number[]>
  readonly requests: number
}

export class FidelityError extends GateError {}

/** POST a JSON body; the parsed reply, or a FidelityError naming the side, route and status. */
async function postJson(side: FidelitySide, url: string, body: unknown, timeoutMs: number): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (side.apiKey) headers.authorization = `Bearer ${side.apiKey}`
  let status: number
  let text: string
  try {
    const response = await request(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs
    })
    status = response.statusCode
    text = await response.body.text()
  } catch (error) {
    throw new FidelityError('fidelity.request_failed', `fidelity: the ${side.side} did not answer: ${(error as Error).message}`, {
      field: `deployments.${side.side}`,
      value: redactText(url)
    })
  }
  if (status !== 200) {
    throw new FidelityError('fidelity.request_failed', `fidelity: the ${side.side} answered HTTP ${status}: ${text.slice(0, 200)}`, {
      field: `deployments.${side.side}`,
      value: redactText(url)
    })
  }
  try {
    const parsed = JSON.parse(text) as unknown
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // reported below
  }
  throw new FidelityError('fidelity.bad_reply', `fidelity: the ${side.side} sent a reply that is not a JSON object`, {
    field: `deployments.${side.side}`,
    value: text.slice(0, 120)
  })
}

function missing(side: FidelitySide, capability: string, value?: unknown): FidelityError {
  return new FidelityError(
    'fidelity.capability_missing',
    `fidelity: the ${side.side} cannot return ${capability}, so no fidelity check can be computed on it`,
    { field: `deployments.${side.side}`, value }
  )
}

// ---------------------------------------------------------------------------------------------
// llama.cpp

interface LlamaProb {
  id: number
  token: string
  logprob: number
  top_logprobs: { id: number; token: string; logprob: number }[]
}

export class LlamaCppClient implements FidelityClient {
  route: FidelityRoute = 'llamacpp-forced-grammar'
  requests = 0
  private readonly completionUrl: string
  private readonly templateUrl: string
  private readonly rendered = new Map<string, string>()

  constructor(
    private readonly side: FidelitySide,
    private readonly timeoutMs: number,
    /**
     * `prefix`: one request per position, reusing the prompt cache; `fresh`: the same without the
     * cache (every request evaluates the whole prefix): the references the grammar route was
     * checked against (bench/fidelity-route.mjs).
     */
    private readonly mode: 'grammar' | 'prefix' | 'fresh' = 'grammar'
  ) {
    this.completionUrl = rootRouteUrl(side.baseUrl, 'completion')
    this.templateUrl = rootRouteUrl(side.baseUrl, 'apply-template')
    if (mode !== 'grammar') this.route = 'llamacpp-prefix'
  }

  /** The prompt as the side's own chat template renders it (a chat deployment), or the text itself. */
  private async prompt(p: FidelityPrompt): Promise<string | number[]> {
    if (p.ids !== undefined && this.side.api === 'completions') return p.ids
    if (this.side.api === 'completions') return p.text
    const cached = this.rendered.get(p.id)
    if (cached !== undefined) return cached
    const reply = await postJson(this.side, this.templateUrl, { messages: [{ role: 'user', content: p.text }] }, this.timeoutMs)
    this.requests++
    if (typeof reply.prompt !== 'string') throw missing(this.side, 'a rendered chat prompt (POST /apply-template)', reply)
    this.rendered.set(p.id, reply.prompt)
    return reply.prompt
  }

  private async complete(body: Record<string, unknown>): Promise<{ probs: LlamaProb[]; tokens: number[]; eos: boolean }> {
    const reply = await postJson(
      this.side,
      this.completionUrl,
      { temperature: 0, post_sampling_probs: false, return_tokens: true, stream: false, cache_prompt: this.mode !== 'fresh', ...body },
      this.timeoutMs
    )
    this.requests++
    const probs = reply.completion_probabilities
    const tokens = reply.tokens
    if (!Array.isArray(probs) || !Array.isArray(tokens)) {
      throw missing(this.side, 'token log-probabilities (/completion completion_probabilities with n_probs)', Object.keys(reply))
    }
    for (const p of probs as LlamaProb[]) {
      if (typeof p?.id !== 'number' || typeof p.logprob !== 'number' || !Array.isArray(p.top_logprobs)) {
        throw missing(this.side, 'log-probabilities by token id (post_sampling_probs: false)', p)
      }
    }
    return { probs: probs as LlamaProb[], tokens: tokens as number[], eos: reply.stop_type === 'eos' }
  }

  async generate(prompt: FidelityPrompt, maxTokens: number, topK: number): Promise<ScoredAnswer> {
    const { probs, tokens, eos } = await this.complete({ prompt: await this.prompt(prompt), n_predict: maxTokens, n_probs: topK })
    if (probs.length !== tokens.length) {
      throw new FidelityError(
        'fidelity.bad_reply',
        `fidelity: the ${this.side.side} returned ${probs.length} distributions for ${tokens.length} tokens`,
        { field: `deployments.${this.side.side}`, value: prompt.id }
      )
    }
    return { positions: probs.map(toPosition), ids: tokens, length: tokens.length, endsWithEos: eos && tokens.length > 0 }
  }

  async score(prompt: FidelityPrompt, answer: ScoredAnswer, topK: number): Promise<PositionDistribution[]> {
    if (answer.ids === null) throw missing(this.side, 'scores of an answer given by text only (token ids are needed)')
    const text = await this.prompt(prompt)
    if (answer.ids.length === 0) return []
    const last = answer.ids.length - 1
    if (this.mode !== 'grammar') {
      const out: PositionDistribution[] = []
      for (let t = 0; t < answer.ids.length; t++) {
        // The prompt text, then the answer's first t tokens as ids; the next token is forced by a
        // one-token grammar so that the reported `logprob` is the baseline's token's.
        const { probs } = await this.complete({
          prompt: [...(typeof text === 'string' ? [text] : text), ...answer.ids.slice(0, t)],
          n_predict: 1,
          n_probs: topK,
          grammar: answer.endsWithEos === true && t === last ? END_ONLY_GRAMMAR : forcedGrammar([answer.ids[t]])
        })
        out.push(this.checked(probs, [answer.ids[t]], prompt)[0])
      }
      return out
    }
    // The grammar admits the answer's tokens and nothing else, so no end of sequence can come
    // early; a final end of sequence is what the completed grammar allows (ignore_eos would ban it).
    const forced = answer.endsWithEos === true ? answer.ids.slice(0, last) : answer.ids
    const { probs } = await this.complete({
      prompt: text,
      n_predict: answer.ids.length,
      n_probs: topK,
      grammar: forced.length > 0 ? forcedGrammar(forced) : END_ONLY_GRAMMAR
    })
    return this.checked(probs, answer.ids, prompt)
  }

  /** The forced reply must have generated exactly the answer's tokens; anything else is not a teacher-forced score. */
  private checked(probs: LlamaProb[], ids: number[], prompt: FidelityPrompt): PositionDistribution[] {
    const got = probs.map(p => p.id)
    if (got.length !== ids.length || got.some((id, i) => id !== ids[i])) {
      throw missing(
        this.side,
        `a forced continuation (a grammar of token ids): it generated [${got.slice(0, 8).join(', ')}…] instead of the answer`,
        prompt.id
      )
    }
    return probs.map(toPosition)
  }

  async checkTopK(prompt: FidelityPrompt, topK: number): Promise<void> {
    const { probs } = await this.complete({ prompt: await this.prompt(prompt), n_predict: 1, n_probs: topK })
    const returned = probs[0]?.top_logprobs.length ?? 0
    if (returned < topK) throw tooManyTopK(this.side, topK, returned)
  }

  async tokenize(prompt: FidelityPrompt, text: string): Promise<number[]> {
    const reply = await postJson(
      this.side,
      rootRouteUrl(this.side.baseUrl, 'tokenize'),
      { content: text, add_special: false },
      this.timeoutMs
    )
    this.requests++
    return tokenIds(this.side, reply.tokens, prompt.id)
  }
}

/** A /tokenize reply's `tokens` as ids, or the missing capability named. */
function tokenIds(side: FidelitySide, tokens: unknown, id: string): number[] {
  if (!Array.isArray(tokens) || tokens.some(t => typeof t !== 'number')) {
    throw missing(side, 'token ids of a text (POST /tokenize)', id)
  }
  return tokens as number[]
}

/** A grammar that is complete at once: only an end-of-generation token can follow. */
const END_ONLY_GRAMMAR = 'root ::= ""'

/** A GBNF grammar admitting exactly this token sequence, by token id (`<[id]>`). */
export function forcedGrammar(ids: number[]): string {
  return `root ::= ${ids.map(id => `<[${id}]>`).join(' ')}`
}

function toPosition(p: LlamaProb): PositionDistribution {
  return {
    token: String(p.id),
    logprob: p.logprob,
    top: p.top_logprobs.map(e => ({ token: String(e.id), logprob: e.logprob, text: e.token })),
    text: p.token
  }
}

function tooManyTopK(side: FidelitySide, asked: number, returned: number): FidelityError {
  return new FidelityError(
    'fidelity.top_k_too_large',
    `fidelity: fidelity.top_k is ${asked} but the ${side.side} returns at most ${returned} alternatives per token; lower top_k to ${returned} or raise the server's limit`,
    { field: 'fidelity.top_k', value: asked }
  )
}

// ---------------------------------------------------------------------------------------------
// OpenAI-style chat completions (no prompt log-probabilities): the greedy prefix only.

interface ChatLogprob {
  token: string
  logprob: number
  top_logprobs?: { token: string; logprob: number }[]
}

export class OpenAiPrefixClient implements FidelityClient {
  readonly route: FidelityRoute = 'greedy-prefix'
  requests = 0
  private readonly url: string

  constructor(
    private readonly side: FidelitySide,
    private readonly timeoutMs: number
  ) {
    this.url = routeUrl(side.baseUrl, 'chat/completions')
  }

  async generate(prompt: FidelityPrompt, maxTokens: number, topK: number): Promise<ScoredAnswer> {
    const reply = await postJson(
      this.side,
      this.url,
      {
        model: this.side.model,
        messages: [{ role: 'user', content: prompt.text }],
        max_tokens: maxTokens,
        temperature: 0,
        logprobs: true,
        top_logprobs: topK,
        stream: false
      },
      this.timeoutMs
    )
    this.requests++
    const choices = reply.choices as { logprobs?: { content?: ChatLogprob[] | null } | null }[] | undefined
    const content = choices?.[0]?.logprobs?.content
    if (!Array.isArray(content)) throw missing(this.side, 'token log-probabilities (chat completions logprobs.content)', prompt.id)
    const positions = content.map(c => {
      if (typeof c?.token !== 'string' || typeof c.logprob !== 'number' || !Array.isArray(c.top_logprobs)) {
        throw missing(this.side, 'top log-probabilities (top_logprobs)', c)
      }
      return { token: c.token, logprob: c.logprob, top: c.top_logprobs.map(e => ({ token: e.token, logprob: e.logprob }) as TopEntry) }
    })
    return { positions, ids: null, length: positions.length }
  }

  score(): Promise<null> {
    return Promise.resolve(null)
  }

  tokenize(prompt: FidelityPrompt): Promise<number[]> {
    return Promise.reject(missing(this.side, 'token ids, so it cannot be scored on a reference answer', prompt.id))
  }

  async checkTopK(prompt: FidelityPrompt, topK: number): Promise<void> {
    const answer = await this.generate(prompt, 1, topK)
    const returned = answer.positions[0]?.top.length ?? 0
    if (returned < topK) throw tooManyTopK(this.side, topK, returned)
  }
}

/**
 * The greedy-prefix comparison: positions 0..d where d is the first position whose tokens differ
 * (inclusive: both sides saw the same prefix there). At d the candidate's probability of the
 * baseline's token is read from its top-k; when it is not there it is taken as 0, the pessimistic
 * end (its true value is somewhere below the smallest reported one), so delta-p never flatters.
 */
export function sharedPrefix(
  baseline: ScoredAnswer,
  candidate: ScoredAnswer
): { baseline: PositionDistribution[]; candidate: PositionDistribution[] } {
  const b: PositionDistribution[] = []
  const c: PositionDistribution[] = []
  const n = Math.min(baseline.positions.length, candidate.positions.length)
  for (let t = 0; t < n; t++) {
    const bp = baseline.positions[t]
    const cp = candidate.positions[t]
    b.push(bp)
    if (bp.token === cp.token) {
      c.push(cp)
      continue
    }
    const inTop = cp.top.find(e => e.token === bp.token)
    c.push({ token: bp.token, logprob: inTop ? inTop.logprob : -Infinity, top: cp.top })
    break
  }
  return { baseline: b, candidate: c }
}

// ---------------------------------------------------------------------------------------------
// vLLM: prompt log-probabilities (written from vLLM's OpenAI-compatible server API, checked by
// plan and by unit tests of the request and reply shapes; not run here: it needs a GPU).

interface VllmPromptLogprob {
  logprob: number
  rank?: number
}

export class VllmClient implements FidelityClient {
  readonly route: FidelityRoute = 'vllm-prompt-logprobs'
  requests = 0
  private readonly ids = new Map<string, number[]>()

  constructor(
    private readonly side: FidelitySide,
    private readonly timeoutMs: number
  ) {}

  /** The prompt's token ids by the side's own tokenizer (and chat template, for a chat deployment): POST /tokenize. */
  private async promptIds(p: FidelityPrompt): Promise<number[]> {
    if (p.ids !== undefined && this.side.api === 'completions') return p.ids
    const cached = this.ids.get(p.id)
    if (cached) return cached
    const body =
      this.side.api === 'chat' && p.id !== '\u0000probe'
        ? { model: this.side.model, messages: [{ role: 'user', content: p.text }], add_generation_prompt: true }
        : { model: this.side.model, prompt: p.text }
    const reply = await postJson(this.side, rootRouteUrl(this.side.baseUrl, 'tokenize'), body, this.timeoutMs)
    this.requests++
    if (!Array.isArray(reply.tokens)) throw missing(this.side, 'token ids of a prompt (POST /tokenize)', Object.keys(reply))
    this.ids.set(p.id, reply.tokens as number[])
    return reply.tokens as number[]
  }

  private async completions(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const reply = await postJson(
      this.side,
      routeUrl(this.side.baseUrl, 'completions'),
      { model: this.side.model, temperature: 0, stream: false, ...body },
      this.timeoutMs
    )
    this.requests++
    const choice = (reply.choices as Record<string, unknown>[] | undefined)?.[0]
    if (!choice) throw missing(this.side, 'a completion choice', Object.keys(reply))
    return choice
  }

  async generate(prompt: FidelityPrompt, maxTokens: number, topK: number): Promise<ScoredAnswer> {
    const choice = await this.completions({
      prompt: await this.promptIds(prompt),
      max_tokens: maxTokens,
      logprobs: topK,
      return_tokens_as_token_ids: true
    })
    return vllmAnswer(this.side, choice)
  }

  async score(prompt: FidelityPrompt, answer: ScoredAnswer, topK: number): Promise<PositionDistribution[]> {
    if (answer.ids === null) throw missing(this.side, 'scores of an answer given by text only (token ids are needed)')
    const ids = await this.promptIds(prompt)
    const choice = await this.completions({ prompt: [...ids, ...answer.ids], max_tokens: 1, prompt_logprobs: topK })
    return vllmPromptPositions(this.side, choice, ids.length, answer.ids, topK)
  }

  async checkTopK(prompt: FidelityPrompt, topK: number): Promise<void> {
    const answer = await this.generate(prompt, 1, topK)
    const returned = answer.positions[0]?.top.length ?? 0
    if (returned < topK) throw tooManyTopK(this.side, topK, returned)
  }

  async tokenize(prompt: FidelityPrompt, text: string): Promise<number[]> {
    const body = { model: this.side.model, prompt: text, add_special_tokens: false }
    const reply = await postJson(this.side, rootRouteUrl(this.side.baseUrl, 'tokenize'), body, this.timeoutMs)
    this.requests++
    return tokenIds(this.side, reply.tokens, prompt.id)
  }

  /** Whether the server returns prompt log-probabilities (a server that answers /version may still not). */
  async scoresPrompts(): Promise<boolean> {
    try {
      const ids = await this.promptIds({ id: '\u0000probe', text: 'Hello' })
      const choice = await this.completions({ prompt: ids, max_tokens: 1, prompt_logprobs: 1 })
      return Array.isArray(choice.prompt_logprobs)
    } catch {
      return false
    }
  }
}

/** A completions choice with `return_tokens_as_token_ids` (tokens "token_id:123"), as an answer by token id. */
export function vllmAnswer(side: FidelitySide, choice: Record<string, unknown>): ScoredAnswer {
  const lp = choice.logprobs as { tokens?: string[]; token_logprobs?: number[]; top_logprobs?: Record<string, number>[] } | null
  if (!lp || !Array.isArray(lp.tokens) || !Array.isArray(lp.token_logprobs) || !Array.isArray(lp.top_logprobs)) {
    throw missing(side, 'completion log-probabilities (logprobs with tokens, token_logprobs, top_logprobs)', choice)
  }
  const idOf = (token: string): number => {
    const m = /^token_id:(\d+)$/.exec(token)
    if (!m) throw missing(side, 'tokens as token ids (return_tokens_as_token_ids)', token)
    return Number(m[1])
  }
  const ids = lp.tokens.map(idOf)
  const positions = ids.map((id, t) => ({
    token: String(id),
    logprob: (lp.token_logprobs as number[])[t],
    top: Object.entries((lp.top_logprobs as Record<string, number>[])[t] ?? {})
      .map(([token, logprob]) => ({ token: String(idOf(token)), logprob }))
      .sort((a, b) => b.logprob - a.logprob)
  }))
  return { positions, ids, length: ids.length }
}

/**
 * `prompt_logprobs` of prompt + answer: one entry per prompt token (the first is null), each a map
 * from token id to {logprob, rank} holding the top-k and the actual token. The answer's position t
 * is entry promptLength + t.
 */
export function vllmPromptPositions(
  side: FidelitySide,
  choice: Record<string, unknown>,
  promptLength: number,
  answerIds: number[],
  topK: number
): PositionDistribution[] {
  const entries = choice.prompt_logprobs as (Record<string, VllmPromptLogprob> | null)[] | undefined
  if (!Array.isArray(entries) || entries.length < promptLength + answerIds.length) {
    throw missing(side, 'prompt log-probabilities (prompt_logprobs)', Array.isArray(entries) ? entries.length : typeof entries)
  }
  return answerIds.map((id, t) => {
    const entry = entries[promptLength + t]
    const own = entry?.[String(id)]
    if (!entry || !own) throw missing(side, `the prompt log-probability of token ${id}`, promptLength + t)
    const top = Object.entries(entry)
      .filter(([, v]) => v.rank === undefined || v.rank <= topK)
      .map(([token, v]) => ({ token, logprob: v.logprob }))
      .sort((a, b) => b.logprob - a.logprob)
      .slice(0, topK)
    return { token: String(id), logprob: own.logprob, top }
  })
}

/**
 * Which route a side supports, from what it says about itself (src/server/engine-version.ts, the
 * probe the readiness check makes): llama-server answers GET /props with `build_info`, vLLM answers
 * GET /version; a /version server must also return prompt log-probabilities to be scored by them.
 * Anything else is taken as an OpenAI-style server (the greedy prefix).
 */
export async function detectClient(side: FidelitySide, timeoutMs: number): Promise<FidelityClient> {
  const engine = await probeEngine(side.baseUrl, side.apiKey)
  if (engine?.endpoint === 'props') return new LlamaCppClient(side, timeoutMs)
  if (engine?.endpoint === 'version') {
    const vllm = new VllmClient(side, timeoutMs)
    if (await vllm.scoresPrompts()) return vllm
  }
  return new OpenAiPrefixClient(side, timeoutMs)
}
