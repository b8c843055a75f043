/**
 * What `plan` shows of the run plan (run-plan.ts), from the plan itself rather than from the gate
 * file again: each side (its endpoint with the URL's credentials masked, the model, the API, the
 * key variable's name and whether it is set, never its value; launched or always up; or what
 * makes its runs when it is not a server), and the measurements in the order they will run.
 * Pure: the caller passes the plan and the names.
 */
import type { GateConfig } from '../config/types.js'
import type { Side } from '../model/verdict.js'
import { redactUrl } from '../secrets/redact.js'
import type { PlannedSides } from './run-plan.js'

export interface PlanLinesInput {
  config: GateConfig
  sides: PlannedSides
  /** What makes each side's run directories (helm-run, a runner command), as the quality half's name says. */
  quality: string
  /** The other measurements, in the order they run and join the report (pipeline/measurements.ts). */
  measurements: readonly string[]
  /** A self-check runs the baseline's deployment on both sides. */
  selfCheck?: boolean
}

export function runPlanLines(input: PlanLinesInput): string[] {
  const out = ['# run plan (made once before anything runs; run executes it):']
  for (const side of ['baseline', 'candidate'] as const) out.push(`#   ${side}: ${sideLine(input, side)}`)
  out.push(`#   measurements, in order: ${[input.quality, ...input.measurements].join('; then ')}`)
  return out
}

function sideLine(input: PlanLinesInput, side: Side): string {
  const { config, sides, selfCheck } = input
  const from: Side = selfCheck ? 'baseline' : side
  const deployment = config.deployments?.[from]
  const same = from !== side ? ' (self-check: the baseline deployment)' : ''
  if (!deployment) return 'no deployment'
  if (deployment.kind === 'prod_env') return `HELM deployment ${deployment.deployment} from a prod_env${same}`
  if (deployment.kind === 'command') return `a runner command (${deployment.output} output)${same}`
  const endpoint = sides.endpoints[from]
  if (!endpoint) return 'no endpoint'
  const name = sides.keyVariables[from]
  const key = name ? `key ${name} (${endpoint.apiKey ? 'set' : 'NOT SET: run refuses it'})` : 'no key'
  const launch = config.launch?.sides[from]
  const up = launch ? `launched by helm-gate (${launch.field})` : 'always up (probed before the side runs)'
  return `${redactUrl(endpoint.baseUrl)} model ${endpoint.model}, api ${endpoint.api}, ${key}; ${up}${same}`
}
