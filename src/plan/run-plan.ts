/**
 * The run plan, made once from the gate file and the environment before anything runs: each
 * side's endpoint (base URL, model and API key, the key looked up here), the names and values of
 * the keys (kept out of a child's environment, masked in every log), the schedule, and the gate
 * set's fingerprint. runGate makes it (or takes the adapter's, whose fingerprint found the archived
 * baseline), and the quality half, the measurements and the manifest read it instead of looking
 * each of these up again.
 */
import type { LaunchSettings } from '../config/launch.js'
import type { Api, GateConfig } from '../config/types.js'
import { gateFingerprint } from '../identity/gate-fingerprint.js'
import type { Side } from '../model/verdict.js'
import { apiKeyNames, apiKeyOf, apiKeyValues } from '../secrets/api-keys.js'
import { urlSecrets } from '../secrets/child-env.js'

/** A side that is a server: where requests go and the key they carry. */
export interface SideEndpoint {
  side: Side
  baseUrl: string
  model: string
  api: Api
  /** The key from the variable the gate file names; null when it names none or the variable is empty. */
  apiKey: string | null
}

export interface RunPlan {
  /** Each side's endpoint, null for a side that is not a server (a prod_env or a runner command). */
  endpoints: Record<Side, SideEndpoint | null>
  /** The API key variables the gate file names: a launched server or helm-run gets them, no other secret. */
  keyNames: string[]
  /** The keys that are set and the servers' URL credentials: masked wherever output is shown or logged. */
  secrets: string[]
  /** One side after the other, or both at once (`--sequential` overrides the gate file). */
  schedule: 'sequential' | 'concurrent'
  /** The gate set's fingerprint (identity/gate-fingerprint.ts), fingerprint_paths included. */
  fingerprint: string
}

export interface RunPlanInputs {
  env: NodeJS.ProcessEnv
  cwd: string
  /** The commit `checkout: base` launches and `fingerprint_paths` are read from. */
  baseRef: string | null
  sequential?: boolean
  /** Computed already by the adapter (the one an archived baseline was looked up by). */
  fingerprint?: string
}

/** The schedule of the sides: `--sequential` overrides the gate file's `launch.schedule` (default concurrent). */
export function scheduleOf(
  launch: Pick<LaunchSettings, 'schedule'> | null | undefined,
  sequential: boolean | undefined
): 'sequential' | 'concurrent' {
  return sequential ? 'sequential' : (launch?.schedule ?? 'concurrent')
}

export async function makeRunPlan(config: GateConfig, inputs: RunPlanInputs): Promise<RunPlan> {
  const deployments = Object.values(config.deployments ?? {})
  const endpoint = (side: Side): SideEndpoint | null => {
    const d = config.deployments?.[side]
    if (!d || d.kind !== 'server') return null
    return { side, baseUrl: d.baseUrl, model: d.model, api: d.api, apiKey: apiKeyOf(d, inputs.env) }
  }
  const endpoints = { baseline: endpoint('baseline'), candidate: endpoint('candidate') }
  return {
    endpoints,
    keyNames: apiKeyNames(deployments),
    secrets: [...apiKeyValues(deployments, inputs.env), ...Object.values(endpoints).flatMap(e => (e ? urlSecrets(e.baseUrl) : []))],
    schedule: scheduleOf(config.launch, inputs.sequential),
    fingerprint: inputs.fingerprint ?? (await gateFingerprint(config, inputs.cwd, inputs.baseRef, inputs.env))
  }
}
