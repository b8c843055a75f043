// Known next-token distributions for fidelity tests: with the control `fidelity` set to 1, a chat
// request with `logprobs: true` is answered by a tiny deterministic language model over
// FIDELITY_VOCAB. At each position the logits are a function of the prompt and the answer so far;
// `fidelityShift` adds a second such function scaled by it (a "quantization" of strength shift),
// so two servers with different shifts disagree by a known, computable amount. The answer is
// greedy (the most likely token each time), FIDELITY_ANSWER_TOKENS long or max_tokens if fewer.
// Tests import `nextTokenDistribution` to compute the exact expected metrics.
import { mulberry32 } from '../mulberry32.mjs'

export const FIDELITY_VOCAB = [' alpha', ' beta', ' gamma', ' delta', ' eps', ' zeta', ' eta', ' theta']
export const FIDELITY_ANSWER_TOKENS = 6

function hash(text) {
  // FNV-1a, 32 bits
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** Probabilities over FIDELITY_VOCAB after `prompt` and the answer tokens so far. */
export function nextTokenDistribution(prompt, prefix, shift) {
  const base = mulberry32(hash(`base|${prompt}|${prefix.join('')}`))
  const noise = mulberry32(hash(`noise|${prompt}|${prefix.join('')}`))
  const logits = FIDELITY_VOCAB.map(() => 3 * base() + shift * (2 * noise() - 1))
  const max = Math.max(...logits)
  const exp = logits.map(l => Math.exp(l - max))
  const sum = exp.reduce((a, b) => a + b, 0)
  return exp.map(e => e / sum)
}

/** The greedy answer with each position's distribution. */
export function greedyAnswer(prompt, shift, maxTokens) {
  const tokens = []
  const distributions = []
  const length = Math.min(FIDELITY_ANSWER_TOKENS, maxTokens)
  for (let t = 0; t < length; t++) {
    const p = nextTokenDistribution(prompt, tokens, shift)
    let best = 0
    for (let i = 1; i < p.length; i++) if (p[i] > p[best]) best = i
    tokens.push(FIDELITY_VOCAB[best])
    distributions.push(p)
  }
  return { tokens, distributions }
}

/** The chat body: the answer and `logprobs.content` with up to `top_logprobs` alternatives (at most the vocabulary). */
export function fidelityChatBody(payload, prompt, shift) {
  const maxTokens = Number(payload.max_tokens ?? payload.max_completion_tokens ?? 16)
  const k = Math.min(Number(payload.top_logprobs ?? 0), FIDELITY_VOCAB.length)
  const { tokens, distributions } = greedyAnswer(prompt, shift, maxTokens)
  const content = tokens.map((token, t) => {
    const p = distributions[t]
    const order = p.map((_, i) => i).sort((a, b) => p[b] - p[a] || a - b)
    return {
      token,
      logprob: Math.log(p[FIDELITY_VOCAB.indexOf(token)]),
      bytes: [...Buffer.from(token, 'utf8')],
      top_logprobs: order
        .slice(0, k)
        .map(i => ({ token: FIDELITY_VOCAB[i], logprob: Math.log(p[i]), bytes: [...Buffer.from(FIDELITY_VOCAB[i], 'utf8')] }))
    }
  })
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: payload.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: tokens.join('') },
        logprobs: { content },
        finish_reason: tokens.length < FIDELITY_ANSWER_TOKENS ? 'length' : 'stop'
      }
    ],
    usage: { prompt_tokens: 0, completion_tokens: tokens.length, total_tokens: tokens.length }
  }
}
