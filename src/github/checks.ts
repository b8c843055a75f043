/**
 * The check run. It goes on the pull request's head commit: GITHUB_SHA of a pull_request event is
 * the temporary merge commit, which branch protection and the PR page never look at.
 */
import { CHECK_OUTPUT_MAX_LENGTH } from '../action/constants.js'
import type { InconclusivePolicy } from '../action/inputs.js'
import type { Verdict } from '../report/model.js'
import { fitBody, type RepoRef } from './comments.js'
import type { RestClient } from './rest.js'
import type { RestCheckRun } from './types.js'

export type CheckConclusion = 'success' | 'failure' | 'neutral'

/** Inconclusive blocks like a failure unless the workflow chose `inconclusive: neutral`. */
export function checkConclusion(verdict: Verdict, inconclusive: InconclusivePolicy): CheckConclusion {
  if (verdict === 'pass') return 'success'
  if (verdict === 'inconclusive' && inconclusive === 'neutral') return 'neutral'
  return 'failure'
}

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
      title: check.output.title.slice(0, 255),
      summary: fitBody(check.output.summary, CHECK_OUTPUT_MAX_LENGTH, where),
      ...(check.output.text ? { text: fitBody(check.output.text, CHECK_OUTPUT_MAX_LENGTH, where) } : {})
    }
  })
}
