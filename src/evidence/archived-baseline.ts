/**
 * Finds, downloads and verifies an archived baseline from the default branch. Every step that
 * can refuse a candidate says why, so the report can explain why the baseline was run instead.
 *
 * `getArtifact(name, {findBy})` of @actions/artifact is not used: it returns the highest id even
 * when that artifact has expired, and cannot filter forks or branches. The REST listing is
 * filtered here (see baseline-selection.ts), then the zip is fetched by id and checked against
 * the listing's `sha256:` digest before it is unpacked.
 */
import { createHash } from 'node:crypto'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { GateError } from '../errors.js'
import { decodeArtifactPath } from '../github/artifact-paths.js'
import type { RepoRef } from '../github/comments.js'
import { GitHubHttpError, type RestClient } from '../github/rest.js'
import type { RestArtifact, RestWorkflowRun } from '../github/types.js'
import { extractZip } from '../github/zip.js'
import { readManifest, type BaselineOrigin, type Manifest } from '../model/manifest.js'
import { ageHours, selectBaselineCandidates, workflowRunRejection, type BaselineCriteria } from './baseline-selection.js'

export interface ArchivedBaselineRequest {
  client: RestClient
  repo: RepoRef
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
  const base = `/repos/${repo.owner}/${repo.repo}`
  const listed = await client.paginate<RestArtifact>(
    `${base}/actions/artifacts?name=${encodeURIComponent(request.artifactName)}&per_page=100`,
    page => (page as { artifacts: RestArtifact[] }).artifacts
  )
  if (listed.length === 0) {
    return { found: false, reason: `no archived baseline named ${request.artifactName} exists` }
  }
  const { candidates, rejected } = selectBaselineCandidates(listed, request.criteria)
  const reasons = rejected.map(r => `artifact ${r.artifactId}: ${r.reason}`)
  let downloads = 0
  for (const artifact of candidates) {
    if (downloads >= (request.maxDownloads ?? 3)) break
    const refusal = await refuseRun(client, base, artifact, request.criteria)
    if (refusal) {
      reasons.push(`artifact ${artifact.id}: ${refusal}`)
      continue
    }
    downloads++
    const dir = path.join(request.destination, String(artifact.id))
    try {
      const manifest = await downloadAndVerify(client, base, artifact, dir, request)
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
      if (!(error instanceof GateError) && !(error instanceof GitHubHttpError)) throw error
      reasons.push(`artifact ${artifact.id}: ${error.message}`)
    }
  }
  return { found: false, reason: `no usable archived baseline (${reasons.join('; ') || 'none listed'})` }
}

async function refuseRun(client: RestClient, base: string, artifact: RestArtifact, criteria: BaselineCriteria): Promise<string | null> {
  const runId = artifact.workflow_run?.id
  if (runId === undefined) return 'no workflow run'
  try {
    const run = await client.request<RestWorkflowRun>('GET', `${base}/actions/runs/${runId}`)
    return workflowRunRejection(run, criteria)
  } catch (error) {
    if (error instanceof GitHubHttpError) return `its workflow run could not be read (${error.status})`
    throw error
  }
}

async function downloadAndVerify(
  client: RestClient,
  base: string,
  artifact: RestArtifact,
  dir: string,
  request: ArchivedBaselineRequest
): Promise<Manifest> {
  if (!artifact.digest) throw new GateError('baseline.no_digest', 'it has no digest to verify')
  const zip = await client.download(`${base}/actions/artifacts/${artifact.id}/zip`)
  // Listing digests carry the `sha256:` prefix; compare like with like.
  const digest = `sha256:${createHash('sha256').update(zip).digest('hex')}`
  if (digest !== artifact.digest) {
    throw new GateError('baseline.digest', `its digest ${digest} differs from the listed ${artifact.digest}`)
  }
  await mkdir(dir, { recursive: true })
  await extractZip(zip, dir, undefined, `artifact ${artifact.id}`, decodeArtifactPath)
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
