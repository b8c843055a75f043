import { describe, expect, test } from '@jest/globals'
import { renderCheckRun } from '../../src/report/check-run.js'
import { makeComparison, makeExample, makeReport } from './make-report.js'

describe('renderCheckRun', () => {
  test('summary has the decision, text the detail', () => {
    const out = renderCheckRun(makeReport({ verdict: 'fail', comparisons: [makeComparison({ verdict: 'fail' })] }))
    expect(out.title).toBe('Fail: 0/1 gated passed, 1 failed')
    expect(out.summary).toContain('### Comparisons')
    expect(out.summary).not.toContain('changed answers</summary>')
    expect(out.text).toContain('### Forest plot')
    expect(out.text).toContain('changed answers</summary>')
  })

  test('summary and text each stay within 65,535 characters for a huge report', () => {
    const huge = 'z'.repeat(100_000)
    const example = makeExample({ input: huge, candidate_output: huge })
    const comparisons = Array.from({ length: 2000 }, (_, i) =>
      makeComparison({ run: `run_${i}`, verdict: i % 2 ? 'pass' : 'fail', examples: [example, example, example] })
    )
    const out = renderCheckRun(makeReport({ verdict: 'fail', comparisons }))
    expect(out.summary.length).toBeLessThanOrEqual(65_535)
    expect(out.text.length).toBeLessThanOrEqual(65_535)
    expect(out.summary.startsWith('## ❌ Fail')).toBe(true)
  })

  test('the title is one plain line', () => {
    const out = renderCheckRun(makeReport({ verdict: 'error', errors: [{ code: 'x', message: 'y' }], comparisons: [] }))
    expect(out.title).toBe('Error: 1 error')
    expect(out.text).toBe('')
  })
})
