/**
 * Produces a side's run directories: the one place that decides how. Today that is helm-run
 * against the side's deployment, one process for all of the side's entries. A second kind (a
 * runner command run once per entry, for example) is a second branch of `produceSideRuns`
 * returning the same result, so that what follows it (the checks in side-outcome.ts, the manifest
 * record, the comparison) stays one.
 */
import { mkdir } from 'node:fs/promises'
import type { Deployment } from '../config/types.js'
import { runHelmProcess, type HelmProcessResult } from './helm-process.js'
import type { RunnerInvocation, SidePlan } from './side-plan.js'

export interface ProduceContext {
  /** The child's environment (src/secrets/child-env.ts, plus the plugin path). */
  env: NodeJS.ProcessEnv
  deployment: Deployment
  /** The whole side's limit (helm.timeout_minutes). */
  timeoutMs: number
  /** Values masked in the side's log and output lines. */
  secrets: string[]
  /** Every output line, prefixed with its side. */
  log: (line: string) => void
  progress: (line: string) => void
}

/** Runs what makes `plan.outputPath/runs/<suite>/<run>` for each of the plan's entries. */
export async function produceSideRuns(plan: SidePlan, context: ProduceContext): Promise<HelmProcessResult> {
  if (plan.runner) return runRunnerCommand(plan, plan.runner, context)
  return runHelmProcess({
    side: plan.side,
    command: plan.command,
    args: plan.args,
    env: context.env,
    logFile: plan.logFile,
    timeoutMs: context.timeoutMs,
    expectedRuns: plan.entries.length,
    log: context.log,
    progress: context.progress,
    secrets: context.secrets,
    stallMs: stallLimitMs(context.deployment)
  })
}

/** Slack over one request attempt's timeout before a side with requests waiting counts as stalled. */
const STALL_SLACK_SECONDS = 30
/** A prod_env deployment's client and timeouts are HELM's own (HELM retries 5 times, 10-80 s apart). */
const PROD_ENV_STALL_SECONDS = 600

/**
 * How long helm-run may go without completing a request while some wait before it is stopped:
 * one attempt's timeout (request_timeout_seconds; the plugin client's SDK retries each attempt
 * twice more) plus 30 s, or 10 minutes for a prod_env deployment. A server that answers at all
 * completes one request of several waiting within one timeout; one that answers none has stopped.
 */
export function stallLimitMs(deployment: Deployment): number {
  return (deployment.kind === 'server' ? deployment.requestTimeoutSeconds + STALL_SLACK_SECONDS : PROD_ENV_STALL_SECONDS) * 1000
}

/**
 * A runner command side: the command once per entry, one after the other, each in the side's
 * process group machinery of helm-run (log, timeout, group kill on cancel), under one limit for the
 * whole side. The first failure stops the side (fail closed: the rest could not pass anyway). It
 * has no request marks, so no stall watch: the side's timeout is the limit.
 */
async function runRunnerCommand(plan: SidePlan, calls: RunnerInvocation[], context: ProduceContext): Promise<HelmProcessResult> {
  await mkdir(plan.workDir, { recursive: true })
  const started = Date.now()
  let last: HelmProcessResult | undefined
  let requests = 0
  const runsStarted: string[] = []
  for (const [i, call] of calls.entries()) {
    const left = context.timeoutMs - (Date.now() - started)
    context.progress(`[${plan.side}] runner command ${i + 1}/${calls.length}: ${call.entry}`)
    const result = await runHelmProcess({
      side: plan.side,
      command: call.command,
      args: call.args,
      env: context.env,
      cwd: plan.workDir,
      logFile: plan.logFile,
      timeoutMs: Math.max(left, 1),
      expectedRuns: calls.length,
      log: context.log,
      progress: context.progress,
      secrets: context.secrets,
      stallMs: null
    })
    runsStarted.push(call.entry)
    requests += result.requests
    last = {
      ...result,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      requests,
      runsStarted: [...runsStarted],
      failedRuns: result.exitCode !== 0 || result.timedOut ? [call.entry] : []
    }
    if (result.spawnError || result.timedOut || result.exitCode !== 0) break
  }
  return last as HelmProcessResult
}
