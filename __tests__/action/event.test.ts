import { describe, expect, it } from '@jest/globals'
import { deriveEvent } from '../../src/action/event.js'

const env = {
  GITHUB_REPOSITORY: 'acme/serving',
  GITHUB_SHA: 'merge0000',
  GITHUB_REF: 'refs/pull/7/merge',
  GITHUB_RUN_ID: '99',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_ACTOR: 'octocat'
}
const repository = { id: 1, default_branch: 'main' }
const pr = (headRepoId: number | null, login = 'octocat') => ({
  number: 7,
  user: { login },
  head: { sha: 'head1111', ref: 'feature', repo: headRepoId === null ? null : { id: headRepoId } },
  base: { sha: 'base2222', ref: 'main', repo: { id: 1 } }
})

describe('deriveEvent', () => {
  it('puts the check on the PR head, not the merge commit, and reads the base commit', () => {
    const event = deriveEvent('pull_request', { repository, pull_request: pr(1) }, env)
    expect(event.checkSha).toBe('head1111')
    expect(event.pullRequest).toMatchObject({ number: 7, baseSha: 'base2222', isFork: false })
    expect(event.runUrl).toBe('https://github.com/acme/serving/actions/runs/99')
    expect(event.runAttempt).toBe(2)
    expect(event.isDefaultBranchPush).toBe(false)
  })

  it('recognises forks (including deleted ones) and Dependabot', () => {
    expect(deriveEvent('pull_request', { repository, pull_request: pr(2) }, env).pullRequest?.isFork).toBe(true)
    expect(deriveEvent('pull_request', { repository, pull_request: pr(null) }, env).pullRequest?.isFork).toBe(true)
    const dependabot = deriveEvent('pull_request', { repository, pull_request: pr(1, 'dependabot[bot]') }, env)
    expect(dependabot.isDependabot).toBe(true)
    expect(deriveEvent('pull_request', { repository, pull_request: pr(1) }, env).isDependabot).toBe(false)
  })

  it('knows a push to the default branch', () => {
    const push = deriveEvent('push', { repository }, { ...env, GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'abc' })
    expect(push).toMatchObject({ isDefaultBranchPush: true, checkSha: 'abc', pullRequest: null })
    expect(deriveEvent('push', { repository }, { ...env, GITHUB_REF: 'refs/heads/main-2' }).isDefaultBranchPush).toBe(false)
  })

  it('takes the triggering run and its PR under workflow_run', () => {
    const payload = {
      repository,
      workflow_run: {
        id: 55,
        head_sha: 'head1111',
        head_branch: 'feature',
        head_repository: { id: 3 },
        repository: { id: 1 },
        pull_requests: [{ number: 7, head: { sha: 'head1111', ref: 'feature' }, base: { sha: 'base2222', ref: 'main' } }]
      }
    }
    const event = deriveEvent('workflow_run', payload, env)
    expect(event).toMatchObject({ sourceRunId: 55, checkSha: 'head1111' })
    expect(event.pullRequest).toMatchObject({ number: 7, isFork: true })
    const fork = deriveEvent('workflow_run', { ...payload, workflow_run: { ...payload.workflow_run, pull_requests: [] } }, env)
    expect(fork.pullRequest).toBeNull()
    expect(fork.checkSha).toBe('head1111')
  })

  it('refuses an environment without a repository or run id', () => {
    expect(() => deriveEvent('push', {}, { ...env, GITHUB_REPOSITORY: '' })).toThrow(/GITHUB_REPOSITORY/)
    expect(() => deriveEvent('push', {}, { ...env, GITHUB_RUN_ID: 'x' })).toThrow(/GITHUB_RUN_ID/)
  })
})
