import { describe, expect, it } from '@jest/globals'
import { masker, secretValues } from '../../src/secrets/mask.js'

describe('masking', () => {
  it('masks API keys and the values of secret-looking variables, longest first', () => {
    const secrets = secretValues({ HF_TOKEN: 'hf_abc', MY_API_KEY: 'hf_abcdef', PATH: '/usr/bin', SHORT_KEY: 'ab' }, ['sk-live-1'])
    expect(secrets).toEqual(['hf_abcdef', 'sk-live-1', 'hf_abc'])
    expect(masker(secrets)('key hf_abcdef token hf_abc sk-live-1 /usr/bin ab')).toBe('key *** token *** *** /usr/bin ab')
  })

  it('hides credentials nobody declared: the one redactor runs after the known values', () => {
    const line = 'INFO args: --api-key sk-proj-Zq8rT2vLx9WmPk4s, url=https://u:pw@db.example/v1?key=abc, HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrSt'
    const masked = masker([])(line)
    for (const secret of ['sk-proj-Zq8rT2vLx9WmPk4s', 'u:pw', 'key=abc', 'hf_AbCdEfGhIjKlMnOpQrSt']) expect(masked).not.toContain(secret)
    expect(masked).toContain('INFO args: --api-key ***')
  })
})
