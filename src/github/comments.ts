/**
 * The sticky PR comment: one per pull request, found again by a hidden marker on its first line
 * and updated in place on re-runs.
 *
 * Which comment is "ours": a comment whose body *starts with* the marker and whose author is a
 * bot account. With the workflow token the action cannot ask who it is (GET /user answers 403),
 * so the author check is "a bot" rather than "this bot"; requiring the marker at the very start
 * means a human quoting the marker in a reply is never picked (and we could not edit it anyway).
 * When several match (for example two workflows raced on the first run), the oldest is updated
 * and the others are left alone, so a re-run never adds one more.
 */
import { COMMENT_MAX_LENGTH } from '../action/constants.js'
import type { RestClient } from './rest.js'
import type { RestComment } from './types.js'

export interface RepoRef {
  owner: string
  repo: string
}

export function findStickyComment(comments: readonly RestComment[], marker: string): RestComment | null {
  const ours = comments.filter(
    comment => (comment.body ?? '').startsWith(marker) && (comment.user?.type === 'Bot' || (comment.user?.login ?? '').endsWith('[bot]'))
  )
  if (ours.length === 0) return null
  return ours.reduce((oldest, comment) => (comment.id < oldest.id ? comment : oldest))
}

/**
 * Cuts a body to GitHub's limit at a line boundary, closes an open code fence and says where the
 * full report is. The renderer already budgets its length; this is the last guard.
 */
export function fitBody(body: string, max = COMMENT_MAX_LENGTH, where = 'the job summary and the report artifact'): string {
  if (body.length <= max) return body
  const notice = `\n\n… truncated to fit GitHub's ${max}-character limit; the full report is in ${where}.\n`
  let cut = body.slice(0, Math.max(0, max - notice.length - 8))
  const lastNewline = cut.lastIndexOf('\n')
  if (lastNewline > cut.length / 2) cut = cut.slice(0, lastNewline)
  const fences = (cut.match(/^```/gm) ?? []).length
  if (fences % 2 === 1) cut += '\n```'
  return `${cut}${notice}`.slice(0, max)
}

export interface StickyResult {
  id: number
  url: string
  created: boolean
}

export async function upsertStickyComment(
  client: RestClient,
  repo: RepoRef,
  issueNumber: number,
  body: string,
  marker: string
): Promise<StickyResult> {
  const base = `/repos/${repo.owner}/${repo.repo}`
  const comments = await client.paginate<RestComment>(`${base}/issues/${issueNumber}/comments?per_page=100`)
  const existing = findStickyComment(comments, marker)
  const fitted = fitBody(body)
  if (existing) {
    const updated = await client.request<RestComment>('PATCH', `${base}/issues/comments/${existing.id}`, {
      body: fitted
    })
    return { id: updated.id, url: updated.html_url, created: false }
  }
  const created = await client.request<RestComment>('POST', `${base}/issues/${issueNumber}/comments`, {
    body: fitted
  })
  return { id: created.id, url: created.html_url, created: true }
}
