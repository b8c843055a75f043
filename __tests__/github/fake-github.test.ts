/**
 * The REST edge of the action against the loopback fake, in process: the octokit client with its
 * retry and throttling plugins, paging, the sticky comment upsert, GitHub's size limit, read-only
 * tokens and injected failures.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { commentMarker } from '../../src/action/constants.js'
import { acceptedPermissions, createGitHubClient, describeRequestError, type GitHubClient } from '../../src/github/client.js'
import { upsertStickyComment } from '../../src/github/comments.js'
import { FakeGitHub } from '../../test-support/fake-github/server.js'

const COMMENT_MARKER = commentMarker('.github/helm-gate.yml')
let fake: FakeGitHub
let client: GitHubClient
const logged: string[] = []
const repo = { owner: 'acme', repo: 'serving' }

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  client = createGitHubClient({
    token: 'test-token',
    userAgent: 'helm-gate-test',
    baseUrl: fake.url,
    retryUnitMs: 1,
    log: { info: line => logged.push(line), debug: () => undefined }
  })
})
afterAll(() => fake.stop())

const failure = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => null).catch((e: unknown) => e)

describe('the fake GitHub and the octokit client', () => {
  it('reads a file in a folder through the contents API as octokit sends it (`/` encoded as %2F)', async () => {
    fake.seedFile('a'.repeat(40), '.github/gates/fp8.yml', 'version: 1\n')
    const { data } = await client.rest.repos.getContent({ ...repo, path: '.github/gates/fp8.yml', ref: 'a'.repeat(40) })
    expect(Buffer.from((data as { content: string }).content, 'base64').toString()).toBe('version: 1\n')
    const sent = fake.requests.filter(r => r.path.includes('/contents/')).at(-1)
    expect(sent?.path).toBe('/repos/acme/serving/contents/.github%2Fgates%2Ffp8.yml')
    expect(fake.violations).toEqual([])
  })

  it('refuses a comment body over 65,536 characters like GitHub does', async () => {
    const error = await failure(client.rest.issues.createComment({ ...repo, issue_number: 1, body: 'x'.repeat(65537) }))
    expect(error).toMatchObject({ status: 422 })
    expect(describeRequestError(error)).toMatch(/422 to POST \/repos\/acme\/serving\/issues\/1\/comments/)
  })

  it('pages through comments, creates the sticky comment once, then updates it; an oversized body is cut', async () => {
    for (let i = 0; i < 120; i++) fake.seedComment(2, `comment ${i}`, 'someone', 'User')
    const first = await upsertStickyComment(client, repo, 2, `${COMMENT_MARKER}\nfirst`, COMMENT_MARKER, null)
    const second = await upsertStickyComment(client, repo, 2, `${COMMENT_MARKER}\n${'y'.repeat(70000)}`, COMMENT_MARKER, null)
    expect(first.created).toBe(true)
    expect(second).toMatchObject({ id: first.id, created: false })
    const stored = fake.comments.find(c => c.id === first.id)!
    expect(stored.body.length).toBeLessThanOrEqual(65536)
    expect(stored.body.startsWith(COMMENT_MARKER)).toBe(true)
    const listPages = fake.requests.filter(r => r.method === 'GET' && r.path.endsWith('/issues/2/comments'))
    expect(listPages.length).toBe(4) // two upserts, each reading two pages of 100
    expect(fake.violations).toEqual([])
  })

  it('names the missing permission of a read-only 403 from x-accepted-github-permissions', async () => {
    fake.readOnly = true
    try {
      const error = await failure(
        client.rest.checks.create({ ...repo, name: 'x', head_sha: 'a'.repeat(40), status: 'completed', conclusion: 'success' })
      )
      expect(error).toMatchObject({ status: 403 })
      expect(acceptedPermissions(error)).toBe('checks=write')
    } finally {
      fake.readOnly = false
    }
  })

  it('retries a 502 and logs the retry, then succeeds', async () => {
    logged.length = 0
    fake.fail({ method: 'GET', path: /\/pulls\/11$/, status: 502, times: 1 })
    fake.pulls.set(11, { number: 11, head: { sha: 'd'.repeat(40), ref: 'f' }, base: { sha: 'a'.repeat(40), ref: 'main' } })
    const { data } = await client.rest.pulls.get({ ...repo, pull_number: 11 })
    expect(data.number).toBe(11)
    expect(fake.requests.filter(r => r.path.endsWith('/pulls/11')).map(r => r.status)).toEqual([502, 200])
    expect(logged.filter(line => /answered 502 to GET \/repos\/acme\/serving\/pulls\/11/.test(line))).toHaveLength(1)
  })

  it('gives up after its retries with the true cause: status, route and request id', async () => {
    fake.fail({ method: 'GET', path: /\/pulls\/12$/, status: 503, times: 10, headers: { 'x-github-request-id': 'ABCD:1234' } })
    const error = await failure(client.rest.pulls.get({ ...repo, pull_number: 12 }))
    expect(fake.requests.filter(r => r.path.endsWith('/pulls/12'))).toHaveLength(4)
    expect(describeRequestError(error)).toMatch(/GitHub answered 503 to GET \/repos\/acme\/serving\/pulls\/12 \(request id ABCD:1234\)/)
  })

  it('waits out a secondary rate limit (403 with retry-after) instead of giving up', async () => {
    logged.length = 0
    fake.fail({
      method: 'GET',
      path: /\/pulls\/13$/,
      status: 403,
      times: 1,
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      headers: { 'retry-after': '1' }
    })
    fake.pulls.set(13, { number: 13, head: { sha: 'd'.repeat(40), ref: 'f' }, base: { sha: 'a'.repeat(40), ref: 'main' } })
    const { data } = await client.rest.pulls.get({ ...repo, pull_number: 13 })
    expect(data.number).toBe(13)
    expect(logged.some(line => /secondary rate limit.*retrying in 1 s/.test(line))).toBe(true)
  })

  it('does not retry a 404 or a 422 the OpenAPI description refuses', async () => {
    fake.fail({ method: 'GET', path: /\/pulls\/9$/, status: 404, times: 1 })
    await expect(client.rest.pulls.get({ ...repo, pull_number: 9 })).rejects.toMatchObject({ status: 404 })
    expect(fake.requests.filter(r => r.path.endsWith('/pulls/9'))).toHaveLength(1)
    const before = fake.violations.length
    const untyped = client.request as unknown as (route: string, parameters: object) => Promise<unknown>
    await expect(untyped('POST /repos/{owner}/{repo}/check-runs', { ...repo, head_sha: 'a' })).rejects.toMatchObject({ status: 422 })
    expect(fake.violations.slice(before).join('\n')).toMatch(/name/)
    fake.violations.splice(before)
  })
})
