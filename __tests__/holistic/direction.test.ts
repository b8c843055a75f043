// The direction of a change: flips, the sure/not-sure split, and McNemar's exact p-value against
// scipy.stats.binomtest in the HELM venv.
import { expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { changeDirection } from '../../src/holistic/direction.js'
import type { ProbabilityRecord } from '../../src/holistic/types.js'

const PYTHON = join(import.meta.dirname, '..', '..', '.venv', 'bin', 'python')

const rec = (i: number, correct: boolean, prob = 0.6, secondProb?: number): ProbabilityRecord => ({
  instanceId: `id${i}`,
  trainTrialIndex: 0,
  perturbation: null,
  prob,
  correct,
  ...(secondProb === undefined ? {} : { secondProb })
})

/** won pairs, then lost, then unchanged right ones; the first `sureLost` lost have a sure baseline. */
function sides(won: number, lost: number, same: number, sureLost = 0): [ProbabilityRecord[], ProbabilityRecord[]] {
  const base: ProbabilityRecord[] = []
  const cand: ProbabilityRecord[] = []
  let i = 0
  const add = (b: ProbabilityRecord, c: ProbabilityRecord): void => {
    base.push(b)
    cand.push(c)
    i++
  }
  for (let k = 0; k < won; k++) add(rec(i, false), rec(i, true))
  for (let k = 0; k < lost; k++) add(rec(i, true, k < sureLost ? 0.95 : 0.6), rec(i, false))
  for (let k = 0; k < same; k++) add(rec(i, true), rec(i, true))
  return [base, cand]
}

test('McNemar exact p-values equal scipy.stats.binomtest(won, won + lost, 0.5) two-sided', () => {
  const counts: [number, number][] = [
    [7, 7],
    [0, 5],
    [3, 12],
    [20, 9],
    [1, 0],
    [40, 61],
    [0, 30]
  ]
  const script = `import json,sys\nfrom scipy.stats import binomtest\nprint(json.dumps([binomtest(w, w + l, 0.5).pvalue for w, l in json.load(sys.stdin)]))`
  const scipy = JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(counts), encoding: 'utf8' })) as number[]
  counts.forEach(([won, lost], i) => {
    const summary = changeDirection(...sides(won, lost, 10))
    expect(summary.won).toBe(won)
    expect(summary.lost).toBe(lost)
    expect(Math.abs(summary.p - scipy[i])).toBeLessThan(1e-12)
  })
})

test('many answers moved both ways is churn, not a drop, even with no change in accuracy', () => {
  const summary = changeDirection(...sides(7, 7, 30, 3))
  expect(summary.kind).toBe('churn')
  expect(summary.sentence).toBe(
    'moved 14 answers: 7 won, 7 lost (McNemar p = 1.00): churn, not a drop; 3 of the lost where the baseline was sure'
  )
  expect(summary.sure).toEqual({ won: 0, lost: 3 })
  expect(summary.unsure).toEqual({ won: 7, lost: 4 })
})

test('a lean at the 5% level is a drop or a gain; nothing moved says so', () => {
  expect(changeDirection(...sides(2, 14, 30)).kind).toBe('drop')
  expect(changeDirection(...sides(14, 2, 30)).kind).toBe('gain')
  const none = changeDirection(...sides(0, 0, 5))
  expect(none.kind).toBe('none')
  expect(none.sentence).toBe('moved no answers (5 answers paired)')
})

test('where top-2 probabilities exist the margin p1 - p2 decides sure, not p1', () => {
  // p1 = 0.9 but p2 = 0.5: margin 0.4 < 0.5, not sure; p1 = 0.7, p2 = 0.1: margin 0.6, sure.
  const base = [rec(0, true, 0.9, 0.5), rec(1, true, 0.7, 0.1)]
  const cand = [rec(0, false), rec(1, false)]
  const summary = changeDirection(base, cand)
  expect(summary.sure.lost).toBe(1)
  expect(summary.unsure.lost).toBe(1)
})

test('unpaired records are refused with the missing key', () => {
  const [base, cand] = sides(1, 1, 1)
  expect(() => changeDirection(base, cand.slice(1))).toThrow(/on the baseline but not on the candidate/)
})
