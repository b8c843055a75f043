import { describe, expect, test } from '@jest/globals'
import { attachLoad } from '../../src/load/combine.js'
import type { Report, Verdict } from '../../src/model/report.js'
import { sampleLoad } from '../report/markdown-load.test.js'

function quality(verdict: Verdict): Report {
  return {
    schema_version: 1,
    tool: { name: 'helm-gate', version: 'test' },
    verdict,
    headline: `Quality ${verdict}.`,
    errors: [],
    warnings: [],
    settings: { confidence: 0.95, resamples: 100, seed: 0, min_overlap: 0.95, interval: 'auto' },
    baseline: { path: 'b', runs: [], deployment: null, helm_version: null },
    candidate: { path: 'c', runs: [], deployment: null, helm_version: null },
    comparisons: [],
    efficiency: [],
    notes: []
  }
}

describe('joining the two halves', () => {
  test.each([
    ['pass', 'pass', 'pass', /^Both halves pass\./],
    ['pass', 'fail', 'fail', /^Decided by the performance half\./],
    ['inconclusive', 'pass', 'inconclusive', /^Decided by the quality half\./],
    ['fail', 'inconclusive', 'fail', /^Decided by the quality half\./],
    ['fail', 'error', 'error', /^Decided by the performance half\./],
    ['fail', 'fail', 'fail', /^Both halves: fail\./]
  ] as const)('quality %s + performance %s -> %s', (q, l, overall, headline) => {
    const joined = attachLoad(quality(q), sampleLoad({ verdict: l, headline: `Performance: ${l}.` }))
    expect(joined.verdict).toBe(overall)
    expect(joined.headline).toMatch(headline)
    expect(joined.load?.verdict).toBe(l)
  })

  test("the load half's errors and warnings join the report's", () => {
    const joined = attachLoad(
      quality('pass'),
      sampleLoad({
        verdict: 'error',
        errors: [{ code: 'load.not_streaming', message: 'x' }],
        warnings: [{ code: 'load.output_length', message: 'y' }]
      })
    )
    expect(joined.errors.map(e => e.code)).toEqual(['load.not_streaming'])
    expect(joined.warnings.map(w => w.code)).toEqual(['load.output_length'])
  })
})
