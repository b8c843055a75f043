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
import { fitBody, LIMITS } from '../model/publication.js'
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
  const fitted = fitBody(body, LIMITS.comment)
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
