/**
 * Publishing a verdict: job summary, sticky PR comment, check run, outputs. Fork and Dependabot
 * pull requests have a read-only token, so a 403 from the comment or the check becomes one
 * warning and the remaining writes are skipped; the summary and outputs are always written, and
 * the verdict alone decides the exit status.
 */
import { createCompletedCheck } from '../github/checks.js'
import { upsertStickyComment } from '../github/comments.js'
import { asPermissionDenied } from '../github/rest.js'
import { checkConclusion, LIMITS } from '../model/publication.js'
import type { Report } from '../model/report.js'
import { renderCheckRun } from '../report/check-run.js'
import { renderMarkdown, type MarkdownOptions } from '../report/markdown.js'
import { COMMENT_MARKER, OUTPUTS } from './constants.js'
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
  permissionWarning: string | null
}

export function artifactsLink(session: Session, artifactId: number | null): string {
  const { event } = session
  return artifactId !== null ? `${event.runUrl}/artifacts/${artifactId}` : `${event.runUrl}#artifacts`
}

export async function publish(session: Session, request: PublishRequest): Promise<PublishResult> {
  const { deps, settings, event } = session
  const { io } = deps
  const { report } = request
  const base: MarkdownOptions = {
    maxLength: LIMITS.comment,
    links: { run: event.runUrl, artifacts: artifactsLink(session, request.artifactId) },
    gateFileChange: request.gateFileChange
  }

  await io.writeSummary(renderMarkdown(report, { ...base, maxLength: LIMITS.jobSummary, lengthUnit: 'utf8' }))

  const result: PublishResult = { commentUrl: null, checkRunId: null, permissionWarning: null }
  const prNumber = request.pullRequestNumber ?? event.pullRequest?.number ?? null
  const denied = (error: unknown, what: string): boolean => {
    const permission = asPermissionDenied(error, what)
    if (!permission) return false
    const who = event.isDependabot ? 'a Dependabot pull request' : event.pullRequest?.isFork ? 'a fork pull request' : 'this run'
    result.permissionWarning =
      `${permission.describe()}. The token of ${who} is read-only; the job summary and outputs carry the ` +
      'result and the job status still follows the verdict. For public repositories, publish from a ' +
      'workflow_run workflow (see the README, "Fork pull requests").'
    io.warning(result.permissionWarning)
    return true
  }

  if (settings.comment && prNumber !== null) {
    try {
      const body = renderMarkdown(report, { ...base, marker: COMMENT_MARKER })
      const comment = await upsertStickyComment(session.client, session.repo, prNumber, body, COMMENT_MARKER)
      result.commentUrl = comment.url
      io.info(`${comment.created ? 'created' : 'updated'} the PR comment ${comment.url}`)
    } catch (error) {
      if (!denied(error, 'write the pull request comment')) {
        io.warning(`could not write the pull request comment: ${(error as Error).message}`)
      }
    }
  }

  if (settings.checkName && result.permissionWarning === null && event.checkSha) {
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
      if (!denied(error, 'create the check run')) {
        io.warning(`could not create the check run: ${(error as Error).message}`)
      }
    }
  }

  io.setOutput(OUTPUTS.verdict, report.verdict)
  if (result.commentUrl) io.setOutput(OUTPUTS.commentUrl, result.commentUrl)
  if (result.checkRunId !== null) io.setOutput(OUTPUTS.checkRunId, result.checkRunId)
  return result
}
