/**
 * `helm-gate run`'s advice for an inconclusive comparison, in the units of the setting it names.
 * HELM draws max_eval_instances from all evaluation splits together, so a comparison of `test`
 * gets only its share; the advice must scale the budget by that share and never propose a cut.
 * (The same on a real run with uneven splits: __tests__/e2e/budget-advice.test.ts.)
 */
import { describe, expect, test } from '@jest/globals'
import { budgetAdvice } from '../../src/cli/commands/run.js'
import { makeComparison, makeReport } from '../report/make-report.js'

const inconclusive = (n: number, needed: number | null) =>
  makeReport({
    verdict: 'inconclusive',
    comparisons: [makeComparison({ run: 'sr', metric: 'exact_match', verdict: 'inconclusive', n, n_needed: needed })]
  })

describe('budgetAdvice', () => {
  test('32 of 60 instances fell in test and 37 are needed: raise 60 to about 70, not "to at least 37"', () => {
    const advice = budgetAdvice(inconclusive(32, 37), 60)
    expect(advice).toContain(
      'sr exact_match: about 37 instances needed in test (now 32); HELM spreads helm.max_eval_instances over all evaluation splits and 32 of 60 fell in test, so raise it from 60 to about 70'
    )
    expect(advice).not.toContain('at least 37')
  })

  test.each([
    [32, 37, 60],
    [99, 150, 200],
    [5, 9, 10],
    [59, 60, 60]
  ])('n = %i, needed %i, budget %i: the proposed budget is above the current one', (n, needed, current) => {
    const proposed = Number(/to (?:about|at least) (\d+)/.exec(budgetAdvice(inconclusive(n, needed), current))?.[1])
    expect(proposed).toBeGreaterThan(current)
    // Enough for the split's share of the larger budget to reach what is needed.
    expect((proposed * n) / current).toBeGreaterThanOrEqual(needed)
  })

  test('the whole budget in the split: the needed count is the budget', () => {
    expect(budgetAdvice(inconclusive(60, 90), 60)).toContain('raise helm.max_eval_instances from 60 to at least 90')
  })

  test('no budget set, and a drop already at the margin', () => {
    expect(budgetAdvice(inconclusive(40, 90), null)).toContain('raise helm.max_eval_instances until about 90 instances fall in test')
    expect(budgetAdvice(inconclusive(40, null), 60)).toContain('more instances will not make it pass')
  })
})
