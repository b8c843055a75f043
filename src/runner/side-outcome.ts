/**
 * What happened on one side: built up while the side runs (its server probe, its process's
 * result, the check of its run directories), then written to the manifest as the side's record.
 */
import { dirname } from 'node:path'
import { runnerCommandName } from '../config/runner-command.js'
import type { Deployment, GatedRun } from '../config/types.js'
import { GateError, HelmRunError } from '../errors.js'
import { manifestPath, type SideRecord } from '../model/manifest.js'
import { redactUrl, redactText } from '../secrets/redact.js'
import type { ProbeResult } from '../server/readiness.js'
import type { HelmProcessResult } from './helm-process.js'
import { stallLimitMs } from './produce-side.js'
import { redactedFiles } from './prod-env.js'
import { explainSideErrors } from './root-cause.js'
import type { Side, SidePlan } from './side-plan.js'
import { verifyLmEvalSideOutput, verifySideOutput } from './verify.js'

export interface SideOutcome {
  side: Side
  /** HELM `--output-path` (absolute). */
  outputPath: string
  suite: string
  logFile: string
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  startedAt: string | null
  endedAt: string | null
  durationMs: number | null
  requests: number
  server: ProbeResult | null
  complete: boolean
  errors: GateError[]
}

/** A side before anything has run: not complete, no errors yet. */
export function emptyOutcome(plan: SidePlan): SideOutcome {
  return {
    side: plan.side,
    outputPath: plan.outputPath,
    suite: plan.suite,
    logFile: plan.logFile,
    exitCode: null,
    signal: null,
    timedOut: false,
    startedAt: null,
    endedAt: null,
    durationMs: null,
    requests: 0,
    server: null,
    complete: false,
    errors: []
  }
}

/**
 * Records the side's process result and its errors (could not start, stalled, hung, failed), then
 * checks every expected run directory: the side is complete only when nothing went wrong.
 */
export async function finishSide(
  plan: SidePlan,
  result: HelmProcessResult,
  outcome: SideOutcome,
  runs: GatedRun[],
  deployment: Deployment
): Promise<void> {
  outcome.exitCode = result.exitCode
  outcome.signal = result.signal
  outcome.timedOut = result.timedOut
  outcome.startedAt = result.startedAt
  outcome.endedAt = result.endedAt
  outcome.durationMs = result.durationMs
  outcome.requests = result.requests
  const where = { file: plan.logFile }
  // A runner command is named as itself: "helm-run" in its errors would send a reader to the wrong program.
  const program = plan.runner ? `the runner command ${runnerCommandName([plan.command, ...plan.args])}` : 'helm-run'
  if (result.spawnError) {
    outcome.errors.push(
      new HelmRunError('runner.spawn', `${plan.side}: could not start ${program}: ${result.spawnError}`, { ...where, value: plan.command })
    )
    return
  }
  if (result.stalled) {
    const { idleMs, waiting } = result.stalled
    outcome.errors.push(
      new HelmRunError(
        'runner.stalled',
        `${plan.side}: the ${plan.side} server stopped answering: no request completed for ${Math.round(idleMs / 1000)} s while ${waiting} waited, so helm-run was stopped (the limit is ${Math.round(stallLimitMs(deployment) / 1000)} s; docs/helm.md "A server that stops answering")`,
        where
      )
    )
  } else if (result.timedOut) {
    const at = result.runsStarted.at(-1)
    outcome.errors.push(
      new HelmRunError(
        'runner.timeout',
        `${plan.side}: ${program} hung and was killed after ${Math.round(result.durationMs / 1000)} s${at ? ` during run ${at}` : ''} (helm.timeout_minutes)`,
        where
      )
    )
  } else if (result.exitCode !== 0) {
    const runsNamed = result.failedRuns.length ? `; failed runs: ${result.failedRuns.join(', ')}` : ''
    outcome.errors.push(
      new HelmRunError(
        'runner.exit',
        `${plan.side}: ${program} exited with ${result.exitCode ?? result.signal}${runsNamed}; see the ${plan.side} log`,
        { ...where, value: result.failedRuns[0] }
      )
    )
  }
  const verification =
    deployment.kind === 'command' && deployment.output === 'lm-eval'
      ? await verifyLmEvalSideOutput(plan.side, plan.outputPath, runs, program)
      : await verifySideOutput(plan.side, plan.outputPath, plan.suite, runs, program)
  outcome.errors.push(...verification.errors)
  outcome.complete = outcome.errors.length === 0
  outcome.errors = await explainSideErrors(outcome.errors, plan.logFile, dirname(plan.outputPath), plan.runner !== null)
}

/**
 * The side's launched server died while it was measured: that is the cause, so it comes first,
 * and what the client saw (helm-run's "Connection refused", already grouped) follows as the
 * symptom. Even a side whose run completed is not complete: its server's death is a doubt.
 */
export function serverDied(outcome: SideOutcome, cause: GateError): void {
  outcome.errors = [cause, ...outcome.errors]
  outcome.complete = false
}

/** The side's manifest record, paths relative to outDir. */
export function sideRecord(plan: SidePlan, outcome: SideOutcome, deployment: Deployment, outDir: string): SideRecord {
  const described: Record<string, unknown> =
    deployment.kind === 'server'
      ? {
          kind: 'server',
          api: deployment.api,
          base_url: redactUrl(deployment.baseUrl),
          model: deployment.model,
          tokenizer: deployment.tokenizer,
          max_sequence_length: deployment.maxSequenceLength,
          api_key_env: deployment.apiKeyEnv,
          request_timeout_seconds: deployment.requestTimeoutSeconds
        }
      : deployment.kind === 'command'
        ? {
            kind: 'command',
            command: deployment.command,
            model: deployment.model,
            seed: deployment.seed,
            command_output: deployment.output
          }
        : { kind: 'prod_env', prod_env: deployment.localPath, deployment: deployment.deployment }
  // The manifest is uploaded as evidence: no credential, not even inside a URL or an error.
  return {
    source: 'run',
    helm_deployment: plan.prodEnv.deployment,
    deployment: described,
    server: outcome.server,
    output_path: manifestPath(outDir, plan.outputPath),
    suite: plan.suite,
    log_file: manifestPath(outDir, plan.logFile) ?? plan.logFile,
    entries: plan.entries,
    command: [plan.command, ...plan.args],
    prod_env: redactedFiles(plan.prodEnv),
    started_at: outcome.startedAt,
    ended_at: outcome.endedAt,
    duration_ms: outcome.durationMs,
    exit_code: outcome.exitCode,
    signal: outcome.signal,
    timed_out: outcome.timedOut,
    requests: outcome.requests,
    complete: outcome.complete,
    errors: outcome.errors.map(error => ({ code: error.code, message: redactText(error.message) }))
  }
}
