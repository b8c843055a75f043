/**
 * The prompts fidelity scores: the traffic set's when the gate file has one (the team's own
 * requests), otherwise the gate set's, exactly as helm-run sent them (the baseline's
 * scenario_state.json files). Clean instances, first train trial, in file order.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { TrafficInstance } from '../config/traffic-set.js'
import { InputError } from '../errors.js'
import type { FidelityPrompt } from './fidelity-client.js'

/** The last user message of a chat request (what a single-message chat carries), or its prompt text. */
function promptText(request: Record<string, unknown>): string | null {
  if (typeof request.prompt === 'string' && request.prompt.length > 0 && !Array.isArray(request.messages)) return request.prompt
  const messages = request.messages
  if (!Array.isArray(messages)) return typeof request.prompt === 'string' && request.prompt.length > 0 ? request.prompt : null
  const user = [...(messages as { role?: unknown; content?: unknown }[])].reverse().find(m => m?.role === 'user')
  return typeof user?.content === 'string' && user.content.length > 0 ? user.content : null
}

export function trafficPrompts(instances: TrafficInstance[]): FidelityPrompt[] {
  const out: FidelityPrompt[] = []
  for (const instance of instances) {
    const text = promptText(instance.request as unknown as Record<string, unknown>)
    if (text !== null) out.push({ id: instance.id, text })
  }
  return out
}

async function scenarioStates(dir: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (d: string, depth: number): Promise<void> => {
    if (depth > 6) return
    for (const entry of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(d, entry.name)
      if (entry.isDirectory()) await walk(full, depth + 1)
      else if (entry.name === 'scenario_state.json') found.push(full)
    }
  }
  await walk(dir, 0)
  return found
}

/** Up to `limit` prompts from the baseline's HELM output (every run directory, in name order). */
export async function gateSetPrompts(outputDir: string, limit: number): Promise<FidelityPrompt[]> {
  const out: FidelityPrompt[] = []
  for (const file of await scenarioStates(outputDir)) {
    let parsed: { request_states?: unknown }
    try {
      parsed = JSON.parse(await readFile(file, 'utf8')) as { request_states?: unknown }
    } catch (error) {
      throw new InputError('fidelity.unreadable_states', `fidelity: cannot read the prompts helm-run sent: ${(error as Error).message}`, {
        file
      })
    }
    const states = Array.isArray(parsed.request_states) ? (parsed.request_states as Record<string, unknown>[]) : []
    const run = path.basename(path.dirname(file))
    for (const state of states) {
      const instance = state.instance as { id?: unknown; perturbation?: unknown } | undefined
      if (instance?.perturbation || (state.train_trial_index ?? 0) !== 0) continue
      const text = promptText((state.request ?? {}) as Record<string, unknown>)
      if (text === null) continue
      out.push({ id: `${run}/${String(instance?.id ?? out.length)}`, text })
      if (out.length >= limit) return out
    }
  }
  return out
}
