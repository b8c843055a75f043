/**
 * Which archived baseline artifacts may be trusted, newest first. Pure: the REST listing goes in,
 * the candidates and the reason each other artifact was passed over come out.
 *
 * Security: a fork PR whose head branch is called `main` produces artifacts whose
 * `workflow_run.head_branch` is `main` too. Only artifacts whose run's head repository is this
 * repository (head_repository_id === repository_id === ours) and whose branch is the default
 * branch are accepted; the caller then also checks the run was a successful push.
 */
import type { RestArtifact, RestWorkflowRun } from '../github/types.js'

export interface BaselineCriteria {
  repositoryId: number | null
  defaultBranch: string | null
  now: Date
  maxAgeDays: number
}

export interface Rejection {
  artifactId: number
  reason: string
}

export interface BaselineSelection {
  candidates: RestArtifact[]
  rejected: Rejection[]
}

export function selectBaselineCandidates(artifacts: readonly RestArtifact[], criteria: BaselineCriteria): BaselineSelection {
  const rejected: Rejection[] = []
  const candidates: RestArtifact[] = []
  const maxAgeMs = criteria.maxAgeDays * 24 * 3600 * 1000
  for (const artifact of artifacts) {
    const reason = rejectionReason(artifact, criteria, maxAgeMs)
    if (reason) rejected.push({ artifactId: artifact.id, reason })
    else candidates.push(artifact)
  }
  // The listing's order is not documented: sort by creation time, then id, newest first.
  candidates.sort((a, b) => createdMs(b) - createdMs(a) || b.id - a.id)
  return { candidates, rejected }
}

function rejectionReason(artifact: RestArtifact, criteria: BaselineCriteria, maxAgeMs: number): string | null {
  if (artifact.expired) return 'expired'
  if (artifact.expires_at && Date.parse(artifact.expires_at) <= criteria.now.getTime()) return 'expired'
  const run = artifact.workflow_run
  if (!run || run.repository_id === undefined || run.head_repository_id === undefined) {
    return 'no workflow run information'
  }
  if (criteria.repositoryId === null || run.repository_id !== criteria.repositoryId) {
    return 'from another repository'
  }
  if (run.head_repository_id !== run.repository_id) return 'from a fork'
  if (criteria.defaultBranch === null || run.head_branch !== criteria.defaultBranch) {
    return `from branch ${JSON.stringify(run.head_branch ?? null)}, not the default branch`
  }
  const created = createdMs(artifact)
  if (!Number.isFinite(created)) return 'no creation time'
  if (criteria.now.getTime() - created > maxAgeMs) {
    return `older than ${criteria.maxAgeDays} days`
  }
  return null
}

/** The run that produced a candidate must be a completed, successful push to this repository. */
export function workflowRunRejection(run: RestWorkflowRun, criteria: BaselineCriteria): string | null {
  if (run.repository.id !== criteria.repositoryId) return 'run belongs to another repository'
  if (run.head_repository && run.head_repository.id !== run.repository.id) return 'run is from a fork'
  if (run.event !== 'push' && run.event !== 'schedule' && run.event !== 'workflow_dispatch') {
    return `run was triggered by ${run.event}, not a push, schedule or manual dispatch`
  }
  if (run.head_branch !== criteria.defaultBranch) return 'run is not on the default branch'
  if (run.conclusion !== 'success') return `run conclusion is ${run.conclusion ?? 'pending'}`
  return null
}

function createdMs(artifact: RestArtifact): number {
  return artifact.created_at ? Date.parse(artifact.created_at) : Number.NaN
}

/** Age in hours, rounded to one decimal, for the report and the `baseline-age-hours` output. */
export function ageHours(createdAt: string, now: Date): number {
  return Math.round(((now.getTime() - Date.parse(createdAt)) / 3600_000) * 10) / 10
}
