// The calibration row of a paired unit, from the values a harness opened: the records it reads
// (max_prob beside exact_match) and the named errors of values that cannot be calibrated.
import { describe, expect, test } from '@jest/globals'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import { GateError } from '../../src/errors.js'
import { checkCalibration } from '../../src/holistic/calibration.js'
import { probabilityRecordsOf, unitCalibration } from '../../src/holistic/unit-calibration.js'
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

const STATS = { ...DEFAULT_STATISTICS, resamples: 400 }

describe('probabilityRecordsOf', () => {
  test('pairs each max_prob with its exact_match and skips unmeasured ones', () => {
    const records = probabilityRecordsOf('run', side({ max_prob: [0.9, null, 0.6], exact_match: [1, 0, 0] }), 'test')
    expect(records).toEqual([
      { instanceId: 'id0', trainTrialIndex: 0, perturbation: null, prob: 0.9, correct: true },
      { instanceId: 'id2', trainTrialIndex: 0, perturbation: null, prob: 0.6, correct: false }
    ])
  })

  test.each([
    ['no max_prob', { exact_match: [1, 0] }, 'holistic.no_probabilities', 'max_prob'],
    ['every max_prob 1 (no log-probabilities)', { max_prob: [1, 1], exact_match: [1, 0] }, 'holistic.no_probabilities', 'max_prob'],
    ['a max_prob without exact_match', { max_prob: [0.9, 0.8], exact_match: [1] }, 'holistic.no_exact_match', 'id1, trial 0, clean'],
    ['a fractional exact_match', { max_prob: [0.9, 0.8], exact_match: [1, 0.5] }, 'holistic.fractional_exact_match', 'id1, trial 0, clean'],
    ['a probability above 1', { max_prob: [0.9, 1.2], exact_match: [1, 0] }, 'holistic.bad_probability', 'id1, trial 0, clean']
  ])('%s is a named error', (_, metrics, code, field) => {
    let thrown: unknown
    try {
      probabilityRecordsOf('run', side(metrics), 'test')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(GateError)
    expect((thrown as GateError).code).toBe(code)
    expect((thrown as GateError).location).toMatchObject({ file: '/runs/x/per_instance_stats.json', field })
  })
})

describe('unitCalibration', () => {
  const n = 60
  const correct = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : 1))
  const calibrated = side({ max_prob: correct.map((_, i) => 0.6 + 0.1 * (i % 2)), exact_match: correct })
  const overConfident = side({ max_prob: correct.map(() => 0.99), exact_match: correct })

  test('is the paired check of both sides, with the gate settings', () => {
    const row = unitCalibration('run', { metric: 'ece', maxIncrease: 0.05 }, calibrated, overConfident, 'test', STATS)
    if (row instanceof GateError) throw row
    const direct = checkCalibration(
      probabilityRecordsOf('run', calibrated, 'test'),
      probabilityRecordsOf('run', overConfident, 'test'),
      { metric: 'ece', max_increase: 0.05 },
      { resamples: 400, seed: 0, confidence: 0.95 }
    )
    expect(row).toMatchObject({ run: 'run', metric: 'ece', split: 'test', gated: true, max_increase: 0.05, n })
    expect([row.verdict, row.delta, row.ci.low, row.ci.high]).toEqual([
      direct.verdict,
      direct.estimate!.delta,
      direct.estimate!.ci.low,
      direct.estimate!.ci.high
    ])
    expect(row.verdict).toBe('fail')
  })

  test('returns the error (never a row) when a side has no probabilities', () => {
    const none = side({ max_prob: correct.map(() => 1), exact_match: correct })
    const row = unitCalibration('run', { metric: 'brier', maxIncrease: 0.05 }, calibrated, none, 'test', STATS)
    expect(row).toBeInstanceOf(GateError)
    expect((row as GateError).code).toBe('holistic.no_probabilities')
  })
})
