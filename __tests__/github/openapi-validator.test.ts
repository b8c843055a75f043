import { describe, expect, it } from '@jest/globals'
import { OpenApiValidator } from '../../test-support/fake-github/openapi.js'

const validator = new OpenApiValidator()

describe('the fake GitHub checks requests against the OpenAPI description', () => {
  it('accepts a valid check run and rejects a bad conclusion', () => {
    const body = {
      name: 'helm-gate',
      head_sha: 'a'.repeat(40),
      status: 'completed',
      conclusion: 'success',
      output: { title: 't', summary: 's' }
    }
    expect(validator.validate('POST', '/repos/o/r/check-runs', new URLSearchParams(), body)).toEqual([])
    const bad = validator.validate('POST', '/repos/o/r/check-runs', new URLSearchParams(), { ...body, conclusion: 'nope' })
    expect(bad.join('\n')).toMatch(/conclusion/)
  })

  it('checks query parameters and unknown routes', () => {
    expect(validator.validate('GET', '/repos/o/r/actions/artifacts', new URLSearchParams('name=x&per_page=100'), undefined)).toEqual([])
    expect(
      validator.validate('GET', '/repos/o/r/actions/artifacts', new URLSearchParams('per_page=abc'), undefined).length
    ).toBeGreaterThan(0)
    expect(validator.validate('GET', '/repos/o/r/actions/artifacts', new URLSearchParams('nmae=x'), undefined)[0]).toMatch(/nmae/)
    expect(validator.validate('DELETE', '/repos/o/r/issues/comments/1', new URLSearchParams(), undefined)[0]).toMatch(/not a GitHub REST/)
  })

  it('matches the contents path over slashes and the most specific artifact route', () => {
    expect(validator.match('GET', '/repos/o/r/contents/.github/helm-gate.yml')?.params.path).toBe('.github/helm-gate.yml')
    // What octokit sends: {path} is a simple URI-template expansion, so `/` is encoded.
    expect(validator.match('GET', '/repos/o/r/contents/.github%2Fhelm-gate.yml')?.params.path).toBe('.github/helm-gate.yml')
    // Only the parameter the description marks x-multi-segment spans slashes.
    expect(validator.match('GET', '/repos/o/r/actions/runs/1/2')).toBeNull()
    expect(validator.match('GET', '/repos/o/r/actions/runs/12')?.params).toEqual({ owner: 'o', repo: 'r', run_id: '12' })
    expect(validator.match('GET', '/repos/o/r/actions/artifacts/12/zip')?.operationId).toBe('actions/download-artifact')
    expect(validator.match('GET', '/repos/o/r/actions/artifacts/12')?.operationId).toBe('actions/get-artifact')
  })
})
