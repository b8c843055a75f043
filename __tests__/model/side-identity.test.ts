import { describe, expect, it } from '@jest/globals'
import {
  identityDiffers,
  requestedSampling,
  requestSamplingCell,
  VARIES_BY_ENTRY,
  type RequestSampling,
  type SideIdentity
} from '../../src/model/side-identity.js'

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
const NONE = {
  deployment: false,
  engine: false,
  chat_template: false,
  requested_sampling: false,
  sampling: false,
  image: false,
  weights: false
}
/** A generation run's requests (HELM's generation adapter sends the adapter spec's values). */
const MCQA: RequestSampling = { temperature: 0, max_tokens: 5, stop_sequences: ['\n'], num_outputs: 5 }

describe('identityDiffers', () => {
  it('marks the deployment when the API differs (chat against completions), not when only the host does', () => {
    expect(identityDiffers(side(), side({ api: 'completions', host: '127.0.0.1:8002' }), null, null)).toEqual({ ...NONE, deployment: true })
    expect(identityDiffers(side(), side({ host: '127.0.0.1:8002' }), null, null)).toEqual(NONE)
    expect(identityDiffers(side(), side({ model: 'other' }), null, null).deployment).toBe(true)
  })

  it('compares only what both sides know: an unreported value is no difference', () => {
    expect(identityDiffers(side({ api: null, engine: engine('0.11.0') }), side({ api: 'completions', engine: null }), null, null)).toEqual(
      NONE
    )
    expect(identityDiffers(side({ weights: weights(null) }), side({ weights: weights('b'.repeat(64)) }), null, null)).toEqual(NONE)
    expect(identityDiffers(null, side(), undefined, null)).toEqual(NONE)
  })

  it('marks the engine by version or weights root, the weights by content', () => {
    expect(identityDiffers(side({ engine: engine('0.11.0') }), side({ engine: engine('0.11.1') }), null, null).engine).toBe(true)
    expect(identityDiffers(side({ engine: engine(null, '/a') }), side({ engine: engine('0.11.1', '/b') }), null, null).engine).toBe(true)
    expect(
      identityDiffers(side({ weights: weights('a'.repeat(64)) }), side({ weights: weights('b'.repeat(64)) }), null, null).weights
    ).toBe(true)
  })

  it('marks the image by digest when both have one, by name otherwise', () => {
    const d = 'sha256:' + 'c'.repeat(64)
    expect(identityDiffers(side({ image: image('v:1', d) }), side({ image: image('v:2', d) }), null, null).image).toBe(false)
    expect(
      identityDiffers(side({ image: image('v:1', d) }), side({ image: image('v:1', 'sha256:' + 'd'.repeat(64)) }), null, null).image
    ).toBe(true)
    expect(identityDiffers(side({ image: image('v:1', null) }), side({ image: image('v:2', null) }), null, null).image).toBe(true)
  })

  it('takes the chat template and sampling from the serving comparison', () => {
    const serving = {
      chat_template: { baseline: 'a', candidate: 'b', differs: true },
      sampling: { baseline: 'temperature 0.8', candidate: 'temperature 0.8', differs: false }
    }
    expect(identityDiffers(side(), side(), serving, null)).toEqual({ ...NONE, chat_template: true })
  })
})

describe('the sampling the requests sent', () => {
  it('names every setting of one entry, the newline stop sequence as JSON text and the outputs counted', () => {
    expect(requestSamplingCell(MCQA)).toBe('temperature 0 · max_tokens 5 · stop ["\\n"] · 5 outputs')
    expect(requestSamplingCell({ ...MCQA, num_outputs: 1 })).toBe('temperature 0 · max_tokens 5 · stop ["\\n"] · 1 output')
    // A field the run spec does not hold is left out, not shown as a default.
    expect(requestSamplingCell({ temperature: 0.7, max_tokens: null, stop_sequences: null, num_outputs: null })).toBe('temperature 0.7')
  })

  it('says "varies by run entry" when the entries of one side differ, and keeps each entry', () => {
    const reasoning = { ...MCQA, max_tokens: 50, num_outputs: 1 }
    const side = requestedSampling({ simple_mcqa: MCQA, 'synthetic_reasoning:mode=pattern_match': reasoning })
    expect(side).toEqual({ cell: VARIES_BY_ENTRY, by_entry: { simple_mcqa: MCQA, 'synthetic_reasoning:mode=pattern_match': reasoning } })
    expect(requestedSampling({ a: MCQA, b: { ...MCQA } })?.cell).toBe(requestSamplingCell(MCQA))
    expect(requestedSampling({})).toBeNull()
  })

  it('marks the row when an entry both sides ran sent other settings (temperature 0.7 against 0)', () => {
    const b = requestedSampling({ simple_mcqa: MCQA })
    const c = requestedSampling({ simple_mcqa: { ...MCQA, temperature: 0.7 } })
    expect(identityDiffers(side(), side(), null, { baseline: b, candidate: c })).toEqual({ ...NONE, requested_sampling: true })
    expect(identityDiffers(side(), side(), null, { baseline: b, candidate: requestedSampling({ simple_mcqa: { ...MCQA } }) })).toEqual(NONE)
  })

  it('compares entry by entry: two sides that both vary are marked when one shared entry differs', () => {
    const other = { ...MCQA, max_tokens: 50 }
    const b = requestedSampling({ x: MCQA, y: other })
    const c = requestedSampling({ x: MCQA, y: { ...other, stop_sequences: ['\n\n'] } })
    expect(b?.cell).toBe(VARIES_BY_ENTRY)
    expect(c?.cell).toBe(VARIES_BY_ENTRY)
    expect(identityDiffers(side(), side(), null, { baseline: b, candidate: c }).requested_sampling).toBe(true)
  })

  it('with no entry name in common compares the cells; one side unknown is no difference', () => {
    const b = requestedSampling({ x: MCQA })
    const c = requestedSampling({ z: { ...MCQA, temperature: 1 } })
    expect(identityDiffers(side(), side(), null, { baseline: b, candidate: c }).requested_sampling).toBe(true)
    expect(identityDiffers(side(), side(), null, { baseline: b, candidate: null }).requested_sampling).toBe(false)
  })
})
