/**
 * Sequential verdicts. The simulation is a smaller, seeded copy of bench/sequential-study.mjs
 * (docs/method.md "Sequential verdicts"): 300 accuracy-like gates at the margin exactly, a look
 * every 25 of 500 instances. With 300 gates the standard error of a 2.5% rate is 0.9 points, so the
 * bound is 2.5% + 3 standard errors = 5.2%; the naive peeking rule measured in the same run
 * passes about 10% of them (the study's 2,000 gates: 11.6%), so the check can fail.
 */
import { describe, expect, it } from '@jest/globals'
import { UsageError } from '../../src/errors.js'
import { everyLooks } from '../../src/sequential/look-schedule.js'
import { decideLook, runSequentialGate, sequentialOrder } from '../../src/sequential/sequential-verdict.js'
import { createRandom } from '../../src/stats/random.js'
import { tangoInterval } from '../../src/stats/paired-proportions.js'

const GATES = 300
const N = 500
const MARGIN = 0.02
const FLIPS = 0.12
const LIMIT = 0.025 + 3 * Math.sqrt((0.025 * 0.975) / GATES)

/** Independent 0/1 pairs: a loss (-1), a win (+1) or concordant (0), mean difference -drop. */
function gateData(random: ReturnType<typeof createRandom>, drop: number): number[] {
  const loss = (FLIPS + drop) / 2
  const win = (FLIPS - drop) / 2
  return Array.from({ length: N }, () => {
    const u = random.double()
    return u < loss ? -1 : u < loss + win ? 1 : 0
  })
}

function naivePasses(diffs: number[], looks: number[]): boolean {
  for (const n of looks) {
    const part = diffs.slice(0, n)
    const wins = part.filter(d => d > 0).length
    const losses = part.filter(d => d < 0).length
    const [low, high] = tangoInterval({ both: 0, wins, losses, neither: n - wins - losses }, 0.95)
    if (high < -MARGIN) return false
    if (low > -MARGIN) return true
  }
  return false
}

describe('decideLook', () => {
  it('passes above -margin, fails below it, continues or is inconclusive across it', () => {
    expect(decideLook({ low: -0.01, high: 0.03 }, 0.02, false)).toBe('pass')
    expect(decideLook({ low: -0.09, high: -0.03 }, 0.02, false)).toBe('fail')
    expect(decideLook({ low: -0.03, high: 0.01 }, 0.02, false)).toBe('continue')
    expect(decideLook({ low: -0.03, high: 0.01 }, 0.02, true)).toBe('inconclusive')
    // An interval touching -margin rules nothing out.
    expect(decideLook({ low: -0.02, high: 0.01 }, 0.02, false)).toBe('continue')
  })

  it('refuses a negative margin', () => {
    expect(() => decideLook({ low: 0, high: 0 }, -0.1, false)).toThrow(UsageError)
  })
})

describe('runSequentialGate', () => {
  const schedule = everyLooks(25, N)

  it('keeps the false-pass rate at the margin under 2.5% plus simulation error, where naive peeking does not', () => {
    const random = createRandom(11, 'sequential-test')
    let passes = 0
    let naive = 0
    let covered = 0
    for (let g = 0; g < GATES; g++) {
      const diffs = gateData(random, MARGIN)
      const out = runSequentialGate(diffs, schedule, MARGIN)
      if (out.verdict === 'pass') passes++
      if (out.interval.low <= -MARGIN && -MARGIN <= out.interval.high) covered++
      if (naivePasses(diffs, schedule.looks)) naive++
    }
    expect(passes / GATES).toBeLessThanOrEqual(LIMIT)
    expect(naive / GATES).toBeGreaterThan(LIMIT)
    // The sequence holds the truth at the stop in at least 95% of gates (minus simulation error).
    expect(covered / GATES).toBeGreaterThanOrEqual(0.95 - 3 * Math.sqrt((0.05 * 0.95) / GATES))
  })

  it('keeps the false-pass rate of a frozen set, measured in seeded orders, under the bound', () => {
    // 35 losses and 25 wins of 500: the set's own mean difference is exactly -0.02.
    const frozen = Array.from({ length: N }, (_, i) => (i < 35 ? -1 : i < 60 ? 1 : 0))
    let passes = 0
    for (let g = 0; g < GATES; g++) {
      const diffs = sequentialOrder(N, 1000 + g).map(i => frozen[i])
      if (runSequentialGate(diffs, schedule, MARGIN, { population: N }).verdict === 'pass') passes++
    }
    expect(passes / GATES).toBeLessThanOrEqual(LIMIT)
  })

  it('stops early on a clear case and spends the budget on an unclear one', () => {
    const clear = runSequentialGate(new Array<number>(N).fill(0), schedule, 0.05)
    expect(clear.verdict).toBe('pass')
    expect(clear.stoppedAt).toBeLessThan(N / 2)
    const worse = runSequentialGate(
      Array.from({ length: N }, (_, i) => (i % 5 === 0 ? -1 : 0)),
      schedule,
      0.05
    )
    expect(worse.verdict).toBe('fail')
    expect(worse.stoppedAt).toBeLessThan(N)
    const atMargin = runSequentialGate(
      Array.from({ length: N }, (_, i) => (i % 10 === 0 ? -1 : i % 10 === 1 ? 1 : i % 50 === 2 ? -1 : 0)),
      schedule,
      0.02
    )
    expect(atMargin.verdict).toBe('inconclusive')
    expect(atMargin.stoppedAt).toBe(N)
  })

  it('traces nested intervals, one per look, and decides as the intervals say', () => {
    const random = createRandom(3, 'sequential-trace')
    const diffs = gateData(random, 0)
    const out = runSequentialGate(diffs, schedule, 0.05, { trace: true })
    for (let k = 1; k < out.looks.length; k++) {
      const before = out.looks[k - 1].interval!
      const now = out.looks[k].interval!
      expect(now.low).toBeGreaterThanOrEqual(before.low)
      expect(now.high).toBeLessThanOrEqual(before.high)
    }
    for (const look of out.looks) {
      const atBudget = look.n === N
      const fromInterval = decideLook(look.interval!, 0.05, atBudget)
      // The bisected bound rounds towards the inside, so it may sit a hair below -margin at a pass.
      if (fromInterval !== look.decision) expect(Math.abs(look.interval!.low + 0.05)).toBeLessThan(1e-9)
    }
  })

  it('refuses too few differences for the budget', () => {
    expect(() => runSequentialGate([0, 0], { looks: [2, 4], budget: 4 }, 0.02)).toThrow(/budget needs 4/)
  })
})

describe('sequentialOrder', () => {
  it('is a seeded permutation', () => {
    const order = sequentialOrder(100, 7)
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i))
    expect(sequentialOrder(100, 7)).toEqual(order)
    expect(sequentialOrder(100, 8)).not.toEqual(order)
  })
})
