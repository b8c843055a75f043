import { describe, expect, it } from '@jest/globals'
import { childProcessEnv, urlSecrets } from '../../src/secrets/child-env.js'

describe('childProcessEnv', () => {
  it('keeps what a child needs and drops the runner credentials', () => {
    const env = childProcessEnv({
      PATH: '/usr/bin',
      BASELINE_KEY: 'sk-1',
      HF_HOME: '/cache',
      'INPUT_GITHUB-TOKEN': 'ghs_x',
      ACTIONS_RUNTIME_TOKEN: 'jwt',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
      GITHUB_TOKEN: 'ghs_y'
    })
    expect(env).toEqual({ PATH: '/usr/bin', BASELINE_KEY: 'sk-1', HF_HOME: '/cache' })
  })

  it('keeps a variable the gate file names as an API key, whatever its name', () => {
    expect(childProcessEnv({ GITHUB_TOKEN: 'ghs_y', PATH: '/bin' }, ['GITHUB_TOKEN'])).toEqual({ GITHUB_TOKEN: 'ghs_y', PATH: '/bin' })
  })
})

describe('urlSecrets', () => {
  it('gives the userinfo and query values of a base URL, not short or absent ones', () => {
    expect(urlSecrets('http://user1:pass1234@127.0.0.1:8000/v1?key=abcdef&x=1')).toEqual(['user1', 'pass1234', 'abcdef'])
    expect(urlSecrets('http://127.0.0.1:8000/v1')).toEqual([])
    expect(urlSecrets('not a url')).toEqual([])
  })
})
