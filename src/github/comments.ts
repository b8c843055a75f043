/**
 * The sticky PR comment: one per pull request and gate, found again by a hidden marker on its
 * first line and updated in place on re-runs.
 *
 * Which comment is "ours": a comment whose body *starts with* the marker and whose author is the
 * token's own identity when the token can say who it is (a personal access token answers
 * GET /user), or else any bot account (the workflow token cannot: GET /user answers 403).
 * Requiring the marker at the very start means a human quoting it in a reply is never picked (and
 * we could not edit it anyway). When several match (for example two workflows raced on the first
 * run), the oldest is updated and the others are left alone, so a re-run never adds one more.
 */
import { fitBody, LIMITS } from '../model/publication.js'
import type { GitHubClient } from './client.js'

export interface RepoRef {
  owner: string
  repo: string
}

export interface CommentLike {
  id: number
  body?: string | null
  user: { login: string; type?: string } | null
}

/** `login`: the token's own account when known; null means "any bot". */
export function findStickyComment<T extends CommentLike>(comments: readonly T[], marker: string, login: string | null = null): T | null {
  const author = (comment: T): boolean =>
    login !== null ? comment.user?.login === login : comment.user?.type === 'Bot' || (comment.user?.login ?? '').endsWith('[bot]')
  const ours = comments.filter(comment => (comment.body ?? '').startsWith(marker) && author(comment))
  if (ours.length === 0) return null
  return ours.reduce((oldest, comment) => (comment.id < oldest.id ? comment : oldest))
}

/** The token's own login (a personal access token), or null when the token cannot say (the workflow token). */
export async function tokenLogin(client: GitHubClient): Promise<string | null> {
  try {
    const { data } = await client.rest.users.getAuthenticated()
    return data.login
  } catch {
    return null
  }
}

export interface StickyResult {
  id: number
  url: string
  created: boolean
}

export async function upsertStickyComment(
  client: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  body: string,
  marker: string,
  login: string | null
): Promise<StickyResult> {
  const comments = await client.paginate(client.rest.issues.listComments, { ...repo, issue_number: issueNumber, per_page: 100 })
  const existing = findStickyComment(comments, marker, login)
  const fitted = fitBody(body, LIMITS.comment)
  if (existing) {
    const { data } = await client.rest.issues.updateComment({ ...repo, comment_id: existing.id, body: fitted })
    return { id: data.id, url: data.html_url, created: false }
  }
  const { data } = await client.rest.issues.createComment({ ...repo, issue_number: issueNumber, body: fitted })
  return { id: data.id, url: data.html_url, created: true }
}
