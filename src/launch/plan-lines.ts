/**
 * What `helm-gate plan` says about launching: the schedule, and per launched side the command as
 * it would be spawned (`${NAME}` filled from this environment, secrets masked), where it runs,
 * how long it may take to get ready and how it is stopped. Nothing is started.
 */
import { counted } from '../words.js'
import type { LaunchSettings, LaunchSpec } from '../config/launch.js'
import type { LoadSettings } from '../config/load-types.js'
import type { Deployment, GateConfig } from '../config/types.js'
import { GateError } from '../errors.js'
import { routeUrl } from '../server/endpoint.js'
import { redactUrl } from '../secrets/redact.js'
import { blockPlan, swapsNeeded } from '../load/block-schedule.js'
import { scheduleOf } from '../plan/run-plan.js'
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
  const schedule = scheduleOf(input.settings, input.sequential)
  if (schedule === 'sequential') {
    const why = input.sequential ? '--sequential' : 'the gate file'
    return `# schedule: sequential (${why}): baseline up, measured, down; then the candidate (the quality half: drift between the two periods is not cancelled; the load half swaps the sides between blocks)`
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

const SIDES = ['baseline', 'candidate'] as const

/**
 * What `plan` says about the load half's mode and why: both sides up at once (servers always up, a
 * concurrent schedule), swapped between blocks (launched on a sequential schedule), or one period
 * per side (a side that cannot be swapped). With `swapMs` (plan --measure-swap) also the swaps and
 * blocks load.swap_budget_seconds allows at that cost.
 */
export function loadModeLines(config: GateConfig, sequential: boolean, cores: number, swapMs: number | null): string[] {
  const load = config.load
  if (!load) return []
  const sides = config.launch?.sides ?? {}
  const launched = SIDES.filter(side => sides[side])
  const schedule = scheduleOf(config.launch, sequential)
  if (launched.length === 0) return ['# load half: both up (the servers are always up): blocks alternate A B B A']
  if (launched.length === 1) {
    const always = SIDES.find(side => !sides[side])
    return [`# load half: both up (the ${always} is always up, the ${launched[0]} while launched): blocks alternate A B B A`]
  }
  const threads = threadSplit(config)
  if (schedule === 'concurrent') {
    return [
      `# load half: both up at once (schedule: concurrent): blocks alternate A B B A with no swap; the two servers share the host${threads ? ` (--threads ${threads.baseline} + ${threads.candidate} of ${cores} cores)` : ': split its cores (--threads) or its accelerator memory between them'}`
    ]
  }
  const lines: string[] = []
  const fixed = launched.find(side => sides[side]?.switch === 'none')
  const needed = swapsNeeded(blockPlan(load, 'swapped'))
  if (fixed) {
    lines.push(
      `# load half: one period per side (deployments.${fixed}.launch.switch is none: swapping is impossible): drift between the periods is not cancelled, and the decision line says so`
    )
  } else {
    const how = SIDES.map(side => `${side} ${sides[side]?.switch ?? 'restart'}`).join(', ')
    lines.push(
      `# load half: swapped (schedule: sequential, one side up at a time): blocks alternate A B B A with ${counted(needed, 'swap')} between them (switch: ${how}); after each swap the side is probed for readiness and warmed up again, outside the figures`
    )
    const budget = load.swapBudgetSeconds
    if (swapMs === null) {
      lines.push(
        `#   swap cost: measured by run at the start of the load half (plan --measure-swap measures it now); load.swap_budget_seconds ${budget} s`
      )
    } else {
      const allowed = swapMs > 0 ? Math.floor((budget * 1000) / swapMs) : Infinity
      const most = mostRepetitions(load, allowed)
      lines.push(
        `#   swap cost: ${(swapMs / 1000).toFixed(1)} s (measured now: one side stopped or put to sleep, the other up and ready); load.swap_budget_seconds ${budget} s allows ${Number.isFinite(allowed) ? allowed : 'any number of'} swaps: ` +
          (most === null
            ? 'fewer than the fewest blocks (repetitions 3)'
            : `at most ${2 * most * load.levels.length} blocks (repetitions ${most}${most >= 1000 ? ' or more' : ''})`) +
          `; this plan needs ${needed} for ${2 * load.repetitions * load.levels.length} blocks`
      )
      if (needed * swapMs > budget * 1000) {
        lines.push(
          '# WARNING over the swap budget: run would measure each side in its own period (not interleaved), and say so in the decision line'
        )
      }
    }
  }
  if (threads && threads.baseline + threads.candidate <= cores) {
    lines.push(
      `#   this host could hold both at once (--threads ${threads.baseline} + ${threads.candidate} <= ${cores} cores): schedule: concurrent, each side on its own port, measures them both up without swaps`
    )
  }
  return lines
}

/** The most repetitions (3 to 1000) whose A B B A plan needs at most `allowed` swaps; null if none. */
function mostRepetitions(load: LoadSettings, allowed: number): number | null {
  let most: number | null = null
  for (let repetitions = 3; repetitions <= 1000; repetitions++) {
    if (swapsNeeded(blockPlan({ ...load, repetitions }, 'swapped')) > allowed) break
    most = repetitions
  }
  return most
}

/** Each launched side's `--threads N` (`-t N`), when both give one: CPU engines that split the host. */
function threadSplit(config: GateConfig): Record<'baseline' | 'candidate', number> | null {
  const of = (side: 'baseline' | 'candidate'): number | null => {
    const command = config.launch?.sides[side]?.command ?? []
    const at = command.findIndex(arg => arg === '--threads' || arg === '-t')
    const value = at >= 0 ? Number(command[at + 1]) : NaN
    return Number.isInteger(value) && value > 0 ? value : null
  }
  const baseline = of('baseline')
  const candidate = of('candidate')
  return baseline !== null && candidate !== null ? { baseline, candidate } : null
}
