/**
 * What `plan` says about fidelity: the budget, the prompts' source, the checks, and the route each
 * side will take. A server that is always up is asked now (the same detection the run uses); a
 * launched side is not up at plan time, so its route is decided when it is, and plan says which
 * routes are possible.
 */
import { counted } from '../words.js'
import type { FidelitySettings } from '../config/fidelity.js'
import type { GateConfig } from '../config/types.js'
import type { Side } from '../model/verdict.js'
import { planSides, type SideEndpoint } from '../plan/run-plan.js'
import { detectClient } from './detect-fidelity-route.js'

const ROUTES =
  'llama-server: a grammar of the baseline token ids, one request per instance; vLLM: prompt_logprobs, one request per instance; any other OpenAI-style server: the shared greedy prefix (not teacher-forced)'

export async function fidelityPlanLines(
  config: GateConfig & { fidelity: FidelitySettings },
  env: NodeJS.ProcessEnv,
  probeTimeoutMs = 5000,
  /** The run plan's endpoints (`plan` gives its own); resolved from the gate file and `env` when not given. */
  endpoints: Record<Side, SideEndpoint | null> = planSides(config, env).endpoints
): Promise<string[]> {
  const f = config.fidelity
  const source = config.traffic
    ? `the traffic set (${counted(config.traffic.instances.length, 'request')})`
    : "the gate set's prompts (the baseline's request states)"
  const checks = f.checks.length
    ? f.checks.map(c => `${c.metric} ${c.bound === 'min' ? '>=' : '<='} ${c.value}`).join(', ')
    : 'none (reported only)'
  const lines = [
    `# fidelity: the first ${counted(f.instances, 'prompt')} of ${source}; the baseline's greedy answers up to ${f.maxAnswerTokens} tokens with the top-${f.topK} per position; ${f.baselineReruns ? 'an A/A floor (the baseline scored against itself)' : 'no A/A floor'}; checks: ${checks}`
  ]
  for (const side of ['baseline', 'candidate'] as const) {
    const endpoint = endpoints[side]
    if (!endpoint) continue
    if (config.launch?.sides[side]) {
      lines.push(`# fidelity ${side}: launched, route decided when it is up (${ROUTES})`)
      continue
    }
    const client = await detectClient(endpoint, probeTimeoutMs)
    lines.push(`# fidelity ${side}: ${client.route} (asked ${endpoint.baseUrl} now)`)
  }
  return lines
}
