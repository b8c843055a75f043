/**
 * Fidelity on vLLM: prompt log-probabilities (docs/fidelity.md "Routes"). Written from vLLM's
 * OpenAI-compatible server API, checked by plan and by unit tests of the request and reply shapes;
 * not run here: it needs a GPU.
 */
import type { FidelityRoute } from '../model/fidelity-report.js'
import { rootRouteUrl, routeUrl } from '../server/endpoint.js'
import {
  missing,
  postJson,
  tokenIds,
  tooManyTopK,
  type FidelityClient,
  type FidelityPrompt,
  type FidelitySide,
  type ScoredAnswer
} from './fidelity-client.js'
import type { PositionDistribution } from './token-metrics.js'

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
