/**
 * A cancelled job still leaves evidence. GitHub cancels a step with SIGINT, then SIGTERM 7.5 s
 * later, then SIGKILL. On the first signal helm-gate stops every process group it started and
 * removes the temporary folder and the base worktree (src/process/registry.ts); then this hook writes an error report saying the run was cancelled
 * next to the logs written so far (logs/<side>-server.log, logs/<side>.log) and uploads the
 * evidence folder, within the few seconds left. The mode's own path must not race it: once
 * cancelled it waits for the signal handler to end the process (`settle`).
 */
import type { StatisticsSettings } from '../config/types.js'
import { GateError } from '../errors.js'
import { guardOnCancel, type CancelGuard } from '../process/registry.js'
import { errorReport } from '../model/error-report.js'
import type { Session } from './session.js'
import { uploadEvidence, writeReports } from './steps.js'

export function evidenceOnCancel(
  session: Session,
  dir: string,
  artifactName: string,
  statistics: () => StatisticsSettings | undefined
): CancelGuard {
  return guardOnCancel(async signal => {
    const cancelled = new GateError(
      'run.cancelled',
      `helm-gate received ${signal} (the job was cancelled) before the gate finished: every launched server and helm-run was stopped and the temporary files (prod_env, the base commit's worktree) removed; the logs written until then are in the evidence`
    )
    const report = errorReport(`Cancelled: helm-gate received ${signal} before the gate finished.`, [cancelled], statistics())
    await writeReports(session, report, dir, null)
    await uploadEvidence(session, artifactName, dir)
  })
}
