// The direction on the terminal: one line per comparison row after the table, information only.
import { describe, expect, test } from '@jest/globals'
import type { ChangeDirection } from '../../src/model/report.js'
import { renderConsole } from '../../src/report/console.js'
import { makeComparison, makeReport } from './make-report.js'

const churn: ChangeDirection = {
  kind: 'churn',
  pairs: 200,
  won: 12,
  lost: 11,
  p_value: 1,
  margin: { by: 'max_prob', sure_at: 0.8, sure: { won: 2, lost: 6 }, unsure: { won: 10, lost: 5 } },
  margin_reason: null,
  sentence: 'moved 23 answers: 12 won, 11 lost (McNemar p = 1.00): churn, not a drop; 6 of the lost where the baseline was sure'
}

describe('the console', () => {
  test('one line per row: counts, p, kind and the split, or why there is none', () => {
    const report = makeReport({
      comparisons: [
        makeComparison({ change_direction: churn }),
        makeComparison({ run: 'other', metric: 'f1_score', change_direction: { kind: 'absent', reason: 'f1_score is not 0 or 1' } })
      ]
    })
    const lines = renderConsole(report, { color: false }).split('\n')
    const at = lines.findIndex(l => l.startsWith('Direction (information only)'))
    expect(at).toBeGreaterThan(0)
    expect(lines[at + 1]).toBe(
      '  mmlu:subject=anatomy,model=base | exact_match | test | clean: +12/-11 (McNemar p 1.00): churn; sure +2/-6, not sure +10/-5 (max_prob ≥ 0.8)'
    )
    expect(lines[at + 2]).toBe('  other | f1_score | test | clean: no direction: f1_score is not 0 or 1')
  })

  test('no row with a direction, no block', () => {
    expect(renderConsole(makeReport(), { color: false })).not.toContain('Direction')
  })
})
