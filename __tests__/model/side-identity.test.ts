import { describe, expect, it } from '@jest/globals'
import { identityDiffers, type SideIdentity } from '../../src/model/side-identity.js'

const side = (overrides: Partial<SideIdentity> = {}): SideIdentity => ({
  model: 'tiny',
  host: '127.0.0.1:8001',
  api: 'chat',
  engine: null,
  origin: { kind: 'run' },
  ...overrides
})
const engine = (version: string | null, root: string | null = null) => ({ version, root, max_model_len: null, owned_by: null })
const image = (name: string, digest: string | null) => ({ name, digest, id: null, error: null })
const weights = (sha256: string | null) => ({ file: '/m/model.gguf', bytes: 1, sha256, error: null })
const NONE = { deployment: false, engine: false, chat_template: false, sampling: false, image: false, weights: false }

describe('identityDiffers', () => {
  it('marks the deployment when the API differs (chat against completions), not when only the host does', () => {
    expect(identityDiffers(side(), side({ api: 'completions', host: '127.0.0.1:8002' }), null)).toEqual({ ...NONE, deployment: true })
    expect(identityDiffers(side(), side({ host: '127.0.0.1:8002' }), null)).toEqual(NONE)
    expect(identityDiffers(side(), side({ model: 'other' }), null).deployment).toBe(true)
  })

  it('compares only what both sides know: an unreported value is no difference', () => {
    expect(identityDiffers(side({ api: null, engine: engine('0.11.0') }), side({ api: 'completions', engine: null }), null)).toEqual(NONE)
    expect(identityDiffers(side({ weights: weights(null) }), side({ weights: weights('b'.repeat(64)) }), null)).toEqual(NONE)
    expect(identityDiffers(null, side(), undefined)).toEqual(NONE)
  })

  it('marks the engine by version or weights root, the weights by content', () => {
    expect(identityDiffers(side({ engine: engine('0.11.0') }), side({ engine: engine('0.11.1') }), null).engine).toBe(true)
    expect(identityDiffers(side({ engine: engine(null, '/a') }), side({ engine: engine('0.11.1', '/b') }), null).engine).toBe(true)
    expect(identityDiffers(side({ weights: weights('a'.repeat(64)) }), side({ weights: weights('b'.repeat(64)) }), null).weights).toBe(true)
  })

  it('marks the image by digest when both have one, by name otherwise', () => {
    const d = 'sha256:' + 'c'.repeat(64)
    expect(identityDiffers(side({ image: image('v:1', d) }), side({ image: image('v:2', d) }), null).image).toBe(false)
    expect(identityDiffers(side({ image: image('v:1', d) }), side({ image: image('v:1', 'sha256:' + 'd'.repeat(64)) }), null).image).toBe(
      true
    )
    expect(identityDiffers(side({ image: image('v:1', null) }), side({ image: image('v:2', null) }), null).image).toBe(true)
  })

  it('takes the chat template and sampling from the serving comparison', () => {
    const serving = {
      chat_template: { baseline: 'a', candidate: 'b', differs: true },
      sampling: { baseline: 'temperature 0.8', candidate: 'temperature 0.8', differs: false }
    }
    expect(identityDiffers(side(), side(), serving)).toEqual({ ...NONE, chat_template: true })
  })
})
