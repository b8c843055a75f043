import { describe, expect, it } from '@jest/globals'
import type { MetricValue } from '../../src/model/harness.js'
import { pairValues, worstCase } from '../../src/gate/pairing.js'

const v = (instanceId: string, value: number | null, trial = 0, perturbation: string | null = null): MetricValue => ({
  instanceId,
  trainTrialIndex: trial,
  perturbation,
  value
})

describe('pairValues', () => {
  it('pairs by instance and trial regardless of row order, sorted by key', () => {
    const paired = pairValues([v('id2', 1), v('id1', 0)], [v('id1', 1), v('id2', 1)])
    expect(paired.clusterKeys).toEqual(['id1', 'id2'])
    expect(paired.clusters).toEqual([
      { baseline: [0], candidate: [1] },
      { baseline: [1], candidate: [1] }
    ])
    expect(paired.pairs).toBe(2)
    expect(paired.overlap).toBe(1)
  })

  it('groups trials of one instance into one cluster, in trial order', () => {
    const paired = pairValues(
      [v('a', 1, 2), v('a', 0, 0), v('a', 1, 1), v('b', 1, 0)],
      [v('a', 1, 0), v('a', 1, 1), v('a', 0, 2), v('b', 0, 0)]
    )
    expect(paired.clusters[0]).toEqual({ baseline: [0, 1, 1], candidate: [1, 1, 0] })
    expect(paired.trials[0]).toEqual([0, 1, 2])
    expect(paired.pairs).toBe(4)
    expect(paired.clusters).toHaveLength(2)
  })

  it('keeps perturbed variants apart from the clean instance', () => {
    const paired = pairValues([v('a', 1), v('a', 0, 0, 'mild_mix#')], [v('a', 1), v('a', 1, 0, 'mild_mix#')])
    expect(paired.clusters).toHaveLength(2)
  })

  it('counts unmatched keys per side and computes overlap against the larger side', () => {
    const paired = pairValues([v('a', 1), v('b', 1), v('c', 1), v('d', 1)], [v('a', 1), v('b', 0), v('e', 1)])
    expect(paired.unmatched).toEqual({ baseline: 2, candidate: 1 })
    expect(paired.overlap).toBe(0.5)
  })

  it('drops values that are not measurements and counts them per side', () => {
    const paired = pairValues([v('a', null), v('b', 1), v('c', 1)], [v('a', 1), v('b', null), v('c', 0)])
    expect(paired.dropped).toEqual({ baseline: 1, candidate: 1 })
    expect(paired.pairs).toBe(1)
    // a and b are measured on one side only: as good as missing for the overlap.
    expect(paired.oneSided).toBe(2)
    expect(paired.overlap).toBeCloseTo(1 / 3, 15)
  })

  it('does not count a key unmeasured on both sides against the overlap (the stat does not apply there)', () => {
    const paired = pairValues([v('a', null), v('b', 1)], [v('a', null), v('b', 0)])
    expect(paired.dropped).toEqual({ baseline: 1, candidate: 1 })
    expect(paired.oneSided).toBe(0)
    expect(paired.overlap).toBe(1)
  })
})

describe('worstCase', () => {
  it('takes the per-instance minimum over clean and perturbed variants for higher-is-better', () => {
    const b = [v('a', 1), v('a', 0, 0, 'p1'), v('b', 1), v('b', 1, 0, 'p1')]
    const c = [v('a', 1), v('a', 1, 0, 'p1'), v('b', 1), v('b', 0, 0, 'p1')]
    const worst = worstCase(b, c, 'higher')
    const byId = (list: MetricValue[]) => Object.fromEntries(list.map(x => [x.instanceId, x.value]))
    expect(byId(worst.baseline)).toEqual({ a: 0, b: 1 })
    expect(byId(worst.candidate)).toEqual({ a: 1, b: 0 })
  })

  it('takes the maximum for lower-is-better and ignores variants missing on one side', () => {
    const b = [v('a', 0.2), v('a', 0.9, 0, 'p1')]
    const c = [v('a', 0.3)]
    const worst = worstCase(b, c, 'lower')
    expect(worst.baseline[0].value).toBe(0.2)
    expect(worst.candidate[0].value).toBe(0.3)
  })
})
