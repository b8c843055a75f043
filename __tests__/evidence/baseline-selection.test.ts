import { describe, expect, it } from '@jest/globals'
import { ageHours, selectBaselineCandidates, workflowRunRejection } from '../../src/evidence/baseline-selection.js'
import type { RestArtifact, RestWorkflowRun } from '../../src/github/types.js'

const now = new Date('2026-06-10T12:00:00Z')
const criteria = { repositoryId: 1, defaultBranch: 'main', now, maxAgeDays: 30 }
const artifact = (
  id: number,
  over: Partial<RestArtifact> = {},
  run: Partial<NonNullable<RestArtifact['workflow_run']>> = {}
): RestArtifact => ({
  id,
  name: 'helm-gate-baseline-x',
  size_in_bytes: 10,
  archive_download_url: '',
  expired: false,
  created_at: '2026-06-09T12:00:00Z',
  expires_at: '2026-09-01T00:00:00Z',
  digest: 'sha256:00',
  workflow_run: { id: 10 + id, repository_id: 1, head_repository_id: 1, head_branch: 'main', head_sha: 'abc', ...run },
  ...over
})

describe('selectBaselineCandidates', () => {
  it('keeps only unexpired default-branch artifacts of this repository within the age, newest first', () => {
    const { candidates, rejected } = selectBaselineCandidates(
      [
        artifact(1, { created_at: '2026-06-01T00:00:00Z' }),
        artifact(2, { expired: true }),
        artifact(3, {}, { head_repository_id: 9 }),
        artifact(4, {}, { head_branch: 'feature' }),
        artifact(5, { created_at: '2026-04-01T00:00:00Z' }),
        artifact(6, { created_at: '2026-06-10T00:00:00Z' }),
        artifact(7, {}, { repository_id: 8, head_repository_id: 8 }),
        artifact(8, { expires_at: '2026-06-10T11:00:00Z' }),
        artifact(9, { workflow_run: null })
      ],
      criteria
    )
    expect(candidates.map(a => a.id)).toEqual([6, 1])
    const reasons = Object.fromEntries(rejected.map(r => [r.artifactId, r.reason]))
    expect(reasons[2]).toBe('expired')
    expect(reasons[3]).toBe('from a fork')
    expect(reasons[4]).toMatch(/not the default branch/)
    expect(reasons[5]).toMatch(/older than 30 days/)
    expect(reasons[7]).toMatch(/another repository/)
    expect(reasons[8]).toBe('expired')
    expect(reasons[9]).toMatch(/no workflow run/)
  })

  it('rejects a fork branch that happens to be called main', () => {
    const spoof = artifact(1, {}, { head_repository_id: 77, head_branch: 'main' })
    expect(selectBaselineCandidates([spoof], criteria).candidates).toEqual([])
  })
})

describe('workflowRunRejection', () => {
  const run: RestWorkflowRun = {
    id: 1,
    event: 'push',
    status: 'completed',
    conclusion: 'success',
    head_branch: 'main',
    head_sha: 'a',
    repository: { id: 1 },
    head_repository: { id: 1 },
    html_url: ''
  }
  it('accepts a successful push on the default branch only', () => {
    expect(workflowRunRejection(run, criteria)).toBeNull()
    expect(workflowRunRejection({ ...run, event: 'pull_request' }, criteria)).toMatch(/pull_request/)
    expect(workflowRunRejection({ ...run, conclusion: 'failure' }, criteria)).toMatch(/failure/)
    expect(workflowRunRejection({ ...run, conclusion: null }, criteria)).toMatch(/pending/)
    expect(workflowRunRejection({ ...run, head_repository: { id: 5 } }, criteria)).toMatch(/fork/)
  })
})

it('reports the age in hours', () => {
  expect(ageHours('2026-06-09T12:00:00Z', now)).toBe(24)
})
