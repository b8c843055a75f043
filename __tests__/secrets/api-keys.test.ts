/** The one API-key lookup: names, values, a missing variable refused naming the field. */
import { describe, expect, it } from '@jest/globals'
import type { Deployment } from '../../src/config/types.js'
import { ConfigError } from '../../src/errors.js'
import { apiKeyNames, apiKeyOf, apiKeyValues, missingKeyError } from '../../src/secrets/api-keys.js'

const server = (apiKeyEnv: string | null) =>
  ({ kind: 'server', api: 'chat', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKeyEnv }) as unknown as Deployment
const prodEnv = { kind: 'prod_env', localPath: '/p', deployment: 'd' } as unknown as Deployment

describe('API keys from the environment', () => {
  const env = { BASE_KEY: 'sk-base-0123456789', EMPTY_KEY: '' }

  it('names, looks up and lists the keys that are set', () => {
    const deployments = [server('BASE_KEY'), server('EMPTY_KEY'), server(null), prodEnv, undefined]
    expect(apiKeyNames(deployments)).toEqual(['BASE_KEY', 'EMPTY_KEY'])
    expect(apiKeyValues(deployments, env)).toEqual(['sk-base-0123456789'])
    expect(apiKeyOf(server('BASE_KEY'), env)).toBe('sk-base-0123456789')
    expect(apiKeyOf(server('EMPTY_KEY'), env)).toBeNull()
    expect(apiKeyOf(prodEnv, env)).toBeNull()
  })

  it('refuses a named variable that is not set, naming the field and the variable, never a value', () => {
    const error = missingKeyError('EMPTY_KEY', 'candidate', 'gate.yml')
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.code).toBe('config.api_key_missing')
    expect(error.describe()).toBe(
      'the environment variable EMPTY_KEY (the candidate API key) is not set (file: gate.yml, field: deployments.candidate.api_key_env, value: "EMPTY_KEY")'
    )
  })
})
