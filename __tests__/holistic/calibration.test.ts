// Known truths for the paired calibration check: simulated sides whose calibration is set by
// construction.
import { expect, test } from '@jest/globals'
import { checkCalibration, pairedCalibration } from '../../src/holistic/calibration.js'
import type { ProbabilityRecord } from '../../src/holistic/types.js'
import { createRandom, type Random } from '../../src/stats/random.js'

const record = (i: number, prob: number, correct: boolean, trainTrialIndex = 0): ProbabilityRecord => ({
  instanceId: `id${i}`,
  trainTrialIndex,
  perturbation: null,
  prob,
  correct
})

/** n instances whose true chance of being right is q_i, drawn calibrated (prob = q_i). */
function calibratedSide(q: readonly number[], rng: Random): ProbabilityRecord[] {
  return q.map((p, i) => record(i, p, rng.double() < p))
}

const chances = (n: number, rng: Random): number[] => Array.from({ length: n }, () => 0.3 + 0.7 * rng.double())

test('exactly as accurate but over-confident: the calibration check fails, accuracy is unchanged', () => {
  const rng = createRandom(1, 'over-confident')
  const baseline = calibratedSide(chances(400, rng), rng)
  // The same answers, right and wrong on the same instances, each said with 0.99.
  const candidate = baseline.map(r => ({ ...r, prob: 0.99 }))
  const accuracy = (side: ProbabilityRecord[]): number => side.filter(r => r.correct).length / side.length
  expect(accuracy(candidate)).toBe(accuracy(baseline))
  for (const metric of ['ece', 'brier'] as const) {
    const decision = checkCalibration(baseline, candidate, { metric, max_increase: 0.02 }, { resamples: 500 })
    expect(decision.verdict).toBe('fail')
    expect(decision.estimate?.ci.low).toBeGreaterThan(0.02)
  }
})

test('a perfectly calibrated pair passes the ECE and Brier checks', () => {
  const rng = createRandom(2, 'calibrated')
  const q = chances(5000, rng)
  const baseline = calibratedSide(q, rng)
  const candidate = calibratedSide(q, rng)
  for (const metric of ['ece', 'brier'] as const) {
    const decision = checkCalibration(baseline, candidate, { metric, max_increase: 0.02 }, { resamples: 300 })
    expect(decision.verdict).toBe('pass')
    expect(decision.estimate?.ci.high).toBeLessThan(0.02)
  }
})

test('a small sample straddles the tolerance: inconclusive with more instances needed', () => {
  const rng = createRandom(3, 'small')
  const q = chances(40, rng)
  const decision = checkCalibration(
    calibratedSide(q, rng),
    calibratedSide(q, rng),
    { metric: 'ece', max_increase: 0.02 },
    { resamples: 300 }
  )
  expect(decision.verdict).toBe('inconclusive')
  expect(decision.nNeeded).toBeGreaterThan(40)
})

test('the Brier interval covers the true difference at about its nominal rate (cluster bootstrap, 3 trials per instance)', () => {
  const rng = createRandom(4, 'coverage')
  const n = 60
  const q = chances(n, rng)
  // The candidate states q + 0.1 (capped): its expected Brier per instance is
  // q (1 - s)^2 + (1 - q) s^2, the baseline's q (1 - q).
  const stated = q.map(p => Math.min(0.99, p + 0.1))
  const truth = q.reduce((t, p, i) => t + p * (1 - stated[i]) ** 2 + (1 - p) * stated[i] ** 2 - p * (1 - p), 0) / n
  const simulations = 300
  let covered = 0
  for (let s = 0; s < simulations; s++) {
    const baseline: ProbabilityRecord[] = []
    const candidate: ProbabilityRecord[] = []
    // The trials of one instance share its chance q_i; the truth is conditional on q.
    for (let i = 0; i < n; i++) {
      for (let t = 0; t < 3; t++) {
        baseline.push(record(i, q[i], rng.double() < q[i], t))
        candidate.push(record(i, stated[i], rng.double() < q[i], t))
      }
    }
    const est = pairedCalibration(baseline, candidate, 'brier', { resamples: 400, seed: s })
    if (est.ci.low <= truth && truth <= est.ci.high) covered++
  }
  const rate = covered / simulations
  expect(rate).toBeGreaterThan(0.9)
  expect(rate).toBeLessThan(0.99)
})

test('missing, out-of-range or unpaired probabilities give an error verdict, never a pass', () => {
  const side = Array.from({ length: 30 }, (_, i) => record(i, 0.7, i % 3 !== 0))
  const check = { metric: 'ece' as const, max_increase: 0.02 }
  const cases: [ProbabilityRecord[], ProbabilityRecord[], RegExp][] = [
    [side, side.map((r, i) => (i === 4 ? { ...r, prob: NaN } : r)), /no probability.*field: candidate\[4\]\.prob/],
    [side, side.map((r, i) => (i === 5 ? { ...r, prob: 1.2 } : r)), /outside \[0, 1\].*field: candidate\[5\]\.prob, value: 1\.2/],
    [side, side.slice(1), /on the baseline but not on the candidate.*id0/],
    [[], [], /Neither side/]
  ]
  for (const [baseline, candidate, reason] of cases) {
    const decision = checkCalibration(baseline, candidate, check)
    expect(decision.verdict).toBe('error')
    expect(decision.reason).toMatch(reason)
  }
  expect(() => checkCalibration(side, side, { metric: 'ece', max_increase: -1 })).toThrow(/tolerated increase/)
  expect(() => checkCalibration(side, side, check, { resamples: 10 })).toThrow(/at least 40/)
})

test('fewer than 20 instances never pass, however narrow the interval', () => {
  // Identical sides: the interval is [0, 0], below any tolerance, yet 19 instances cannot pass.
  const few = Array.from({ length: 19 }, (_, i) => record(i, 0.7, i % 3 !== 0))
  const decision = checkCalibration(few, few, { metric: 'brier', max_increase: 0.02 }, { resamples: 100 })
  expect(decision.estimate?.ci.high).toBe(0)
  expect(decision.verdict).toBe('inconclusive')
  expect(decision.nNeeded).toBe(20)
  const enough = Array.from({ length: 20 }, (_, i) => record(i, 0.7, i % 3 !== 0))
  expect(checkCalibration(enough, enough, { metric: 'brier', max_increase: 0.02 }, { resamples: 100 }).verdict).toBe('pass')
})
