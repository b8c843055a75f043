/** The parts of GitHub REST responses the action reads (names as GitHub spells them). */

export interface RestArtifact {
  id: number
  name: string
  size_in_bytes: number
  archive_download_url: string
  expired: boolean
  created_at: string | null
  expires_at: string | null
  /** `sha256:<hex>`; absent on artifacts uploaded before digests existed. */
  digest?: string | null
  workflow_run?: {
    id?: number
    repository_id?: number
    head_repository_id?: number
    head_branch?: string
    head_sha?: string
  } | null
}

export interface RestWorkflowRun {
  id: number
  event: string
  status: string | null
  conclusion: string | null
  head_branch: string | null
  head_sha: string
  repository: { id: number }
  head_repository?: { id: number } | null
  html_url: string
}

export interface RestComment {
  id: number
  body?: string
  html_url: string
  user: { login: string; type?: string } | null
}

export interface RestCheckRun {
  id: number
  html_url: string | null
}

export interface RestPullRequest {
  number: number
  head: { sha: string; ref: string }
  base: { sha: string; ref: string }
}
