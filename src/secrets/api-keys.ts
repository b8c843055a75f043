/**
 * A server deployment's API key is never in the gate file: `api_key_env` names the environment
 * variable that holds it. The one place that reads it; the run plan (src/plan/run-plan.ts) is
 * the one that asks, and everything else takes each side's key from the plan.
 */
import { ConfigError } from '../errors.js'

type Env = Record<string, string | undefined>

/**
 * What the lookup reads of a deployment (config/types.ts Deployment): only server deployments
 * name a key. Declared here because secrets/ sits below config/ in the folder order.
 */
interface KeyedDeployment {
  kind: string
  apiKeyEnv?: string | null
}

/** The variable names the deployments give as API keys. */
export function apiKeyNames(deployments: Iterable<KeyedDeployment | undefined>): string[] {
  return [...deployments].flatMap(d => (d?.kind === 'server' && d.apiKeyEnv ? [d.apiKeyEnv] : []))
}

/** The deployment's API key, or null when it names none or the variable is empty. */
export function apiKeyOf(deployment: KeyedDeployment, env: Env): string | null {
  if (deployment.kind !== 'server' || !deployment.apiKeyEnv) return null
  return env[deployment.apiKeyEnv] || null
}

/** The keys that are set: values to mask wherever output is shown or logged. */
export function apiKeyValues(deployments: Iterable<KeyedDeployment | undefined>, env: Env): string[] {
  return [...deployments].flatMap(d => {
    const key = d ? apiKeyOf(d, env) : null
    return key ? [key] : []
  })
}

/** The refusal of a side whose gate file names a key variable that is not set (the run plan's requireKeys throws it). */
export function missingKeyError(name: string, side: string, source: string): ConfigError {
  return new ConfigError('config.api_key_missing', `the environment variable ${name} (the ${side} API key) is not set`, {
    file: source,
    field: `deployments.${side}.api_key_env`,
    value: name
  })
}
