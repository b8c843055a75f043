/**
 * Mode run: one shard of a matrix. Runs its share of the gate set's entries (both sides, or only
 * the candidate when an archived baseline is reused, which is then copied in) and uploads a
 * self-contained artifact that mode compare aggregates. It publishes no verdict.
 */
import path from 'node:path'
import { GateError } from '../../errors.js'
import { evidenceArtifactName } from '../artifact-names.js'
import { OUTPUTS } from '../constants.js'
import { issueFrom } from '../error-report.js'
import { evidenceDir, recordManifest } from '../evidence.js'
import { selectShard } from '../shards.js'
import type { Session } from '../session.js'
import { copySide, loadGateFile, planBaseline, runSidesSafely, sidesToRun, uploadEvidence } from '../steps.js'
import type { ModeOutcome } from './outcome.js'

export async function runShardMode(session: Session): Promise<ModeOutcome> {
  const { deps, settings, event } = session
  const shard = { index: settings.shardIndex, count: settings.shardCount }
  const dir = await evidenceDir(session)
  const errors: unknown[] = []
  let complete = false
  try {
    const { config, origin: configSource } = await loadGateFile(session)
    const runs = selectShard(config.runs, shard.index, shard.count)
    const fingerprint = deps.fingerprint(config)
    const plan = await planBaseline(session, config, fingerprint)
    if (plan.errors.length > 0) throw plan.errors[0]
    const result = await runSidesSafely(session, config, { outDir: path.join(dir, 'helm'), sides: sidesToRun(plan), runs })
    errors.push(...result.errors)
    const sidePaths = { ...result.paths }
    const completed = [...result.completed]
    if (plan.archivedPath) {
      sidePaths.baseline = await copySide(plan.archivedPath, dir, 'baseline-archived')
      completed.push('baseline')
    }
    const manifest = await recordManifest(session, dir, {
      fingerprint,
      helmVersion: config.helm?.version ?? null,
      configSource,
      sidePaths,
      completed,
      runs,
      shard,
      baselineOrigin: plan.origin
    })
    complete = manifest.complete && errors.length === 0
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    errors.push(error)
  }
  const upload = await uploadEvidence(session, evidenceArtifactName('run', event.runAttempt, shard), dir)
  deps.io.setOutput(OUTPUTS.artifactName, upload.name)
  if (upload.id !== null) deps.io.setOutput(OUTPUTS.artifactId, upload.id)
  const headline = complete
    ? `Shard ${shard.index + 1} of ${shard.count} ran; mode compare gives the verdict.`
    : `Shard ${shard.index + 1} of ${shard.count} failed: ${errors.map(e => issueFrom(e).message).join('; ')}`
  await deps.io.writeSummary(`## helm-gate shard ${shard.index + 1}/${shard.count}\n\n${headline}\n`)
  // A shard has no verdict of its own; "pass" only means its evidence is complete.
  return { verdict: complete ? 'pass' : 'error', headline }
}
