/**
 * Mode baseline: the baseline comes from helm-run, the result goes to an artifact named by the
 * gate set's fingerprint, so pull requests can reuse it instead of running it again. Meant for
 * pushes to the default branch or a schedule; archives made elsewhere are never picked up.
 */
import { GateError } from '../../errors.js'
import { baselineArtifactName, evidenceArtifactName, gateSlug } from '../../evidence/names.js'
import type { ReportIssue } from '../../model/report.js'
import { issueFrom } from '../../model/error-report.js'
import { runGate } from '../../pipeline/run-gate.js'
import { OUTPUTS } from '../constants.js'
import { evidenceDir } from '../evidence.js'
import { evidenceOnCancel } from '../cancel.js'
import type { StatisticsSettings } from '../../config/types.js'
import type { Session } from '../session.js'
import { loadGateFile, phase, pipelineSettings, uploadEvidence } from '../steps.js'
import type { ModeOutcome } from './outcome.js'

export async function baselineMode(session: Session): Promise<ModeOutcome> {
  const { deps, event, settings } = session
  const { io } = deps
  const dir = await evidenceDir(session)
  if (!event.isDefaultBranchPush && event.eventName !== 'schedule' && event.eventName !== 'workflow_dispatch') {
    io.warning(
      `mode baseline ran on a ${event.eventName || 'unknown'} event; pull requests only reuse baselines ` +
        `archived by a successful push, schedule or manual run on ${event.defaultBranch ?? 'the default branch'}`
    )
  }
  const errors: ReportIssue[] = []
  let archiveName: string | null = null
  let statistics: StatisticsSettings | undefined
  // Cancelled: the evidence under the incomplete-baseline name, never the reusable archive's.
  const cancel = evidenceOnCancel(
    session,
    dir,
    evidenceArtifactName('baseline', gateSlug(session.repoPath), event.runAttempt),
    () => statistics
  )
  try {
    const { config, origin } = await phase(session, 'gate file', () => loadGateFile(session))
    statistics = config.statistics
    const gate = await pipelineSettings(session, config, origin, 'manifest')
    const { report, manifest } = await phase(session, 'helm-run', () =>
      runGate({ ...gate, sides: ['baseline'], compare: false, baselineOrigin: { kind: 'run' } })
    )
    errors.push(...report.errors)
    if (manifest.complete) archiveName = baselineArtifactName(settings.baselineArtifact, manifest.fingerprint)
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    errors.push(issueFrom(error))
  }
  await cancel.settle()

  // An incomplete baseline is uploaded as evidence under another name, so it can never be reused.
  const name = archiveName ?? evidenceArtifactName('baseline', gateSlug(session.repoPath), event.runAttempt)
  const upload = await phase(session, 'archive', async () => {
    // Names are unique per workflow run, and a re-run attempt shares the run: replace the old one.
    if (archiveName) {
      try {
        await deps.artifacts().remove(archiveName)
      } catch (error) {
        io.warning(`could not replace the earlier archive ${archiveName}: ${(error as Error).message}`)
      }
    }
    return uploadEvidence(session, name, dir)
  })
  io.setOutput(OUTPUTS.artifactName, name)
  if (upload.id !== null) io.setOutput(OUTPUTS.artifactId, upload.id)
  if (archiveName && upload.id === null) {
    errors.push({ code: 'baseline.upload', message: `the baseline archive ${archiveName} could not be uploaded` })
  }

  const ok = errors.length === 0 && archiveName !== null
  const headline = ok
    ? `Archived the baseline as ${archiveName}.`
    : `The baseline could not be archived: ${errors.map(e => e.message).join('; ')}`
  await io.writeSummary(`## helm-gate baseline\n\n${headline}\n`)
  io.setOutput(OUTPUTS.verdict, ok ? 'pass' : 'error')
  return { verdict: ok ? 'pass' : 'error', headline }
}
