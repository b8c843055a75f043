/**
 * The advice after an inconclusive comparison: raise the instance budget, unless the run already
 * had every instance its data holds (fewer than the budget), where a higher budget changes nothing.
 */
import { describe, expect, it } from '@jest/globals'
import { budgetAdvice } from '../../src/cli/commands/run.js'
import { makeComparison, makeReport } from '../report/make-report.js'

const inconclusive = (n: number, needed: number | null) =>
  makeReport({ comparisons: [makeComparison({ verdict: 'inconclusive', gated: true, n, n_needed: needed })] })

describe('budgetAdvice', () => {
  it('asks for a higher max_eval_instances when the budget limited the run', () => {
    expect(budgetAdvice(inconclusive(200, 297), 200)).toContain('raise helm.max_eval_instances from 200 to at least 297')
  })

  it('points to the data, never to a budget below the current one, when the run had fewer instances than the budget', () => {
    // 32 of 60 instances fell in the test split; about 37 would resolve it.
    const advice = budgetAdvice(inconclusive(32, 37), 60)
    expect(advice).not.toContain('raise helm.max_eval_instances')
    expect(advice).toContain(
      "about 37 instances needed (now 32, all the run had: helm.max_eval_instances is already 60); more must come from the scenario's data"
    )
  })

  it('says nothing for decided comparisons', () => {
    expect(budgetAdvice(makeReport(), 100)).toBe('')
  })
})
