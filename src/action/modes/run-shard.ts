/**
 * Mode run: one shard of a matrix. The sides come from helm-run for its share of the gate set's
 * entries (only the candidate when an archived baseline is reused, which is then copied in); the
 * result goes to a self-contained artifact that mode compare aggregates. Its `verdict` output is
 * pass when the shard's runs completed and error otherwise; the gate's verdict is mode compare's.
 */
import { GateError } from '../../errors.js'
import { evidenceArtifactName, gateSlug } from '../../evidence/names.js'
import type { ReportIssue } from '../../model/report.js'
import { issueFrom } from '../../model/error-report.js'
import { runGate } from '../../pipeline/run-gate.js'
import { fixedAtBudget } from '../../sequential/pooled-savings.js'
import { OUTPUTS } from '../constants.js'
import { evidenceDir } from '../evidence.js'
import { evidenceOnCancel } from '../cancel.js'
import type { StatisticsSettings } from '../../config/types.js'
import { sessionFingerprint } from '../launch-policy.js'
import type { Session } from '../session.js'
import { selectShard } from '../shards.js'
import { copySide, loadGateFile, phase, pipelineSettings, planBaseline, uploadEvidence } from '../steps.js'
import type { ModeOutcome } from './outcome.js'

export async function runShardMode(session: Session): Promise<ModeOutcome> {
  const { deps, settings, event } = session
  const shard = { index: settings.shardIndex, count: settings.shardCount }
  const dir = await evidenceDir(session)
  const errors: ReportIssue[] = []
  let complete = false
  let statistics: StatisticsSettings | undefined
  const artifactName = evidenceArtifactName('run', gateSlug(session.repoPath), event.runAttempt, shard)
  const cancel = evidenceOnCancel(session, dir, artifactName, () => statistics)
  try {
    const loaded = await phase(session, 'gate file', () => loadGateFile(session))
    const origin = loaded.origin
    statistics = loaded.config.statistics
    // A shard of a sequential gate runs the fixed design at the budget: it holds a share of the
    // entries, which cannot be staged, and the aggregating job replays the sequence over the
    // pooled shards (docs/method.md "Sequential verdicts", "Shards").
    const config = fixedAtBudget(loaded.config)
    const runs = selectShard(config.runs, shard.index, shard.count)
    // The fingerprint the archived baseline is looked up by is the run plan's: computed once.
    const fingerprint = await sessionFingerprint(session, config)
    const { plan, archived } = await phase(session, 'baseline', async () => {
      const plan = await planBaseline(session, config, fingerprint)
      if (plan.errors.length > 0) throw plan.errors[0]
      // The archived baseline is copied in, so the shard's artifact is self-contained.
      return { plan, archived: plan.archivedPath ? await copySide(plan.archivedPath, dir, 'baseline-archived') : null }
    })
    const settings = await pipelineSettings(session, config, origin, 'manifest')
    const { report, manifest } = await phase(session, 'helm-run', () =>
      runGate({
        ...settings,
        fingerprint,
        runs,
        shard,
        compare: false,
        given: archived ? { baseline: { path: archived, source: 'archived' } } : {},
        baselineOrigin: plan.origin
      })
    )
    errors.push(...report.errors)
    complete = manifest.complete
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    errors.push(issueFrom(error))
  }
  await cancel.settle()
  const upload = await phase(session, 'evidence', () => uploadEvidence(session, artifactName, dir))
  deps.io.setOutput(OUTPUTS.artifactName, upload.name)
  if (upload.id !== null) deps.io.setOutput(OUTPUTS.artifactId, upload.id)
  const headline = complete
    ? `Shard ${shard.index + 1} of ${shard.count} ran; mode compare gives the verdict.`
    : `Shard ${shard.index + 1} of ${shard.count} failed: ${errors.map(e => e.message).join('; ')}`
  await deps.io.writeSummary(`## helm-gate shard ${shard.index + 1}/${shard.count}\n\n${headline}\n`)
  const verdict = complete ? 'pass' : 'error'
  deps.io.setOutput(OUTPUTS.verdict, verdict)
  return { verdict, headline }
}
