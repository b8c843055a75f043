/**
 * The REST edge of the action against the loopback fake, in process: paging, the sticky comment
 * upsert, GitHub's size limit, read-only tokens and injected failures.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { COMMENT_MARKER } from '../../src/action/constants.js'
import { upsertStickyComment } from '../../src/github/comments.js'
import { asPermissionDenied, GitHubHttpError, RestClient } from '../../src/github/rest.js'
import { FakeGitHub } from '../../test-support/fake-github/server.js'
import { buildZip } from '../../test-support/fake-github/zip-writer.js'

let fake: FakeGitHub
let client: RestClient
const repo = { owner: 'acme', repo: 'serving' }

beforeAll(async () => {
  fake = await new FakeGitHub().start()
  client = new RestClient({ apiUrl: fake.url, token: 'test-token' })
})
afterAll(() => fake.stop())

describe('the fake GitHub and the REST client', () => {
  it('refuses a comment body over 65,536 characters like GitHub does', async () => {
    const error = await client
      .request('POST', '/repos/acme/serving/issues/1/comments', { body: 'x'.repeat(65537) })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GitHubHttpError)
    expect((error as GitHubHttpError).status).toBe(422)
    expect((error as GitHubHttpError).body).toMatch(/Body is too long \(maximum is 65536 characters\)/)
  })

  it('pages through comments, creates the sticky comment once, then updates it; an oversized body is cut', async () => {
    for (let i = 0; i < 120; i++) fake.seedComment(2, `comment ${i}`, 'someone', 'User')
    const first = await upsertStickyComment(client, repo, 2, `${COMMENT_MARKER}\nfirst`, COMMENT_MARKER)
    const second = await upsertStickyComment(client, repo, 2, `${COMMENT_MARKER}\n${'y'.repeat(70000)}`, COMMENT_MARKER)
    expect(first.created).toBe(true)
    expect(second).toMatchObject({ id: first.id, created: false })
    const stored = fake.comments.find(c => c.id === first.id)!
    expect(stored.body.length).toBeLessThanOrEqual(65536)
    expect(stored.body.startsWith(COMMENT_MARKER)).toBe(true)
    const listPages = fake.requests.filter(r => r.method === 'GET' && r.path.endsWith('/issues/2/comments'))
    expect(listPages.length).toBe(4) // two upserts, each reading two pages of 100
    expect(fake.violations).toEqual([])
  })

  it('turns a read-only 403 into a PermissionDeniedError naming the missing permission', async () => {
    fake.readOnly = true
    try {
      const error = await client.request('POST', '/repos/acme/serving/check-runs', { name: 'x', head_sha: 'a' }).catch((e: unknown) => e)
      const denied = asPermissionDenied(error, 'create the check run')
      expect(denied?.message).toBe('GitHub refused to create the check run (needs checks=write)')
      expect(asPermissionDenied(new GitHubHttpError(404, 'GET', '/x', '', null), 'x')).toBeNull()
    } finally {
      fake.readOnly = false
    }
  })

  it('answers injected 404/409/410 failures and records every request', async () => {
    fake.fail({ method: 'GET', path: /\/pulls\/9$/, status: 404, times: 1 })
    await expect(client.request('GET', '/repos/acme/serving/pulls/9')).rejects.toMatchObject({ status: 404 })
    const zip = buildZip([{ name: 'a.txt', data: 'a' }])
    const expired = fake.seedArtifact({ name: 'old', zip, runId: 5, expired: true })
    await expect(client.download(`/repos/acme/serving/actions/artifacts/${expired.id}/zip`)).rejects.toMatchObject({ status: 410 })
    const fresh = fake.seedArtifact({ name: 'new', zip, runId: 5 })
    expect((await client.download(`/repos/acme/serving/actions/artifacts/${fresh.id}/zip`)).equals(zip)).toBe(true)
    fake.fail({ method: 'PATCH', path: /\/issues\/comments\//, status: 409 })
    await expect(client.request('PATCH', '/repos/acme/serving/issues/comments/1', { body: 'x' })).rejects.toMatchObject({ status: 409 })
    expect(fake.requests.at(-1)).toMatchObject({ method: 'PATCH', status: 409 })
  })

  it('reports a request the OpenAPI description refuses', async () => {
    const before = fake.violations.length
    await expect(client.request('POST', '/repos/acme/serving/check-runs', { head_sha: 'a' })).rejects.toMatchObject({ status: 422 })
    expect(fake.violations.slice(before).join('\n')).toMatch(/name/)
    fake.violations.splice(before)
  })
})
