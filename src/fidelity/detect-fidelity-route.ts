import { probeEngine } from '../server/engine-version.js'
import type { FidelityClient, FidelitySide } from './fidelity-client.js'
import { LlamaCppClient } from './fidelity-llama-cpp.js'
import { OpenAiPrefixClient } from './fidelity-openai-prefix.js'
import { VllmClient } from './fidelity-vllm.js'

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
