// The direction in the comment: McNemar's p under the Changed counts, the sentence of each row
// whose answers moved under the table, the margin split or its reason, and untrusted run names
// escaped.
import { describe, expect, test } from '@jest/globals'
import type { ChangeDirection } from '../../src/model/report.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { pValueText } from '../../src/report/markdown-direction.js'
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

const render = (direction: ChangeDirection | undefined, run = 'mmlu:subject=anatomy,model=base'): string =>
  renderMarkdown(makeReport({ comparisons: [makeComparison({ run, change_direction: direction })] }), {
    marker: '<!-- helm-gate -->',
    maxLength: 65_000
  })

describe('the comment', () => {
  test('shows p under the Changed counts and the sentence with the margin split under the table', () => {
    const md = render(churn)
    expect(md).toContain('| +12 / -11<br>(p 1.00) | 200 |')
    expect(md).toContain('_Direction (information only, never a verdict)')
    expect(md).toContain(
      // Parentheses and underscores escaped: the whole line goes through escapeInline, and GitHub shows them plain.
      '- mmlu: subject=anatomy · exact\\_match · test: moved 23 answers: 12 won, 11 lost \\(McNemar p = 1.00\\): churn, not a drop; ' +
        '6 of the lost where the baseline was sure \\(sure: +2 / -6; not sure: +10 / -5; sure is max\\_prob ≥ 0.8\\)'
    )
  })

  test('says why there is no split when the run has no max_prob', () => {
    const md = render({ ...churn, margin: null, margin_reason: 'run x has no max_prob on the baseline', sentence: 'moved 23 answers' })
    expect(md).toContain("moved 23 answers; no split by the baseline's margin: run x has no max\\_prob on the baseline")
    expect(md).not.toContain('sure:')
  })

  test('nothing moved, no direction, or a row that is not 0/1 keeps the plain cell and adds no sentence', () => {
    for (const d of [
      { ...churn, kind: 'none' as const, won: 0, lost: 0, sentence: 'moved no answers (200 answers paired)' },
      { kind: 'absent' as const, reason: 'f1 is not 0 or 1' },
      undefined
    ]) {
      const md = render(d)
      expect(md).not.toContain('Direction (information only')
      expect(md).not.toContain('moved')
      if (d?.kind !== 'none') expect(md).toContain('| +12 / -11 | 200 |')
    }
  })

  test('escapes the run name in the sentence', () => {
    const md = render(churn, '<img src=x onerror=alert(1)>:model=base')
    const line = md.split('\n').find(l => l.startsWith('- ') && l.includes('moved 23'))!
    expect(line).not.toContain('<img')
    expect(line).toContain('&lt;img')
  })

  test('p-values below 0.01 are not shown as 0.00', () => {
    expect(pValueText(0.004)).toBe('< 0.01')
    expect(pValueText(0.734)).toBe('0.73')
  })
})
