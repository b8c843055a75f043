/**
 * The GitHub REST client: @actions/github's getOctokit (GITHUB_API_URL and the runner's proxy
 * settings, typed routes) with @octokit/plugin-retry (5xx and network failures, with backoff) and
 * @octokit/plugin-throttling (primary and secondary rate limits, honouring `retry-after`).
 *
 * A flaky GitHub is retried here, so one 502 never decides a verdict; what still fails reaches
 * the caller as a RequestError whose status, route and request id describeRequestError names.
 */
import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'

export type GitHubClient = ReturnType<typeof getOctokit>
/**
 * The octokit a plugin is given, named through getOctokit's own signature: @octokit/core is
 * @actions/github's dependency, not ours, so its types are not imported directly.
 */
type OctokitPlugin = Parameters<typeof getOctokit>[2] & {}
type Octokit = Parameters<OctokitPlugin>[0]

export interface ClientLog {
  /** One line per retry, in the job log. */
  info(message: string): void
  /** Request details (core.debug: shown with step debug logging). */
  debug(message: string): void
}

export interface ClientOptions {
  token: string
  userAgent: string
  /** Default: GITHUB_API_URL as @actions/github read it at start. */
  baseUrl?: string
  log: ClientLog
  /** Retries of one request on 5xx, network failures and rate limits (default 3). */
  retries?: number
  /**
   * Milliseconds per unit of backoff: retry n waits n^2 units, a rate limit `retry-after` units
   * (default 1000, GitHub's seconds). Tests set it low.
   */
  retryUnitMs?: number
  /** A primary rate limit that resets later than this (seconds) is not waited for (default 120). */
  maxRateLimitWaitSeconds?: number
}

/** GitHub's answers that a retry cannot change; 403 and 429 are the throttling plugin's. */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451]

export function createGitHubClient(options: ClientOptions): GitHubClient {
  const retries = options.retries ?? 3
  const unit = options.retryUnitMs ?? 1000
  const maxWait = options.maxRateLimitWaitSeconds ?? 120
  const { log } = options
  // The throttling plugin hands over the route template; expand it for the log line.
  const route = (request: { method?: string; url?: string }, octokit: unknown): string => {
    const expand = (octokit as { request?: { endpoint?: { parse(o: unknown): { url: string } } } }).request?.endpoint
    let url = request.url ?? ''
    try {
      if (expand) url = expand.parse(request).url
    } catch {
      // keep the template
    }
    return `${request.method ?? 'GET'} ${pathOf(url)}`
  }
  return getOctokit(
    options.token,
    {
      userAgent: options.userAgent,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      retry: { retries, retryAfterBaseValue: unit, doNotRetry: DO_NOT_RETRY },
      throttle: {
        retryAfterBaseValue: unit,
        fallbackSecondaryRateRetryAfter: 60,
        onRateLimit: (after: number, request: { method?: string; url?: string }, octokit: unknown, count: number) => {
          if (count >= retries || after > maxWait) return false
          log.info(
            `GitHub's rate limit for this token is used up (${route(request, octokit)}); retrying in ${after} s (${count + 1} of ${retries})`
          )
          return true
        },
        onSecondaryRateLimit: (after: number, request: { method?: string; url?: string }, octokit: unknown, count: number) => {
          if (count >= retries) return false
          log.info(`GitHub's secondary rate limit (${route(request, octokit)}); retrying in ${after} s (${count + 1} of ${retries})`)
          return true
        }
      }
    },
    // Registered first, so its hooks are innermost: they see every attempt, retries included.
    requestLog(log, retries),
    retry,
    throttling
  )
}

/** Logs each request (debug) and each failure the retry plugin will retry (info). */
function requestLog(log: ClientLog, retries: number) {
  return (octokit: Octokit): void => {
    octokit.hook.wrap('request', async (request, options) => {
      const attempt = Number((options.request as { retryCount?: number } | undefined)?.retryCount ?? 0)
      const what = `${options.method} ${pathOf(octokit.request.endpoint.parse(options).url)}`
      log.debug(`GitHub request ${what}${attempt > 0 ? ` (retry ${attempt})` : ''}`)
      try {
        const response = await request(options)
        log.debug(`GitHub answered ${response.status} to ${what} (request id ${requestId(response.headers)})`)
        return response
      } catch (error) {
        const status = statusOf(error)
        if (status !== null && (status >= 500 || !DO_NOT_RETRY.includes(status)) && attempt < retries) {
          log.info(`GitHub answered ${status} to ${what} (request id ${requestIdOf(error)}); retrying (${attempt + 1} of ${retries})`)
        }
        throw error
      }
    })
  }
}

/** A failed REST call: the status GitHub answered (500 for a network failure). */
export interface RequestFailure {
  status: number
  request: { method?: string; url?: string }
  response?: { headers?: Record<string, unknown>; data?: unknown }
  message: string
}

export function isRequestFailure(error: unknown): error is RequestFailure {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as RequestFailure).status === 'number' &&
    typeof (error as RequestFailure).request === 'object'
  )
}

function statusOf(error: unknown): number | null {
  return isRequestFailure(error) ? error.status : null
}

function requestId(headers: Record<string, unknown> | undefined): string {
  const id = headers?.['x-github-request-id']
  return typeof id === 'string' && id ? id : 'none'
}

function requestIdOf(error: unknown): string {
  return isRequestFailure(error) ? requestId(error.response?.headers) : 'none'
}

/** The route without the API host and the query, readable: `/repos/acme/serving/contents/.github/x.yml`. */
export function pathOf(url: string): string {
  let pathname: string
  try {
    pathname = new URL(url, 'http://github.invalid').pathname
  } catch {
    pathname = url.split('?')[0]
  }
  try {
    return decodeURIComponent(pathname)
  } catch {
    return pathname
  }
}

/** `GitHub answered 502 to GET /repos/... (request id X)`: the true cause of a failure. */
export function describeRequestError(error: unknown): string {
  if (!isRequestFailure(error)) return error instanceof Error ? error.message : String(error)
  const what = `${error.request.method ?? 'GET'} ${pathOf(error.request.url ?? '')}`
  const status = error.status === 500 && !error.response ? 'no answer (network failure)' : String(error.status)
  return `GitHub answered ${status} to ${what} (request id ${requestIdOf(error)}): ${firstLine(error.message)}`
}

/** `x-accepted-github-permissions`, e.g. `issues=write; pull_requests=write`, when GitHub sent it. */
export function acceptedPermissions(error: unknown): string | null {
  if (!isRequestFailure(error)) return null
  const value = error.response?.headers?.['x-accepted-github-permissions']
  return typeof value === 'string' && value ? value : null
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 300)
}
