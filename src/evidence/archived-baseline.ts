/**
 * Finds, downloads and verifies an archived baseline from the default branch. Every step that
 * can refuse a candidate says why, so the report can explain why the baseline was run instead.
 *
 * `getArtifact(name, {findBy})` of @actions/artifact is not used: it returns the highest id even
 * when that artifact has expired, and cannot filter forks or branches. The REST listing is
 * filtered here (see baseline-selection.ts), then the artifact is downloaded by id
 * (`downloadArtifact` with `findBy`, streamed to disk, checked against the listed digest).
 */
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { GateError } from '../errors.js'
import type { StoredArtifact } from '../github/artifacts.js'
import { describeRequestError, isRequestFailure, type GitHubClient } from '../github/client.js'
import type { RepoRef } from '../github/comments.js'
import type { RestArtifact } from '../github/types.js'
import { readManifest, type BaselineOrigin, type Manifest } from '../model/manifest.js'
import { ageHours, selectBaselineCandidates, workflowRunRejection, type BaselineCriteria } from './baseline-selection.js'

export interface ArchivedBaselineRequest {
  client: GitHubClient
  repo: RepoRef
  /** Streams one artifact of another run into a directory (ArtifactStore.download with findBy). */
  download(artifact: StoredArtifact, destination: string, runId: number): Promise<void>
  artifactName: string
  criteria: BaselineCriteria
  fingerprint: string
  helmVersion: string | null
  /** An empty directory; the accepted artifact is unpacked into it. */
  destination: string
  /** Downloads tried before giving up (each is a full artifact). */
  maxDownloads?: number
  log?: (message: string) => void
}

export type ArchivedBaseline = { found: true; dir: string; manifest: Manifest; origin: BaselineOrigin } | { found: false; reason: string }

export async function findArchivedBaseline(request: ArchivedBaselineRequest): Promise<ArchivedBaseline> {
  const { client, repo } = request
  const log = request.log ?? (() => undefined)
  const listed: RestArtifact[] = await client.paginate(client.rest.actions.listArtifactsForRepo, {
    ...repo,
    name: request.artifactName,
    per_page: 100
  })
  if (listed.length === 0) {
    return { found: false, reason: `no archived baseline named ${request.artifactName} exists` }
  }
  const { candidates, rejected } = selectBaselineCandidates(listed, request.criteria)
  const reasons = rejected.map(r => `artifact ${r.artifactId}: ${r.reason}`)
  let downloads = 0
  for (const artifact of candidates) {
    if (downloads >= (request.maxDownloads ?? 3)) break
    const refusal = await refuseRun(client, repo, artifact, request.criteria)
    if (refusal) {
      reasons.push(`artifact ${artifact.id}: ${refusal}`)
      continue
    }
    downloads++
    const dir = path.join(request.destination, String(artifact.id))
    try {
      const manifest = await downloadAndVerify(artifact, dir, request)
      const created = artifact.created_at ?? manifest.ended_at
      log(`using archived baseline artifact ${artifact.id} from run ${artifact.workflow_run?.id}`)
      return {
        found: true,
        dir,
        manifest,
        origin: {
          kind: 'archived',
          artifact_id: artifact.id,
          artifact_name: artifact.name,
          workflow_run_id: artifact.workflow_run?.id,
          head_sha: artifact.workflow_run?.head_sha,
          created_at: created,
          age_hours: ageHours(created, request.criteria.now)
        }
      }
    } catch (error) {
      await rm(dir, { recursive: true, force: true })
      if (!(error instanceof GateError) && !isRequestFailure(error)) throw error
      reasons.push(`artifact ${artifact.id}: ${error instanceof GateError ? error.message : describeRequestError(error)}`)
    }
  }
  return { found: false, reason: `no usable archived baseline (${reasons.join('; ') || 'none listed'})` }
}

async function refuseRun(client: GitHubClient, repo: RepoRef, artifact: RestArtifact, criteria: BaselineCriteria): Promise<string | null> {
  const runId = artifact.workflow_run?.id
  if (runId === undefined) return 'no workflow run'
  try {
    const { data } = await client.rest.actions.getWorkflowRun({ ...repo, run_id: runId })
    return workflowRunRejection(data, criteria)
  } catch (error) {
    if (isRequestFailure(error)) return `its workflow run could not be read (${describeRequestError(error)})`
    throw error
  }
}

async function downloadAndVerify(artifact: RestArtifact, dir: string, request: ArchivedBaselineRequest): Promise<Manifest> {
  const runId = artifact.workflow_run?.id
  if (runId === undefined) throw new GateError('baseline.no_run', 'it names no workflow run')
  // A missing digest is refused by the download (fail closed); a mismatch too.
  await request.download({ id: artifact.id, name: artifact.name, digest: artifact.digest ?? null }, dir, runId)
  const manifest = await readManifest(dir)
  if (manifest.fingerprint !== request.fingerprint) {
    throw new GateError('baseline.fingerprint', 'its manifest fingerprint differs from the gate set')
  }
  if (manifest.helm_version !== request.helmVersion) {
    throw new GateError(
      'baseline.helm_version',
      `it was made with HELM ${manifest.helm_version ?? 'unknown'}, the gate set pins ${request.helmVersion ?? 'none'}`
    )
  }
  if (!manifest.complete || manifest.sides.baseline?.complete !== true) {
    throw new GateError('baseline.incomplete', 'its manifest says the baseline run was incomplete')
  }
  return manifest
}
