/**
 * Artifacts of another workflow run, through the REST API: how the fork-safe workflow_run
 * workflow reaches the shards its pull_request workflow uploaded. The content is untrusted (it
 * was produced by pull-request code): the digest is checked and the zip unpacked with the
 * zip-slip guard; nothing in it is ever executed.
 */
import { createHash } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { GateError } from '../errors.js'
import type { StoredArtifact } from './artifacts.js'
import type { RepoRef } from './comments.js'
import type { RestClient } from './rest.js'
import type { RestArtifact } from './types.js'
import { decodeArtifactPath } from './artifact-paths.js'
import { extractZip } from './zip.js'

export async function listRunArtifacts(client: RestClient, repo: RepoRef, runId: number): Promise<StoredArtifact[]> {
  const artifacts = await client.paginate<RestArtifact>(
    `/repos/${repo.owner}/${repo.repo}/actions/runs/${runId}/artifacts?per_page=100`,
    page => (page as { artifacts: RestArtifact[] }).artifacts
  )
  return artifacts.filter(a => !a.expired).map(a => ({ id: a.id, name: a.name, digest: a.digest ?? null }))
}

export async function downloadRunArtifact(client: RestClient, repo: RepoRef, artifact: StoredArtifact, destination: string): Promise<void> {
  const zip = await client.download(`/repos/${repo.owner}/${repo.repo}/actions/artifacts/${artifact.id}/zip`)
  const digest = `sha256:${createHash('sha256').update(zip).digest('hex')}`
  if (artifact.digest && digest !== artifact.digest) {
    throw new GateError('artifact.digest', `artifact ${artifact.name} does not match its digest`, {
      value: artifact.id
    })
  }
  await mkdir(destination, { recursive: true })
  await extractZip(zip, destination, undefined, artifact.name, decodeArtifactPath)
}
