/**
 * Talking to a side for fidelity (docs/fidelity.md "Routes"): the baseline's greedy answer with
 * its top-k log-probabilities, and the candidate scored on that answer. What every route shares is
 * here (the client interface, the one HTTP helper and the errors), one client per route beside it:
 * - llama.cpp (`llama-server`, fidelity-llama-cpp.ts): `/completion` with `n_probs` and
 *   `post_sampling_probs: false` (probabilities from the raw logits, before any sampler or
 *   grammar). The candidate is forced along the baseline's tokens by a grammar of token ids
 *   (`root ::= <[id]> <[id]> ...`), one request per instance; the prompt-prefix route (one request
 *   per position) is kept as the reference it was checked against.
 * - OpenAI-style servers without prompt log-probabilities (fidelity-openai-prefix.ts): chat
 *   completions with `logprobs` and `top_logprobs`, greedy on both sides, compared along the
 *   shared greedy prefix up to and including the first position where the answers part (every
 *   such position has the same prefix on both sides). Not teacher-forced, and said so.
 * - vLLM (fidelity-vllm.ts): prompt log-probabilities.
 * detect-fidelity-route.ts says which route a side takes.
 */
import { request } from 'undici'
import { GateError } from '../errors.js'
import type { FidelityRoute } from '../model/fidelity-report.js'
import { redactText } from '../secrets/redact.js'
import type { PositionDistribution } from './token-metrics.js'

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
export async function postJson(side: FidelitySide, url: string, body: unknown, timeoutMs: number): Promise<Record<string, unknown>> {
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

export function missing(side: FidelitySide, capability: string, value?: unknown): FidelityError {
  return new FidelityError(
    'fidelity.capability_missing',
    `fidelity: the ${side.side} cannot return ${capability}, so no fidelity check can be computed on it`,
    { field: `deployments.${side.side}`, value }
  )
}

/** A /tokenize reply's `tokens` as ids, or the missing capability named. */
export function tokenIds(side: FidelitySide, tokens: unknown, id: string): number[] {
  if (!Array.isArray(tokens) || tokens.some(t => typeof t !== 'number')) {
    throw missing(side, 'token ids of a text (POST /tokenize)', id)
  }
  return tokens as number[]
}

export function tooManyTopK(side: FidelitySide, asked: number, returned: number): FidelityError {
  return new FidelityError(
    'fidelity.top_k_too_large',
    `fidelity: fidelity.top_k is ${asked} but the ${side.side} returns at most ${returned} alternatives per token; lower top_k to ${returned} or raise the server's limit`,
    { field: 'fidelity.top_k', value: asked }
  )
}
