/**
 * What the action needs to know about the event that started it, derived from the event payload
 * and the runner's environment. Pure: tests pass plain payloads.
 */
import { UsageError } from '../errors.js'

export interface PullRequestInfo {
  number: number
  /** The PR head commit: where the check run goes (GITHUB_SHA is the temporary merge commit). */
  headSha: string
  /** Base commit the gate file is read from, so the PR cannot loosen the gate judging it. */
  baseSha: string | null
  headRef: string | null
  baseRef: string | null
  /** The head lives in another repository: the token is read-only and secrets are absent. */
  isFork: boolean
}

export interface EventInfo {
  eventName: string
  owner: string
  repo: string
  repositoryId: number | null
  defaultBranch: string | null
  runId: number
  runAttempt: number
  serverUrl: string
  /** `${serverUrl}/${owner}/${repo}/actions/runs/${runId}` */
  runUrl: string
  pullRequest: PullRequestInfo | null
  /** Commit the check run is attached to. */
  checkSha: string
  /** Dependabot pull requests get a read-only token, like forks. */
  isDependabot: boolean
  /** A push to the default branch: the only place an archived baseline may come from. */
  isDefaultBranchPush: boolean
  /** For workflow_run: the triggering run, whose artifacts mode compare downloads. */
  sourceRunId: number | null
  /**
   * For merge_group (the merge queue): the base commit the queued changes land on. The gate file
   * is frozen there too, or a queued pull request could loosen the gate that judges it.
   */
  mergeGroupBaseSha?: string | null
}

export interface RunnerEnvironment {
  GITHUB_REPOSITORY?: string
  GITHUB_SHA?: string
  GITHUB_REF?: string
  GITHUB_RUN_ID?: string
  GITHUB_RUN_ATTEMPT?: string
  GITHUB_SERVER_URL?: string
  GITHUB_ACTOR?: string
}

type Json = Record<string, unknown>

export function deriveEvent(eventName: string, payload: unknown, env: RunnerEnvironment): EventInfo {
  const event = asObject(payload)
  const { owner, repo, runId } = runnerRepository(env)
  const runAttempt = Number(env.GITHUB_RUN_ATTEMPT || '1')
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')
  const repository = asObject(event.repository)
  const repositoryId = numberOrNull(repository.id)
  const defaultBranch = stringOrNull(repository.default_branch)
  const trigger = triggerOf(eventName, event, env.GITHUB_SHA ?? '', repositoryId)

  const actor = env.GITHUB_ACTOR ?? ''
  const isDependabot = actor === 'dependabot[bot]' || trigger.prAuthor === 'dependabot[bot]'
  const ref = env.GITHUB_REF ?? ''
  const isDefaultBranchPush = eventName === 'push' && defaultBranch !== null && ref === `refs/heads/${defaultBranch}`

  return {
    eventName,
    owner,
    repo,
    repositoryId,
    defaultBranch,
    runId,
    runAttempt: Number.isSafeInteger(runAttempt) && runAttempt > 0 ? runAttempt : 1,
    serverUrl,
    runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
    pullRequest: trigger.pullRequest,
    checkSha: trigger.checkSha,
    isDependabot,
    isDefaultBranchPush,
    sourceRunId: trigger.sourceRunId,
    mergeGroupBaseSha: trigger.mergeGroupBaseSha
  }
}

/** The repository and run from the runner's environment; a malformed one is a usage error. */
function runnerRepository(env: RunnerEnvironment): { owner: string; repo: string; runId: number } {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo) {
    throw new UsageError('env.repository', 'GITHUB_REPOSITORY must be owner/name', {
      field: 'GITHUB_REPOSITORY',
      value: env.GITHUB_REPOSITORY
    })
  }
  const runId = Number(env.GITHUB_RUN_ID)
  if (!Number.isSafeInteger(runId) || runId <= 0) {
    throw new UsageError('env.run_id', 'GITHUB_RUN_ID must be a positive integer', {
      field: 'GITHUB_RUN_ID',
      value: env.GITHUB_RUN_ID
    })
  }
  return { owner, repo, runId }
}

/** What the triggering event says about the pull request, the commit to check and the source run. */
interface Trigger {
  pullRequest: PullRequestInfo | null
  checkSha: string
  sourceRunId: number | null
  prAuthor: string | null
  mergeGroupBaseSha: string | null
}

function triggerOf(eventName: string, event: Json, sha: string, repositoryId: number | null): Trigger {
  const none: Trigger = { pullRequest: null, checkSha: sha, sourceRunId: null, prAuthor: null, mergeGroupBaseSha: null }
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    const pr = asObject(event.pull_request)
    const pullRequest = pullRequestFrom(pr, repositoryId)
    return { ...none, pullRequest, prAuthor: stringOrNull(asObject(pr.user).login), checkSha: pullRequest?.headSha ?? sha }
  }
  if (eventName === 'merge_group') {
    const group = asObject(event.merge_group)
    return { ...none, mergeGroupBaseSha: stringOrNull(group.base_sha), checkSha: stringOrNull(group.head_sha) ?? sha }
  }
  if (eventName === 'workflow_run') return workflowRunTrigger(asObject(event.workflow_run), sha, repositoryId)
  return none
}

function workflowRunTrigger(run: Json, sha: string, repositoryId: number | null): Trigger {
  const trigger: Trigger = {
    pullRequest: null,
    checkSha: stringOrNull(run.head_sha) ?? sha,
    sourceRunId: numberOrNull(run.id),
    prAuthor: stringOrNull(asObject(run.actor).login),
    mergeGroupBaseSha: null
  }
  const headRepoId = numberOrNull(asObject(run.head_repository).id)
  const runRepoId = numberOrNull(asObject(run.repository).id) ?? repositoryId
  // pull_requests is empty for fork PRs; the caller then recovers the number from the
  // triggering run's manifest and checks it against the PR's head SHA.
  const prs = Array.isArray(run.pull_requests) ? (run.pull_requests as unknown[]).map(asObject) : []
  const headBranch = stringOrNull(run.head_branch)
  const pr = prs.find(p => asObject(p.head).ref === headBranch) ?? prs[0]
  const number = pr ? numberOrNull(pr.number) : null
  if (!pr || number === null) return trigger
  trigger.pullRequest = {
    number,
    headSha: stringOrNull(asObject(pr.head).sha) ?? trigger.checkSha,
    baseSha: stringOrNull(asObject(pr.base).sha),
    headRef: stringOrNull(asObject(pr.head).ref),
    baseRef: stringOrNull(asObject(pr.base).ref),
    isFork: headRepoId !== null && runRepoId !== null && headRepoId !== runRepoId
  }
  trigger.checkSha = trigger.pullRequest.headSha
  return trigger
}

function pullRequestFrom(pr: Json, repositoryId: number | null): PullRequestInfo | null {
  const number = numberOrNull(pr.number)
  const head = asObject(pr.head)
  const headSha = stringOrNull(head.sha)
  if (number === null || headSha === null) return null
  const base = asObject(pr.base)
  const headRepoId = numberOrNull(asObject(head.repo).id)
  const baseRepoId = numberOrNull(asObject(base.repo).id) ?? repositoryId
  return {
    number,
    headSha,
    baseSha: stringOrNull(base.sha),
    headRef: stringOrNull(head.ref),
    baseRef: stringOrNull(base.ref),
    // A deleted fork has head.repo null: treat it as a fork (read-only token either way).
    isFork: headRepoId === null || (baseRepoId !== null && headRepoId !== baseRepoId)
  }
}

function asObject(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}
