// The direction of one comparison row: won and lost counted from the paired 0/1 values, split by
// the baseline's max_prob where it is known, and absent or unsplit with a reason where it is not.
import { describe, expect, test } from '@jest/globals'
import { changeDirection, directionOfFlips, SURE_PROB } from '../../src/holistic/direction.js'
import { baselineMargins, rowDirection, type BaselineMargins, type PairedInstance } from '../../src/holistic/row-direction.js'
import type { ProbabilityRecord } from '../../src/holistic/types.js'
import type { MetricValue, UnitValues } from '../../src/model/harness.js'

/** A side whose values of each metric are given per instance (clean, trial 0). */
function side(metrics: Record<string, (number | null)[]>): UnitValues {
  return {
    perInstanceStatsFile: '/runs/x/per_instance_stats.json',
    scenarioStateFile: null,
    requestStates: null,
    metricNames: () => Object.keys(metrics),
    splits: () => ['test'],
    values: (metric: string): MetricValue[] =>
      (metrics[metric] ?? []).map((value, i) => ({ instanceId: `id${i}`, trainTrialIndex: 0, perturbation: null, value }))
  }
}

const instances = (baseline: number[], candidate: number[]): PairedInstance[] =>
  baseline.map((b, i) => ({ instanceId: `id${i}`, perturbation: null, trials: [0], baseline: [b], candidate: [candidate[i]] }))

const binary = (margins: BaselineMargins) => ({ metric: 'exact_match', binary: true, higherIsBetter: true, margins })

describe('rowDirection', () => {
  // id0..id3 won, id4..id7 lost, id8..id9 unchanged; the baseline was sure of id0, id4 and id5.
  const base = [0, 0, 0, 0, 1, 1, 1, 1, 1, 0]
  const cand = [1, 1, 1, 1, 0, 0, 0, 0, 1, 0]
  const probs = [0.9, 0.3, 0.5, 0.6, 0.95, SURE_PROB, 0.79, 0.4, 0.99, 0.2]

  test('counts won and lost by the baseline margin, and agrees with changeDirection on the same records', () => {
    const margins = baselineMargins('run', side({ max_prob: probs }), 'test')
    const d = rowDirection(binary(margins), instances(base, cand))
    expect(d).toMatchObject({
      kind: 'churn',
      pairs: 10,
      won: 4,
      lost: 4,
      margin: { by: 'max_prob', sure_at: SURE_PROB, sure: { won: 1, lost: 2 }, unsure: { won: 3, lost: 2 } },
      margin_reason: null
    })
    const rec = (correct: number[], i: number): ProbabilityRecord => ({
      instanceId: `id${i}`,
      trainTrialIndex: 0,
      perturbation: null,
      prob: probs[i],
      correct: correct[i] === 1
    })
    const reference = changeDirection(
      base.map((_, i) => rec(base, i)),
      cand.map((_, i) => rec(cand, i))
    )
    if (d.kind === 'absent') throw new Error('expected a direction')
    expect([d.won, d.lost, d.p_value, d.sentence]).toEqual([reference.won, reference.lost, reference.p, reference.sentence])
    expect(d.margin?.sure).toEqual(reference.sure)
  })

  test('a lower-is-better 0/1 metric wins when the value falls', () => {
    const d = rowDirection({ ...binary({ reason: 'none' }), higherIsBetter: false }, instances([1, 1, 0], [0, 0, 0]))
    expect(d).toMatchObject({ won: 2, lost: 0 })
  })

  test('without max_prob the split is absent with the reason, and the sentence says nothing of it', () => {
    const margins = baselineMargins('run', side({ exact_match: base }), 'test')
    expect(margins).toEqual({ reason: expect.stringContaining('run run has no max_prob on the baseline') })
    const d = rowDirection(binary(margins), instances(base, cand))
    expect(d).toMatchObject({ kind: 'churn', won: 4, lost: 4, margin: null })
    if (d.kind === 'absent') throw new Error('expected a direction')
    expect(d.margin_reason).toContain('no max_prob')
    expect(d.sentence).toBe('moved 8 answers: 4 won, 4 lost (McNemar p = 1.00): churn, not a drop')
  })

  test.each([
    ['every max_prob 1', [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 'every max_prob of the baseline is 1'],
    ['a max_prob above 1', [0.5, 1.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], 'instance id1 (trial 0) is 1.5, outside [0, 1]']
  ])('%s gives no split, never a made-up one', (_, max, reason) => {
    const d = rowDirection(binary(baselineMargins('run', side({ max_prob: max }), 'test')), instances(base, cand))
    expect(d).toMatchObject({ margin: null, margin_reason: expect.stringContaining(reason) })
  })

  test('a flipped answer without a baseline max_prob leaves the split out and names it', () => {
    const partial = probs.map((p, i) => (i === 5 ? null : p))
    const d = rowDirection(binary(baselineMargins('run', side({ max_prob: partial }), 'test')), instances(base, cand))
    expect(d).toMatchObject({
      won: 4,
      lost: 4,
      margin: null,
      margin_reason: '1 of the flipped answers have no max_prob on the baseline (instance id5 first)'
    })
  })

  test('a metric that is not 0/1 per instance has no direction, with the reason', () => {
    const d = rowDirection({ ...binary({ reason: 'x' }), metric: 'f1_score', binary: false }, instances([0.5], [1]))
    expect(d).toEqual({ kind: 'absent', reason: 'f1_score is not 0 or 1 on every instance, so no answer is simply won or lost' })
  })

  test('a lean at 5% is a drop or a gain by its sign, nothing moved is none', () => {
    const lost = instances(new Array(12).fill(1), new Array(12).fill(0))
    expect(rowDirection(binary({ reason: 'x' }), lost)).toMatchObject({ kind: 'drop', won: 0, lost: 12 })
    const won = instances(new Array(12).fill(0), new Array(12).fill(1))
    expect(rowDirection(binary({ reason: 'x' }), won)).toMatchObject({ kind: 'gain', won: 12, lost: 0 })
    expect(rowDirection(binary({ reason: 'x' }), instances([1, 0], [1, 0]))).toMatchObject({
      kind: 'none',
      sentence: 'moved no answers (2 answers paired)'
    })
  })

  test('trials and perturbations are looked up by their own key', () => {
    const values: MetricValue[] = [
      { instanceId: 'a', trainTrialIndex: 0, perturbation: null, value: 0.9 },
      { instanceId: 'a', trainTrialIndex: 1, perturbation: null, value: 0.1 },
      { instanceId: 'a', trainTrialIndex: 0, perturbation: 'typos', value: 0.2 }
    ]
    const unit: UnitValues = { ...side({}), values: metric => (metric === 'max_prob' ? values : []) }
    const margins = baselineMargins('run', unit, 'test')
    const clean: PairedInstance = { instanceId: 'a', perturbation: null, trials: [0, 1], baseline: [1, 1], candidate: [0, 0] }
    expect(rowDirection(binary(margins), [clean])).toMatchObject({ margin: { sure: { lost: 1 }, unsure: { lost: 1 } } })
    const typos: PairedInstance = { instanceId: 'a', perturbation: 'typos', trials: [0], baseline: [1], candidate: [0] }
    expect(rowDirection(binary(margins), [typos])).toMatchObject({ margin: { sure: { lost: 0 }, unsure: { lost: 1 } } })
  })
})

test('directionOfFlips without a margin split leaves the sure count out of the sentence', () => {
  expect(directionOfFlips(20, { won: 2, lost: 9 }, null).sentence).toBe(
    'moved 11 answers: 2 won, 9 lost (McNemar p = 0.07): churn, not a drop'
  )
})
