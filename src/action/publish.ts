/**
 * Publishing a verdict: job summary, sticky PR comment, check run, outputs. Each publication is
 * decided on its own: a comment refused for want of `pull-requests: write` does not stop the check
 * run (a required check must still report), and each refusal is one warning naming what GitHub
 * said was missing (`x-accepted-github-permissions`). The summary and outputs (verdict, and the
 * decision line that names the deciding half, as the check run's title does) are always written,
 * and the verdict alone decides the exit status.
 */
import { createCompletedCheck } from '../github/checks.js'
import { acceptedPermissions, describeRequestError, isRequestFailure } from '../github/client.js'
import { tokenLogin, upsertStickyComment } from '../github/comments.js'
import { checkConclusion, LIMITS } from '../model/publication.js'
import type { Report } from '../model/report.js'
import { renderCheckRun } from '../report/check-run.js'
import { decide } from '../report/decision.js'
import { renderMarkdown, type MarkdownOptions } from '../report/markdown.js'
import { commentMarker, OUTPUTS } from './constants.js'
import { reportForPullRequest } from './visible-paths.js'
import type { Session } from './session.js'

export interface PublishRequest {
  report: Report
  gateFileChange: string | null
  artifactId: number | null
  /** PR to comment on; defaults to the event's pull request. */
  pullRequestNumber?: number | null
}

export interface PublishResult {
  commentUrl: string | null
  checkRunId: number | null
  warnings: string[]
}

export function artifactsLink(session: Session, artifactId: number | null): string {
  const { event } = session
  return artifactId !== null ? `${event.runUrl}/artifacts/${artifactId}` : `${event.runUrl}#artifacts`
}

export async function publish(session: Session, request: PublishRequest): Promise<PublishResult> {
  const { deps, settings, event } = session
  const { io } = deps
  // Errors name files by absolute path; the pull request sees them inside the artifact instead.
  const report = reportForPullRequest(request.report, session.pathRoots)
  const base: MarkdownOptions = {
    maxLength: LIMITS.comment,
    links: { run: event.runUrl, artifacts: artifactsLink(session, request.artifactId) },
    gateFileChange: request.gateFileChange
  }

  await io.writeSummary(renderMarkdown(report, { ...base, maxLength: LIMITS.jobSummary, lengthUnit: 'utf8' }))

  const result: PublishResult = { commentUrl: null, checkRunId: null, warnings: [] }
  const warn = (message: string): void => {
    result.warnings.push(message)
    io.warning(message)
  }
  const prNumber = request.pullRequestNumber ?? event.pullRequest?.number ?? null
  // Asked once: a personal access token says who it is, the workflow token cannot (null).
  let login: string | null | undefined

  if (settings.comment && prNumber !== null) {
    try {
      login = await tokenLogin(session.client)
      const marker = commentMarker(session.repoPath)
      const body = renderMarkdown(report, { ...base, marker })
      const comment = await upsertStickyComment(session.client, session.repo, prNumber, body, marker, login)
      result.commentUrl = comment.url
      io.info(`${comment.created ? 'created' : 'updated'} the PR comment ${comment.url}`)
    } catch (error) {
      warn(refusal(session, error, 'write the pull request comment', 'pull-requests: write (or issues: write)'))
    }
  }

  if (settings.checkName && event.checkSha) {
    try {
      const text = renderCheckRun(report, { links: base.links, gateFileChange: base.gateFileChange, maxLength: LIMITS.checkOutput })
      const check = await createCompletedCheck(session.client, session.repo, {
        name: settings.checkName,
        headSha: event.checkSha,
        conclusion: checkConclusion(report.verdict, settings.inconclusive),
        detailsUrl: event.runUrl,
        output: text
      })
      result.checkRunId = check.id
    } catch (error) {
      login ??= await tokenLogin(session.client)
      warn(refusal(session, error, 'create the check run', 'checks: write', login))
    }
  }

  io.setOutput(OUTPUTS.verdict, report.verdict)
  const decision = decide(report)
  io.setOutput(OUTPUTS.decision, decision.line)
  io.setOutput(OUTPUTS.decidedBy, decision.decidedBy)
  if (result.commentUrl) io.setOutput(OUTPUTS.commentUrl, result.commentUrl)
  if (result.checkRunId !== null) io.setOutput(OUTPUTS.checkRunId, result.checkRunId)
  return result
}

/** One warning line: what was refused, why (GitHub's answer), and what would fix it. */
function refusal(session: Session, error: unknown, what: string, usualPermission: string, login?: string | null): string {
  const cause = describeRequestError(error)
  const tail = ' The job summary and outputs carry the result, and the job status still follows the verdict.'
  if (!isRequestFailure(error) || (error.status !== 403 && error.status !== 429)) return `could not ${what}: ${cause}.${tail}`
  if (isRateLimit(error)) return `could not ${what}: GitHub's rate limit held after retries (${cause}).${tail}`
  if (what.includes('check run') && (login || /personal access token|github app/i.test(error.message))) {
    return (
      `could not ${what}: only GitHub Apps may create check runs, and the github-token input is a personal access ` +
      `token${login ? ` (of ${login})` : ''}. Pass the workflow token (github.token, with checks: write) or make the job ` +
      `itself the required check. (${cause})`
    )
  }
  const needed = acceptedPermissions(error)
  const permission = needed ? `the token lacks ${needed.replace(/=/g, ': ').replace(/_/g, '-')}` : `the token needs ${usualPermission}`
  const { event } = session
  const who = event.isDependabot
    ? ' (a Dependabot pull request has a read-only token)'
    : event.pullRequest?.isFork
      ? ' (a fork pull request has a read-only token; publish from a workflow_run workflow, see docs/action.md, "Fork pull requests and Dependabot")'
      : ''
  return `could not ${what}: ${permission}${who}. (${cause})${tail}`
}

function isRateLimit(error: { message: string; response?: { headers?: Record<string, unknown> } }): boolean {
  return /rate limit/i.test(error.message) || error.response?.headers?.['x-ratelimit-remaining'] === '0'
}
