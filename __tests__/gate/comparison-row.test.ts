/** The one row builder (src/gate/comparison-row.ts) that the gate's comparisons and the traffic replay share. */
import { describe, expect, it } from '@jest/globals'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import { comparisonRow, MIN_BOOTSTRAP_UNITS, pairedDecision, type RowIdentity } from '../../src/gate/comparison-row.js'
import { estimatePaired } from '../../src/stats/index.js'

const statistics = { ...DEFAULT_STATISTICS, resamples: 2000 }
const identity: RowIdentity = {
  id: 'run | score |  | clean',
  run: 'run',
  entry: 'run',
  metric: 'score',
  split: null,
  perturbation: null,
  gated: true,
  direction: 'higher',
  unmatched: { baseline: 0, candidate: 0 },
  dropped: { baseline: 0, candidate: 0 },
  max_drop: 0.5,
  max_relative_drop: null
}
/** Continuous scores (a bootstrap interval), the candidate equal to the baseline. */
const clusters = (n: number): { baseline: number[]; candidate: number[] }[] =>
  Array.from({ length: n }, (_, i) => ({ baseline: [(i % 7) / 10 + 0.05], candidate: [(i % 7) / 10 + 0.05] }))

describe('comparisonRow', () => {
  it('takes the statistic, interval, flips and verdict from the estimate and the decision', () => {
    const estimate = estimatePaired(clusters(40), statistics)
    const decision = pairedDecision(estimate, identity.max_drop, 'higher', statistics)
    const row = comparisonRow(identity, estimate, decision, { reason: decision.reason, examples: [] })
    expect(row.verdict).toBe('pass')
    expect([row.n, row.wins, row.losses, row.unchanged]).toEqual([40, 0, 0, 40])
    expect(row.ci.method).toMatch(/bootstrap/)
    expect(row.delta).toBe(0)
    expect('worst_case' in row).toBe(false)
  })

  it('places the worst case after the interval, as every report lists it', () => {
    const estimate = estimatePaired(clusters(40), statistics)
    const decision = pairedDecision(estimate, identity.max_drop, 'higher', statistics)
    const worstCase = { imputed: { baseline: 0, candidate: 0 }, low: -0.1, high: 0.1, method: 'm', verdict: 'pass' as const }
    const keys = Object.keys(comparisonRow(identity, estimate, decision, { worstCase, reason: '', examples: [] }))
    expect(keys.slice(keys.indexOf('ci'), keys.indexOf('ci') + 3)).toEqual(['ci', 'worst_case', 'wins'])
  })

  it('never passes a bootstrap interval on fewer instances than the minimum, and names how many are needed', () => {
    const estimate = estimatePaired(clusters(MIN_BOOTSTRAP_UNITS - 1), statistics)
    const decision = pairedDecision(estimate, identity.max_drop, 'higher', statistics)
    expect(decision.verdict).toBe('inconclusive')
    expect(decision.nNeeded).toBe(MIN_BOOTSTRAP_UNITS)
  })
})
