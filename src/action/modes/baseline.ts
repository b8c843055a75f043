/**
 * Mode baseline: run only the baseline and archive it under a name that carries the gate set's
 * fingerprint, so pull requests can reuse it instead of running it again. Meant for pushes to
 * the default branch or a schedule; archives made elsewhere are never picked up.
 */
import path from 'node:path'
import { GateError } from '../../errors.js'
import { baselineArtifactName, evidenceArtifactName } from '../artifact-names.js'
import { OUTPUTS } from '../constants.js'
import { issueFrom } from '../error-report.js'
import { evidenceDir, recordManifest } from '../evidence.js'
import type { Session } from '../session.js'
import { loadGateFile, runSidesSafely, uploadEvidence } from '../steps.js'
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
  const errors: unknown[] = []
  let archiveName: string | null = null
  try {
    const { config, origin } = await loadGateFile(session)
    const fingerprint = deps.fingerprint(config)
    const result = await runSidesSafely(session, config, { outDir: path.join(dir, 'helm'), sides: ['baseline'] })
    errors.push(...result.errors)
    const manifest = await recordManifest(session, dir, {
      fingerprint,
      helmVersion: config.helm?.version ?? null,
      configSource: origin,
      sidePaths: result.paths,
      completed: result.completed,
      runs: config.runs,
      baselineOrigin: { kind: 'run' }
    })
    if (manifest.complete && result.errors.length === 0) archiveName = baselineArtifactName(settings.baselineArtifact, fingerprint)
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    errors.push(error)
  }

  // An incomplete baseline is uploaded as evidence under another name, so it can never be reused.
  const name = archiveName ?? evidenceArtifactName('baseline', event.runAttempt)
  // Names are unique per workflow run, and a re-run attempt shares the run: replace the old one.
  if (archiveName) {
    try {
      await deps.artifacts().remove(archiveName)
    } catch (error) {
      io.warning(`could not replace the earlier archive ${archiveName}: ${(error as Error).message}`)
    }
  }
  const upload = await uploadEvidence(session, name, dir)
  io.setOutput(OUTPUTS.artifactName, name)
  if (upload.id !== null) io.setOutput(OUTPUTS.artifactId, upload.id)
  if (archiveName && upload.id === null) {
    errors.push(new GateError('baseline.upload', `the baseline archive ${archiveName} could not be uploaded`))
  }

  const ok = errors.length === 0 && archiveName !== null
  const headline = ok
    ? `Archived the baseline as ${archiveName}.`
    : `The baseline could not be archived: ${errors.map(e => issueFrom(e).message).join('; ')}`
  await io.writeSummary(`## helm-gate baseline\n\n${headline}\n`)
  io.setOutput(OUTPUTS.verdict, ok ? 'pass' : 'error')
  return { verdict: ok ? 'pass' : 'error', headline }
}
