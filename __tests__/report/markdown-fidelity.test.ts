import { describe, expect, it } from '@jest/globals'
import type { FidelityReport } from '../../src/model/fidelity-report.js'
import { renderFidelityMarkdown } from '../../src/report/markdown-fidelity.js'

function report(verdicts: ('pass' | 'fail' | 'inconclusive')[]): FidelityReport {
  return {
    route: 'llamacpp-forced-grammar',
    teacherForced: true,
    topK: 20,
    instances: 40,
    positions: 400,
    restMassMean: 0.0123,
    floorMeasured: true,
    figures: [{ metric: 'kld_mean', candidate: 0.031, floor: 0.001, corrected: 0.03, ci: { low: 0.02, high: 0.04, level: 0.95 } }],
    checks: verdicts.map((verdict, i) => ({
      verdict,
      metric: i === 0 ? 'kld_mean' : 'top1_agreement',
      bound: i === 0 ? ('max' as const) : ('min' as const),
      threshold: i === 0 ? 0.02 : 0.98,
      figure: { metric: 'kld_mean', candidate: 0.031, floor: 0.001, corrected: 0.03, ci: { low: 0.02, high: 0.04, level: 0.95 } },
      nNeeded: null,
      reason: `reason ${i} @someone <b>`
    })),
    worst: [],
    cost: [],
    notes: ['a note with `code` and @mention']
  }
}

describe('renderFidelityMarkdown', () => {
  it('is nothing without a fidelity part', () => {
    expect(renderFidelityMarkdown(undefined)).toEqual([])
  })

  it('shows one row per check, verdict first, and the worst verdict in the heading', () => {
    const lines = renderFidelityMarkdown(report(['fail', 'pass']))
    expect(lines[0]).toBe('### ❌ Fidelity: Fail (1 of 2 checks passed)')
    expect(lines).toContain('| ❌ fail | `kld_mean` ≤ 0.02 | 0.03 [0.02, 0.04] | 0.031 | 0.001 |')
    expect(lines.some(l => l.startsWith('| ✅ pass | `top1_agreement` ≥ 0.98 |'))).toBe(true)
  })

  it('names the route and the bucket, and escapes reasons and notes', () => {
    const text = renderFidelityMarkdown(report(['inconclusive'])).join('\n')
    expect(text).toMatch(/^### 🟡 Fidelity: Inconclusive/)
    expect(text).toMatch(/teacher-forced \(llama\.cpp: a grammar of the baseline token ids/)
    expect(text).toMatch(/the KL is a lower bound/)
    expect(text).not.toMatch(/ @someone/)
    expect(text).not.toMatch(/<b>/)
  })
})
