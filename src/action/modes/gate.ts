/**
 * Mode gate: the sides come from helm-run (the baseline, or an archived one from the default
 * branch), the results go to the PR comment, the check run and the evidence artifact. Every
 * failure on the way becomes an error report, so evidence and a verdict always come out.
 */
import type { GateConfig } from '../../config/types.js'
import { GateError } from '../../errors.js'
import { evidenceArtifactName, gateSlug } from '../../evidence/names.js'
import type { BaselineOrigin } from '../../model/manifest.js'
import type { ChangedExample, Report } from '../../model/report.js'
import { errorReport } from '../../model/error-report.js'
import { runGate } from '../../pipeline/run-gate.js'
import { decide } from '../../report/decision.js'
import { OUTPUTS } from '../constants.js'
import { evidenceDir } from '../evidence.js'
import { evidenceOnCancel } from '../cancel.js'
import { actionLoadHalf } from '../load-half.js'
import { publish } from '../publish.js'
import { sessionFingerprint } from '../launch-policy.js'
import type { Session } from '../session.js'
import { givenBaseline, loadGateFile, phase, pipelineSettings, planBaseline, uploadEvidence, writeReports } from '../steps.js'
import type { ModeOutcome } from './outcome.js'

export async function gateMode(session: Session): Promise<ModeOutcome> {
  const dir = await evidenceDir(session)
  let report: Report
  let config: GateConfig | null = null
  let change: string | null = null
  let origin: BaselineOrigin | null = null
  const artifactName = evidenceArtifactName('gate', gateSlug(session.repoPath), session.event.runAttempt)
  const cancel = evidenceOnCancel(session, dir, artifactName, () => config?.statistics)
  // Every changed answer, for report.html in the evidence (report.json keeps a few).
  const changedAnswers = new Map<string, ChangedExample[]>()
  try {
    const gateFile = await phase(session, 'gate file', () => loadGateFile(session))
    config = gateFile.config
    change = gateFile.change
    const gateConfig = config
    // The fingerprint the archived baseline is looked up by is the run plan's: computed once.
    const fingerprint = await sessionFingerprint(session, gateConfig)
    const plan = await phase(session, 'baseline', async () => planBaseline(session, gateConfig, fingerprint))
    origin = plan.origin
    // require-archived without an archive: nothing worth running.
    if (plan.errors.length > 0) throw plan.errors[0]
    const settings = await pipelineSettings(session, config, gateFile.origin)
    // helm-run's progress; each side's output, the comparison and the load half follow in groups
    // of their own. A launched gate's load half runs inside it, while the servers are up (docs/launch.md).
    const load = actionLoadHalf(session, gateConfig, 'gate')
    const result = await phase(session, 'helm-run', () =>
      runGate({ ...settings, fingerprint, given: givenBaseline(plan), baselineOrigin: plan.origin, load, changedAnswers })
    )
    report = result.report
    report.notes.push(plan.note, ...gateFile.notes)
  } catch (error) {
    report = errorReport('The gate could not run.', [error], config?.statistics)
    if (!(error instanceof GateError)) session.deps.io.error(`internal error: ${(error as Error).stack ?? error}`)
  }
  await cancel.settle()
  const { written, upload } = await phase(session, 'evidence', async () => ({
    written: await writeReports(session, report, dir, change, changedAnswers),
    upload: await uploadEvidence(session, artifactName, dir)
  }))
  const published = { report, gateFileChange: change, artifactId: upload.id }
  await phase(session, 'publish', () => publish(session, published))
  setCommonOutputs(session, written.jsonPath, written.markdownPath, upload, origin)
  return {
    verdict: report.verdict,
    headline: report.headline,
    decision: report.load || report.parts?.length ? decide(report).detail : undefined
  }
}

export function setCommonOutputs(
  session: Session,
  jsonPath: string,
  markdownPath: string,
  upload: { id: number | null; name: string },
  origin: BaselineOrigin | null
): void {
  const { io } = session.deps
  io.setOutput(OUTPUTS.reportPath, jsonPath)
  io.setOutput(OUTPUTS.markdownPath, markdownPath)
  io.setOutput(OUTPUTS.artifactName, upload.name)
  if (upload.id !== null) io.setOutput(OUTPUTS.artifactId, upload.id)
  if (origin) {
    io.setOutput(OUTPUTS.baselineSource, origin.kind)
    if (origin.age_hours !== undefined) io.setOutput(OUTPUTS.baselineAgeHours, origin.age_hours)
    if (origin.artifact_id !== undefined) io.setOutput(OUTPUTS.baselineArtifactId, origin.artifact_id)
  }
}
