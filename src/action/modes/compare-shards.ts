/**
 * Mode compare: the aggregating job of a sharded gate. The sides come from every shard's
 * artifact (from this run, or under workflow_run from the triggering run), each checked to be
 * made from the same gate set and complete, merged per side; the result goes to the PR comment,
 * the check run and the evidence artifact, as in mode gate. With the inputs baseline-path and
 * candidate-path the sides are instead two output folders earlier steps made (HELM output, or
 * lm-eval's --log_samples output: docs/lm-eval.md), compared as they are.
 */
import { cp, mkdir, stat } from 'node:fs/promises'
import path from 'node:path'
import type { GateConfig } from '../../config/types.js'
import { GateError } from '../../errors.js'
import { evidenceArtifactName, gateSlug } from '../../evidence/names.js'
import { selectShardSet } from '../../evidence/shard-set.js'
import type { StoredArtifact } from '../../github/artifacts.js'
import { safeEntryPath } from '../../github/extracted-tree.js'
import { listRunArtifacts } from '../../github/run-artifacts.js'
import { scanRuns } from '../../helm/read/discover.js'
import { readManifest, type BaselineOrigin } from '../../model/manifest.js'
import { SIDES, type ChangedExample, type Report } from '../../model/report.js'
import { errorReport } from '../../model/error-report.js'
import { runGate } from '../../pipeline/run-gate.js'
import { readStage } from '../../runner/staged-runs.js'
import { fixedAtBudget, shardReplayNotes } from '../../sequential/pooled-savings.js'
import { decide } from '../../report/decision.js'
import { evidenceDir } from '../evidence.js'
import { actionLoadHalf } from '../load-half.js'
import { publish } from '../publish.js'
import { sessionFingerprint } from '../launch-policy.js'
import type { Session } from '../session.js'
import { loadGateFile, phase, pipelineSettings, uploadEvidence, writeReports } from '../steps.js'
import { setCommonOutputs } from './gate.js'
import type { ModeOutcome } from './outcome.js'

export async function compareShardsMode(session: Session): Promise<ModeOutcome> {
  const { deps, event } = session
  const dir = await evidenceDir(session)
  let report: Report
  let config: GateConfig | null = null
  let change: string | null = null
  let origin: BaselineOrigin | null = null
  let prNumber: number | null = event.pullRequest?.number ?? null
  // Every changed answer, for report.html in the evidence (report.json keeps a few).
  const changedAnswers = new Map<string, ChangedExample[]>()
  try {
    const gateFile = await phase(session, 'gate file', () => loadGateFile(session))
    const gateConfig = gateFile.config
    config = gateConfig
    change = gateFile.change
    const given = givenSides(session)
    // The shards ran the fixed design at the budget (src/sequential/pooled-savings.ts
    // `fixedAtBudget`): the fingerprint they were looked up by is that design's.
    const fixed = fixedAtBudget(gateConfig)
    const shards = await phase(session, given ? 'sides' : 'shards', async () => {
      if (given) return { merged: null, given, priorErrors: [] as GateError[], count: 0, fingerprint: undefined }
      const gathered = await gatherShards(session, await sessionFingerprint(session, fixed))
      origin = gathered.origin
      prNumber ??= gathered.prNumber
      if (event.eventName === 'workflow_run' && event.sourceRunId !== null) prNumber = await confirmPullRequest(session, prNumber)
      return gathered
    })
    // Fail closed on what the sides are. Merged shards are each one fixed run at the budget (their
    // fingerprints, which hold it, were checked above), so their rows' fixed-n intervals are valid
    // verdicts and are compared without `sequential:` (no `sequential.row_undecided`). Sides given
    // by path may be a staged run's last stages, whose interval at the stop is the peeking the
    // sequence exists to avoid: they keep the section, and with no stage outcome every gated row
    // is an error.
    const compared = shards.merged ? fixed : gateConfig
    const settings = await pipelineSettings(session, compared, gateFile.origin)
    // The shards' servers are gone with their jobs: a launched gate's load half launches them again.
    const load = actionLoadHalf(session, gateConfig, 'compare')
    const result = await phase(session, 'compare', () =>
      runGate({
        ...settings,
        // The one the shards were looked up by: the run plan's, computed once.
        fingerprint: shards.fingerprint,
        given: shards.given,
        priorErrors: shards.priorErrors,
        baselineOrigin: origin,
        load,
        changedAnswers
      })
    )
    report = result.report
    report.notes.push(...(shards.merged ? [`Aggregated ${shards.count} shard(s).`] : []), ...gateFile.notes)
    if (gateConfig.stopping && shards.merged) report.notes.push(...(await replayNotes(gateConfig, shards.merged)))
  } catch (error) {
    report = errorReport('The sharded gate could not be aggregated.', [error], config?.statistics)
    if (!(error instanceof GateError)) deps.io.error(`internal error: ${(error as Error).stack ?? error}`)
  }
  const final = report
  const { written, upload } = await phase(session, 'evidence', async () => ({
    written: await writeReports(session, final, dir, change, changedAnswers),
    upload: await uploadEvidence(session, evidenceArtifactName('compare', gateSlug(session.repoPath), event.runAttempt), dir)
  }))
  await phase(session, 'publish', () =>
    publish(session, { report: final, gateFileChange: change, artifactId: upload.id, pullRequestNumber: prNumber })
  )
  setCommonOutputs(session, written.jsonPath, written.markdownPath, upload, origin)
  return {
    verdict: report.verdict,
    headline: report.headline,
    decision: report.load || report.parts?.length ? decide(report).detail : undefined
  }
}

interface GatheredShards {
  merged: string
  given: Record<'baseline' | 'candidate', { path: string; source: 'artifact' }>
  priorErrors: GateError[]
  count: number
  fingerprint: string
  origin: BaselineOrigin | null
  /** The PR the first shard's manifest names (untrusted under workflow_run: confirm it). */
  prNumber: number | null
}

/**
 * Every shard's artifact of the attempt, downloaded, checked to be made from the gate set with
 * `fingerprint` (complete or not: an incomplete shard is an error of the report), and its sides
 * merged into `<out>/merged/<side>`.
 */
async function gatherShards(session: Session, fingerprint: string): Promise<GatheredShards> {
  const { deps, event } = session
  const fromOtherRun = event.eventName === 'workflow_run' && event.sourceRunId !== null
  const listed = fromOtherRun
    ? await listRunArtifacts(session.client, session.repo, event.sourceRunId as number)
    : await deps.artifacts().list()
  const set = selectShardSet(listed, gateSlug(session.repoPath))
  if (!set.ok) throw new GateError('shards.incomplete', set.reason)

  const merged = path.join(session.outRoot, 'merged')
  const priorErrors: GateError[] = []
  let origin: BaselineOrigin | null = null
  let prNumber: number | null = null
  for (const [index, artifact] of set.artifacts.entries()) {
    const target = path.join(session.outRoot, 'shards', String(index))
    await download(session, fromOtherRun, artifact, target)
    const manifest = await readManifest(target)
    if (manifest.fingerprint !== fingerprint) {
      throw new GateError('shards.fingerprint', `shard ${index} was run with a different gate set`, {
        value: artifact.name
      })
    }
    if (!manifest.complete) {
      priorErrors.push(
        new GateError('shards.incomplete_shard', `shard ${index} did not complete; see its artifact`, {
          value: artifact.name
        })
      )
    }
    origin ??= manifest.baseline_origin
    prNumber ??= manifest.event?.pull_request ?? null
    for (const side of SIDES) {
      const relative = manifest.sides[side]?.output_path
      const from = relative === undefined || relative === null ? null : safeEntryPath(target, relative)
      if (from === null) continue
      // A side that failed before writing a file uploads no directory; its shard is already
      // an error above. A complete shard without its side is a broken artifact.
      if (!(await exists(from))) {
        if (!manifest.complete) continue
        throw new GateError('shards.missing_side', `shard ${index} says it is complete but holds no ${side} output`, {
          value: artifact.name
        })
      }
      await mergeRunDirectories(from, path.join(merged, side))
    }
  }
  const given = {
    baseline: { path: path.join(merged, 'baseline'), source: 'artifact' as const },
    candidate: { path: path.join(merged, 'candidate'), source: 'artifact' as const }
  }
  return { merged, given, priorErrors, count: set.count, fingerprint, origin, prNumber }
}

/**
 * What stopping would have saved, one note per gated check: the sequence replayed over the pooled
 * shards' per-instance values (src/sequential/pooled-savings.ts). Information only, never a
 * verdict: pooled runs that cannot be read are said in a note, the verdict being the fixed
 * design's either way.
 */
async function replayNotes(config: GateConfig, merged: string): Promise<string[]> {
  const stopping = config.stopping
  if (!stopping) return []
  const head = `Sequential: the shards ran the fixed design at the budget (n = ${stopping.budget}); the verdicts are its intervals'.`
  try {
    const entries = [...new Set(config.runs.map(run => run.entry))]
    const reading = await readStage(config, entries, { baseline: path.join(merged, 'baseline'), candidate: path.join(merged, 'candidate') })
    const seed = stopping.seed ?? config.statistics.seed
    return [head, ...shardReplayNotes({ runs: config.runs, settings: stopping, seed, reading })]
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    return [head, `Sequential replay over the pooled shards: not possible (${error.message}). The verdict is the fixed design's.`]
  }
}

/** The two folders of baseline-path and candidate-path, resolved from the working directory; null when not given. */
function givenSides(session: Session): Record<'baseline' | 'candidate', { path: string; source: 'given' }> | null {
  const { baselinePath, candidatePath } = session.settings
  if (baselinePath === '') return null
  return {
    baseline: { path: path.resolve(session.workDir, baselinePath), source: 'given' },
    candidate: { path: path.resolve(session.workDir, candidatePath), source: 'given' }
  }
}

/**
 * The reader takes one suite directory per side, so each shard's run directories (complete or
 * not: an incomplete one must still fail the comparison) are copied side by side into one.
 * Shards that reused one archived baseline each carry all of it; the first copy is kept.
 */
async function mergeRunDirectories(from: string, into: string): Promise<void> {
  const scan = await scanRuns(from)
  await mkdir(into, { recursive: true })
  for (const run of [...scan.runs, ...scan.incomplete]) {
    const target = path.join(into, path.basename(run.path))
    if (await exists(target)) continue
    await cp(run.path, target, { recursive: true })
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file)
    return true
  } catch {
    return false
  }
}

async function download(session: Session, fromOtherRun: boolean, artifact: StoredArtifact, target: string): Promise<void> {
  const { settings, repo, event } = session
  const from = fromOtherRun ? { token: settings.githubToken, ...repo, runId: event.sourceRunId as number } : undefined
  await session.deps.artifacts().download(artifact, target, from)
}

/**
 * Under workflow_run the PR number of a fork PR comes from the (untrusted) shard manifest; it is
 * only used after GitHub confirms that PR's head is the commit the triggering run tested.
 */
async function confirmPullRequest(session: Session, claimed: number | null): Promise<number | null> {
  if (claimed === null || session.event.pullRequest?.number === claimed) return claimed
  try {
    const { data: pr } = await session.client.rest.pulls.get({ ...session.repo, pull_number: claimed })
    if (pr.head.sha === session.event.checkSha) return claimed
  } catch {
    // An unreadable PR is treated like a mismatching one: no comment rather than a wrong one.
  }
  session.deps.io.warning(`pull request ${claimed} named by the shard artifact does not match the tested commit; no comment`)
  return null
}
