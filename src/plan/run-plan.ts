/**
 * The run plan, made once from the gate file and the environment before anything runs: each
 * side's endpoint (base URL, model and API key, the key looked up here and nowhere else), the
 * names and values of the keys (kept out of a child's environment, masked in every log), the
 * schedule, and the gate set's fingerprint. runGate makes it (or takes the adapter's, whose
 * fingerprint found the archived baseline); the runner, the launcher, the measurements, the
 * manifest and `plan` read it instead of looking each of these up again. `planSides` is the part
 * without the fingerprint, for the load half alone and the action's masking, which need no git.
 */
import type { LaunchSettings } from '../config/launch.js'
import type { GateConfig } from '../config/types.js'
import { gateFingerprint } from '../identity/gate-fingerprint.js'
import type { Side } from '../model/verdict.js'
import { apiKeyNames, apiKeyOf, apiKeyValues, missingKeyError } from '../secrets/api-keys.js'
import { urlSecrets } from '../secrets/child-env.js'

/** A side that is a server: where requests go and the key they carry. */
// A side's endpoint as every measurement takes it (model/side-endpoint.ts).
export type { SideEndpoint } from '../model/side-endpoint.js'
import type { SideEndpoint } from '../model/side-endpoint.js'

/** The sides as the gate file and the environment resolve them: no git, no process. */
export interface PlannedSides {
  /** Each side's endpoint, null for a side that is not a server (a prod_env or a runner command). */
  endpoints: Record<Side, SideEndpoint | null>
  /** The API key variables the gate file names: a launched server or helm-run gets them, no other secret. */
  keyNames: string[]
  /** Each server side's key variable (`api_key_env`), null when it names none: `plan` shows it, never the value. */
  keyVariables: Record<Side, string | null>
  /** The keys that are set and the servers' URL credentials: masked wherever output is shown or logged. */
  secrets: string[]
}

export interface RunPlan extends PlannedSides {
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

/** Each side's endpoint and key, the key names and the values to mask: the one API-key lookup of a run. */
export function planSides(config: GateConfig, env: NodeJS.ProcessEnv): PlannedSides {
  const deployments = Object.values(config.deployments ?? {})
  const endpoint = (side: Side): SideEndpoint | null => {
    const d = config.deployments?.[side]
    if (!d || d.kind !== 'server') return null
    return { side, baseUrl: d.baseUrl, model: d.model, api: d.api, apiKey: apiKeyOf(d, env) }
  }
  const endpoints = { baseline: endpoint('baseline'), candidate: endpoint('candidate') }
  const keyVariable = (side: Side): string | null => apiKeyNames([config.deployments?.[side]])[0] ?? null
  return {
    endpoints,
    keyNames: apiKeyNames(deployments),
    keyVariables: { baseline: keyVariable('baseline'), candidate: keyVariable('candidate') },
    secrets: [...apiKeyValues(deployments, env), ...Object.values(endpoints).flatMap(e => (e ? urlSecrets(e.baseUrl) : []))]
  }
}

export async function makeRunPlan(config: GateConfig, inputs: RunPlanInputs): Promise<RunPlan> {
  return {
    ...planSides(config, inputs.env),
    schedule: scheduleOf(config.launch, inputs.sequential),
    fingerprint: inputs.fingerprint ?? (await gateFingerprint(config, inputs.cwd, inputs.baseRef, inputs.env))
  }
}

/**
 * The endpoint a side's requests go to: a self-check runs the baseline's server on both sides
 * (its key, its URL), as the runner's deployments do (runner/prepare-run.ts).
 */
export function endpointFor(plan: PlannedSides, side: Side, selfCheck = false): SideEndpoint | null {
  const endpoint = plan.endpoints[selfCheck ? 'baseline' : side]
  return endpoint && { ...endpoint, side }
}

/**
 * Refuses, before anything runs, a side about to be run whose gate file names a key variable that
 * is not set: `config.api_key_missing` naming the variable and the field.
 */
export function requireKeys(plan: PlannedSides, sides: readonly Side[], source: string, selfCheck = false): void {
  for (const side of sides) {
    const name = plan.keyVariables[selfCheck ? 'baseline' : side]
    if (name && !endpointFor(plan, side, selfCheck)?.apiKey) throw missingKeyError(name, side, source)
  }
}
