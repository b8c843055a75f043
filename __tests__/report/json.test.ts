import { describe, expect, test } from '@jest/globals'
import { renderJson } from '../../src/report/json.js'
import type { Report } from '../../src/model/report.js'
import { makeComparison, makeReport } from './make-report.js'

/** The same report with every object's keys inserted in reverse order. */
function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value as object).reverse()) out[key] = reversedKeys((value as Record<string, unknown>)[key])
  return out as T
}

describe('renderJson', () => {
  test('equal reports give byte-identical text, whatever the key insertion order', () => {
    const report = makeReport({ comparisons: [makeComparison(), makeComparison({ metric: 'f1', binary: false })] })
    const a = renderJson(report)
    const b = renderJson(reversedKeys(report))
    const c = renderJson(JSON.parse(JSON.stringify(report)) as Report)
    expect(b).toBe(a)
    expect(c).toBe(a)
  })

  test('keys follow the model order, two-space indent, trailing newline', () => {
    const text = renderJson(reversedKeys(makeReport()))
    expect(text.endsWith('}\n')).toBe(true)
    expect(text.startsWith('{\n  "schema_version": 1,\n  "tool": {\n    "name": "helm-gate",')).toBe(true)
    const top = Object.keys(JSON.parse(text) as object)
    expect(top).toEqual([
      'schema_version',
      'tool',
      'verdict',
      'headline',
      'errors',
      'warnings',
      'settings',
      'baseline',
      'candidate',
      'comparisons',
      'efficiency',
      'notes'
    ])
    const comparison = (JSON.parse(text) as Report).comparisons[0]
    expect(Object.keys(comparison).slice(0, 4)).toEqual(['id', 'run', 'entry', 'metric'])
    expect(Object.keys(comparison.ci)).toEqual(['level', 'low', 'high', 'method'])
  })

  test('the text parses back to the same report', () => {
    const report = makeReport({ headline: 'quotes " and \\ and \u2028 and 😀 survive' })
    expect(JSON.parse(renderJson(report))).toEqual(report)
  })

  test('NaN and Infinity are written as null; -0 as 0; never as bare tokens', () => {
    const report = makeReport({
      comparisons: [makeComparison({ delta: Number.NaN, baseline_mean: Number.POSITIVE_INFINITY, candidate_mean: -0 })]
    })
    const text = renderJson(report)
    expect(text).not.toMatch(/NaN|Infinity|-0[,\n]/)
    const parsed = JSON.parse(text) as Report
    expect(parsed.comparisons[0].delta).toBeNull()
    expect(parsed.comparisons[0].baseline_mean).toBeNull()
    expect(Object.is(parsed.comparisons[0].candidate_mean, 0)).toBe(true)
  })

  test('unset optional fields are omitted; unknown fields follow the known ones, sorted', () => {
    const report = makeReport({ errors: [{ code: 'x', message: 'm', file: undefined }] })
    const withExtra = { ...report, zeta: 1, alpha: 2 } as unknown as Report
    const text = renderJson(withExtra)
    expect(text).not.toContain('"file"')
    const keys = Object.keys(JSON.parse(text) as object)
    expect(keys.slice(-3)).toEqual(['notes', 'alpha', 'zeta'])
  })
})
