/**
 * Artifacts of another workflow run, listed through the REST API: how the fork-safe
 * workflow_run workflow reaches the shards its pull_request workflow uploaded. The content is
 * untrusted (it was produced by pull-request code); ArtifactStore.download checks the digest and
 * the extracted tree, and nothing in it is ever executed.
 */
import type { StoredArtifact } from './artifacts.js'
import type { GitHubClient } from './client.js'
import type { RepoRef } from './comments.js'

export async function listRunArtifacts(client: GitHubClient, repo: RepoRef, runId: number): Promise<StoredArtifact[]> {
  const artifacts = await client.paginate(client.rest.actions.listWorkflowRunArtifacts, { ...repo, run_id: runId, per_page: 100 })
  return artifacts.filter(a => !a.expired).map(a => ({ id: a.id, name: a.name, digest: a.digest ?? null }))
}
