/**
 * The check run. It goes on the pull request's head commit: GITHUB_SHA of a pull_request event is
 * the temporary merge commit, which branch protection and the PR page never look at.
 */
import { fitBody, LIMITS, type CheckConclusion } from '../model/publication.js'
import type { RepoRef } from './comments.js'
import type { RestClient } from './rest.js'
import type { RestCheckRun } from './types.js'

export interface CheckOutput {
  title: string
  summary: string
  text?: string
}

export interface CompletedCheck {
  name: string
  headSha: string
  conclusion: CheckConclusion
  detailsUrl: string
  output: CheckOutput
}

export async function createCompletedCheck(client: RestClient, repo: RepoRef, check: CompletedCheck): Promise<RestCheckRun> {
  const where = 'the job summary and the report artifact'
  return client.request<RestCheckRun>('POST', `/repos/${repo.owner}/${repo.repo}/check-runs`, {
    name: check.name,
    head_sha: check.headSha,
    status: 'completed',
    conclusion: check.conclusion,
    completed_at: new Date().toISOString(),
    details_url: check.detailsUrl,
    output: {
      title: check.output.title.slice(0, LIMITS.checkTitle),
      summary: fitBody(check.output.summary, LIMITS.checkOutput, where),
      ...(check.output.text ? { text: fitBody(check.output.text, LIMITS.checkOutput, where) } : {})
    }
  })
}
