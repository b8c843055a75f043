/**
 * Fidelity on llama.cpp's `llama-server` (docs/fidelity.md "Routes"): `/completion` with `n_probs`
 * and `post_sampling_probs: false` (probabilities from the raw logits, before any sampler or
 * grammar). The candidate is forced along the baseline's tokens by a grammar of token ids
 * (`root ::= <[id]> <[id]> ...`), one request per instance; the prompt-prefix route (one request
 * per position) is kept as the reference it was checked against.
 */
import type { FidelityRoute } from '../model/fidelity-report.js'
import { rootRouteUrl } from '../server/endpoint.js'
import {
  FidelityError,
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
