/**
 * What `helm-gate plan` says about launching: the schedule, and per launched side the command as
 * it would be spawned (`${NAME}` filled from this environment, secrets masked), where it runs,
 * how long it may take to get ready and how it is stopped. Nothing is started.
 */
import type { LaunchSettings, LaunchSpec } from '../config/launch.js'
import type { Deployment } from '../config/types.js'
import { GateError } from '../errors.js'
import { routeUrl } from '../server/endpoint.js'
import { redactUrl } from '../secrets/redact.js'
import { expandLaunch } from './expand.js'

export interface LaunchPlanInput {
  settings: LaunchSettings | null | undefined
  deployments: Record<'baseline' | 'candidate', Deployment>
  source: string
  /** The servers' environment (the runner's, without its credentials). */
  env: NodeJS.ProcessEnv
  /** API key values and URL credentials, masked wherever they appear. */
  secrets: string[]
  /** `--sequential` given: the schedule run would use. */
  sequential: boolean
  /** `--baseline-ref`, when given. */
  baseRef: string | null
}

export function scheduleLine(input: LaunchPlanInput): string {
  const schedule = input.sequential ? 'sequential' : (input.settings?.schedule ?? 'concurrent')
  if (schedule === 'sequential') {
    const why = input.sequential ? '--sequential' : 'the gate file'
    return `# schedule: sequential (${why}): baseline up, measured, down; then the candidate; drift between the two periods is not cancelled`
  }
  return '# schedule: concurrent: both sides at the same time (run --sequential to change)'
}

export function launchLines(input: LaunchPlanInput): string[] {
  const out: string[] = []
  for (const side of ['baseline', 'candidate'] as const) {
    const spec = input.settings?.sides[side]
    if (!spec) continue
    out.push('', `## ${side}: launched by helm-gate (${spec.field})`, ...sideLines(spec, input.deployments[side], input))
  }
  return out
}

function sideLines(spec: LaunchSpec, deployment: Deployment, input: LaunchPlanInput): string[] {
  const lines: string[] = []
  let command = spec.command
  let stopCommand = spec.stopCommand
  let extraEnv = spec.env
  let mask = (line: string): string => line
  try {
    const expanded = expandLaunch(spec, input.env, input.source, input.secrets)
    ;({ command, stopCommand, extraEnv, mask } = expanded)
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    lines.push(`# WARNING ${error.message}: run would stop here (shown unexpanded)`)
  }
  const show = (args: string[]): string => mask(JSON.stringify(args))
  lines.push(`command: ${show(command)}`)
  lines.push(
    spec.checkout === 'base'
      ? `checkout: base (a git worktree of ${input.baseRef ? `--baseline-ref ${input.baseRef}` : "the pull request's base commit; on the command line --baseline-ref REF is required"})`
      : "checkout: head (the checked-out tree: the pull request's own files)"
  )
  const env = Object.entries(extraEnv)
  if (env.length > 0) lines.push(`env: ${mask(env.map(([name, value]) => `${name}=${value}`).join(' '))}`)
  if (deployment.kind === 'server') {
    lines.push(
      `ready: GET ${redactUrl(safeRoute(deployment.baseUrl))} must list ${deployment.model} within ${spec.readyTimeoutSeconds} s (ready_timeout_seconds)`
    )
  }
  lines.push(
    `stop: ${spec.stop.signal} to the process group, SIGKILL after ${spec.stop.timeoutSeconds} s` +
      (stopCommand ? `, then stop_command ${show(stopCommand)}` : '')
  )
  return lines
}

function safeRoute(baseUrl: string): string {
  try {
    return routeUrl(baseUrl, 'models')
  } catch {
    return baseUrl
  }
}
