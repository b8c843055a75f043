/**
 * A small GitHub REST client on fetch. Kept to what the action needs (JSON, Link-header paging,
 * the artifact zip redirect) so the same code runs unchanged against the loopback fake in tests.
 * GraphQL is avoided on purpose: the fake speaks REST only.
 */
import { PermissionDeniedError } from '../errors.js'

export class GitHubHttpError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly route: string,
    readonly body: string,
    /** `x-accepted-github-permissions`, which names the permission that was missing. */
    readonly acceptedPermissions: string | null
  ) {
    super(`GitHub ${method} ${route} answered ${status}: ${body.slice(0, 300)}`)
    this.name = 'GitHubHttpError'
  }
}

export interface RestClientOptions {
  apiUrl: string
  token: string
  userAgent?: string
}

export class RestClient {
  private readonly apiUrl: string

  constructor(private readonly options: RestClientOptions) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, '')
  }

  async request<T>(method: string, route: string, body?: unknown): Promise<T> {
    const response = await this.send(method, this.url(route), body)
    const text = await response.text()
    return (text ? JSON.parse(text) : undefined) as T
  }

  /** Every page of a list endpoint; `pick` extracts the items when the page is an object. */
  async paginate<T>(route: string, pick: (page: unknown) => T[] = page => page as T[]): Promise<T[]> {
    const items: T[] = []
    let next: string | null = this.url(route)
    // 100 pages of 100 are far more than any comment thread or artifact list we care about.
    for (let page = 0; next && page < 100; page++) {
      const response = await this.send('GET', next)
      items.push(...pick(JSON.parse(await response.text())))
      next = nextLink(response.headers.get('link'))
    }
    return items
  }

  /**
   * GET a redirecting download (artifact zip): the API answers 302 with a short-lived blob URL,
   * which is fetched without the token (the blob store must never see it).
   */
  async download(route: string): Promise<Buffer> {
    const response = await this.send('GET', this.url(route), undefined, 'manual')
    const location = response.headers.get('location')
    if (response.status !== 302 || !location) {
      throw new GitHubHttpError(response.status, 'GET', route, 'expected a 302 redirect to the blob', null)
    }
    const blob = await fetch(location, { redirect: 'follow' })
    if (!blob.ok) throw new GitHubHttpError(blob.status, 'GET', 'artifact blob', await blob.text(), null)
    return Buffer.from(await blob.arrayBuffer())
  }

  private url(route: string): string {
    return route.startsWith('http') ? route : `${this.apiUrl}${route}`
  }

  private async send(method: string, url: string, body?: unknown, redirect: 'follow' | 'manual' = 'follow'): Promise<Response> {
    const response = await fetch(url, {
      method,
      redirect,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${this.options.token}`,
        'user-agent': this.options.userAgent ?? 'helm-gate',
        'x-github-api-version': '2022-11-28',
        ...(body === undefined ? {} : { 'content-type': 'application/json' })
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    if (response.status >= 400) {
      const route = url.startsWith(this.apiUrl) ? url.slice(this.apiUrl.length) : url
      throw new GitHubHttpError(
        response.status,
        method,
        route.split('?')[0],
        await response.text(),
        response.headers.get('x-accepted-github-permissions')
      )
    }
    return response
  }
}

export function nextLink(header: string | null): string | null {
  if (!header) return null
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="next"/.exec(part)
    if (match) return match[1]
  }
  return null
}

/**
 * Fork and Dependabot pull requests get a read-only token: writes answer 403 "Resource not
 * accessible by integration". That is expected, not a failure of the gate.
 */
export function asPermissionDenied(error: unknown, what: string): PermissionDeniedError | null {
  if (!(error instanceof GitHubHttpError) || error.status !== 403) return null
  const missing = error.acceptedPermissions ? ` (needs ${error.acceptedPermissions})` : ''
  return new PermissionDeniedError('github.forbidden', `GitHub refused to ${what}${missing}`, {
    field: error.route,
    value: error.status
  })
}
