/**
 * Fidelity on OpenAI-style chat completions without prompt log-probabilities (docs/fidelity.md
 * "Routes"): the greedy prefix only. `logprobs` and `top_logprobs`, greedy on both sides, compared
 * along the shared greedy prefix up to and including the first position where the answers part
 * (every such position has the same prefix on both sides). Not teacher-forced, and said so.
 */
import type { FidelityRoute } from '../model/fidelity-report.js'
import { routeUrl } from '../server/endpoint.js'
import {
  missing,
  postJson,
  tooManyTopK,
  type FidelityClient,
  type FidelityPrompt,
  type FidelitySide,
  type ScoredAnswer
} from './fidelity-client.js'
import type { PositionDistribution, TopEntry } from './token-metrics.js'

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
