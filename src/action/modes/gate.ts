/**
 * Mode gate: resolve the baseline, run what is needed, compare, upload the evidence, publish.
 * Every failure on the way becomes an error report, so evidence and a verdict always come out.
 */
import path from 'node:path'
import type { GateConfig } from '../../config/types.js'
import { GateError } from '../../errors.js'
import type { Report } from '../../report/model.js'
import { evidenceArtifactName } from '../artifact-names.js'
import { OUTPUTS } from '../constants.js'
import { errorReport } from '../error-report.js'
import { evidenceDir, recordManifest } from '../evidence.js'
import type { BaselineOrigin } from '../manifest.js'
import { publish } from '../publish.js'
import type { Session } from '../session.js'
import { loadGateFile, planBaseline, runSidesSafely, sidesToRun, uploadEvidence, writeReports } from '../steps.js'
import type { ModeOutcome } from './outcome.js'

export async function gateMode(session: Session): Promise<ModeOutcome> {
  const { deps } = session
  const dir = await evidenceDir(session)
  let report: Report
  let config: GateConfig | null = null
  let change: string | null = null
  let origin: BaselineOrigin | null = null
  try {
    const gateFile = await loadGateFile(session)
    config = gateFile.config
    change = gateFile.change
    const fingerprint = deps.fingerprint(config)
    const plan = await planBaseline(session, config, fingerprint)
    origin = plan.origin
    // require-archived without an archive: nothing worth running.
    if (plan.errors.length > 0) throw plan.errors[0]
    const outDir = path.join(dir, 'helm')
    const result = await runSidesSafely(session, config, { outDir, sides: sidesToRun(plan) })
    const baselinePath = plan.archivedPath ?? result.paths.baseline ?? path.join(outDir, 'baseline')
    const candidatePath = result.paths.candidate ?? path.join(outDir, 'candidate')
    await recordManifest(session, dir, {
      fingerprint,
      helmVersion: config.helm?.version ?? null,
      configSource: gateFile.origin,
      sidePaths: result.paths,
      completed: result.completed,
      runs: config.runs,
      baselineOrigin: origin
    })
    report = await deps.compareOutputs(baselinePath, candidatePath, config, [...plan.errors, ...result.errors])
    report.notes.push(plan.note, ...gateFile.notes)
  } catch (error) {
    report = errorReport('The gate could not run.', [error], config?.statistics)
    if (!(error instanceof GateError)) deps.io.error(`internal error: ${(error as Error).stack ?? error}`)
  }
  const written = await writeReports(session, report, dir, change)
  const upload = await uploadEvidence(session, evidenceArtifactName('gate', session.event.runAttempt), dir)
  await publish(session, { report, gateFileChange: change, artifactId: upload.id })
  setCommonOutputs(session, written.jsonPath, written.markdownPath, upload, origin)
  return { verdict: report.verdict, headline: report.headline }
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
