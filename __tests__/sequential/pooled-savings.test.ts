import { describe, expect, it } from '@jest/globals'
import { UsageError } from '../../src/errors.js'
import { pairedSequenceInterval } from '../../src/sequential/confidence-sequence.js'
import type { GateConfig } from '../../src/config/types.js'
import {
  fixedAtBudget,
  pooledDifferences,
  pooledSavings,
  replayOrder,
  savingsNote,
  shardReplayNotes
} from '../../src/sequential/pooled-savings.js'
import { runStagedGate, type StageReading } from '../../src/sequential/staged-gate.js'
import { planStages } from '../../src/sequential/stages.js'

const LOOKS = { looks: [50, 100, 200], budget: 400 }
const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `id${i}`)

/**
 * The first look whose interval (the bisected bound, another route than the capital test the
 * gate decides by) excludes -margin, or null: where a correct replay must stop.
 */
function firstExcluding(diffs: number[], margin: number, population?: number): number | null {
  for (const n of [50, 100, 200, 400]) {
    const { low, high } = pairedSequenceInterval(diffs.slice(0, n), { alpha: 0.05, population, horizon: 400 })
    if (low > -margin || high < -margin) return n
  }
  return null
}

describe('pooledSavings', () => {
  it('stops a clearly benign pool early: equal sides, a tolerated drop of 0.1', () => {
    const diffs = new Array<number>(400).fill(0)
    const s = pooledSavings({ diffs, schedule: LOOKS, margin: 0.1, alpha: 0.05, population: 400 })
    expect(s.decision).toBe('pass')
    expect(s.certain).toBe(true)
    expect(s.stoppedAt).toBe(firstExcluding(diffs, 0.1, 400))
    expect(s.stoppedAt).toBeLessThan(400)
    expect(s.instancesSaved).toBe(400 - s.stoppedAt)
    expect(s.requestsFixed).toBe(800)
    // Each stage asks its first instances again: the looks up to the stop, on both sides.
    expect(s.requestsStaged).toBe(2 * [50, 100, 200].filter(n => n <= s.stoppedAt).reduce((a, b) => a + b, 0))
    expect(s.looks.at(-1)).toMatchObject({ n: s.stoppedAt, decision: 'pass' })
    expect(s.looks.at(-1)!.low).toBeGreaterThan(-0.1)
    expect(s.looks.slice(0, -1).every(look => look.decision === 'continue' && look.low <= -0.1)).toBe(true)
  })

  it('fails a candidate wrong on every instance the baseline got right at the first look', () => {
    const s = pooledSavings({ diffs: new Array<number>(400).fill(-1), schedule: LOOKS, margin: 0.05, alpha: 0.05, population: 400 })
    expect(s).toMatchObject({ decision: 'fail', certain: true, stoppedAt: 50, instancesSaved: 350, requestsStaged: 100 })
  })

  it('does not decide a pool whose mean is exactly at the margin before the budget, and says the stages cost more', () => {
    // Every tenth instance lost: a mean of exactly -0.1 at every look, the margin itself.
    const diffs = Array.from({ length: 400 }, (_, i) => (i % 10 === 9 ? -1 : 0))
    const s = pooledSavings({ diffs, schedule: LOOKS, margin: 0.1, alpha: 0.05, population: 400 })
    expect(s).toMatchObject({ decision: 'inconclusive', certain: false, stoppedAt: 400, instancesSaved: 0 })
    expect(s.looks.map(look => look.decision)).toEqual(['continue', 'continue', 'continue', 'inconclusive'])
    // At n = N the without-replacement interval is the exact mean: -0.1, on the margin.
    expect(s.looks[3].low).toBeCloseTo(-0.1, 9)
    expect(s.requestsStaged).toBe(2 * (50 + 100 + 200 + 400))
    expect(s.requestsStaged).toBeGreaterThan(s.requestsFixed)
  })

  it('refuses a pool shorter than the budget and a schedule that does not increase', () => {
    expect(() => pooledSavings({ diffs: [0, 0], schedule: LOOKS, margin: 0.1, alpha: 0.05 })).toThrow(UsageError)
    expect(() =>
      pooledSavings({ diffs: new Array(400).fill(0), schedule: { looks: [100, 50], budget: 400 }, margin: 0.1, alpha: 0.05 })
    ).toThrow(/increase/)
  })
})

/** Per-instance values of both sides as the staged runs read them: stage k holds the first look_k ids. */
function stagesOver(baseline: (i: number) => number, candidate: (i: number) => number) {
  const held = ids(400)
  const values = (f: (i: number) => number) => new Map(held.map((id, i) => [id, f(i)]))
  const maps = { baseline: values(baseline), candidate: values(candidate) }
  const looks = [50, 100, 200, 400]
  const runStage = async (index: number, entries: readonly string[]): Promise<StageReading> =>
    new Map(
      entries.map(entry => {
        const stage = held.slice(0, looks[index - 1])
        return [
          entry,
          {
            baseline: { ids: stage, values: new Map([['runs[0]', maps.baseline]]) },
            candidate: { ids: stage, values: new Map([['runs[0]', maps.candidate]]) }
          }
        ]
      })
    )
  return { held, maps, runStage }
}

describe('the replay over a fixed run is the staged decision on the same data', () => {
  const cases: Array<[string, (i: number) => number, (i: number) => number, number, 'higher' | 'lower', number]> = [
    ['equal sides', i => (i % 4 === 0 ? 0 : 1), i => (i % 4 === 0 ? 0 : 1), 0.05, 'higher', 0],
    ['a small drop', i => (i % 3 === 0 ? 0 : 1), i => (i % 3 === 0 || i % 17 === 0 ? 0 : 1), 0.05, 'higher', 7],
    ['noise near the margin', i => (i * 7919) % 2, i => ((i * 104729) % 7 < 3 ? 1 : 0), 0.08, 'higher', 3],
    ['a rise where lower is better', i => (i % 5 === 0 ? 1 : 0), i => (i % 5 === 0 || i % 2 === 0 ? 1 : 0), 0.1, 'lower', 11]
  ]

  it.each(cases)('%s', async (_, baseline, candidate, margin, direction, seed) => {
    // N = 500 above the budget: HELM's listing of the fixed run is its draw order, stage k its first look_k.
    const plan = planStages({ entry: 'e', evalInstances: 500, comparedInstances: 500 }, LOOKS)
    const { held, maps, runStage } = stagesOver(baseline, candidate)
    const staged = await runStagedGate({
      plans: [plan],
      checks: [{ key: 'runs[0]', entry: 'e', metric: 'exact_match', margin, direction }],
      alpha: 0.05,
      seed,
      runStage
    })
    const order = replayOrder(plan, held, seed)
    expect(order.staged).toBe(true)
    const diffs = pooledDifferences(order.ids, maps, direction, 'runs[0]')
    const replay = pooledSavings({ diffs, schedule: plan.schedule, margin, alpha: 0.05, population: 500 })
    const [check] = staged.checks
    expect({
      decision: replay.decision,
      certain: replay.certain,
      stoppedAt: replay.stoppedAt,
      looks: replay.looks,
      requests: replay.requestsStaged,
      fixed: replay.requestsFixed
    }).toEqual({
      decision: check.decision,
      certain: check.certain,
      stoppedAt: check.stoppedAt,
      looks: check.looks,
      requests: check.requestsSpent,
      fixed: check.requestsFixed
    })
  })

  it('covers stops at different looks, so the order of the later stages matters', async () => {
    const stops = new Set<number>()
    for (const [, baseline, candidate, margin, direction, seed] of cases) {
      const plan = planStages({ entry: 'e', evalInstances: 500, comparedInstances: 500 }, LOOKS)
      const { held, maps } = stagesOver(baseline, candidate)
      const diffs = pooledDifferences(replayOrder(plan, held, seed).ids, maps, direction, 'runs[0]')
      stops.add(pooledSavings({ diffs, schedule: plan.schedule, margin, alpha: 0.05, population: 500 }).stoppedAt)
    }
    expect(stops.size).toBeGreaterThan(1)
  })
})

describe('replayOrder and pooledDifferences', () => {
  it('takes a seeded permutation when the budget is every instance, HELM then listing the data order', () => {
    const plan = planStages({ entry: 'e', evalInstances: 400, comparedInstances: 400 }, LOOKS)
    const order = replayOrder(plan, ids(400), 5)
    expect(order.staged).toBe(false)
    expect([...order.ids].sort()).toEqual([...ids(400)].sort())
    expect(order.ids).not.toEqual(ids(400))
    expect(replayOrder(plan, [...ids(400)].reverse(), 5).ids).toEqual(order.ids)
  })

  it('refuses a pool of another size than the budget, or with an instance twice', () => {
    const plan = planStages({ entry: 'e', evalInstances: 500, comparedInstances: 500 }, LOOKS)
    expect(() => replayOrder(plan, ids(399), 0)).toThrow(/not the budget's 400/)
    expect(() => replayOrder(plan, [...ids(399), 'id0'], 0)).toThrow(/399 distinct instances in 400/)
  })

  it('refuses a missing or unbounded value, naming the instance and the check', () => {
    const sides = { baseline: new Map([['a', 1]]), candidate: new Map([['a', 0]]) }
    expect(pooledDifferences(['a'], sides, 'higher', 'runs[2]')).toEqual([-1])
    expect(pooledDifferences(['a'], sides, 'lower', 'runs[2]')).toEqual([1])
    let missing: UsageError | undefined
    try {
      pooledDifferences(['a', 'b'], sides, 'higher', 'runs[2]')
    } catch (error) {
      missing = error as UsageError
    }
    expect(missing).toBeInstanceOf(UsageError)
    expect(missing?.message).toBe('Instance b has no value on the candidate: a replayed sequence needs a value in [0, 1] on both sides.')
    expect(missing?.location).toMatchObject({ field: 'runs[2]', value: 'b' })
    expect(() => pooledDifferences(['a'], { ...sides, baseline: new Map([['a', 3]]) }, 'higher', 'runs[2]')).toThrow(
      /the value 3 on the baseline/
    )
  })

  it('says in the note where it would have stopped and that the verdict is the fixed design', () => {
    const s = pooledSavings({ diffs: new Array<number>(400).fill(-1), schedule: LOOKS, margin: 0.05, alpha: 0.05, population: 500 })
    expect(savingsNote('mmlu exact_match', s, { ids: [], staged: true })).toBe(
      "Sequential replay of mmlu exact_match over the pooled shards in the staged order: would have stopped at n = 50 of 400 (fail, certain), 350 instances per side fewer; 100 instance requests in stages against the 800 spent. The verdict is the fixed design's."
    )
  })
})

describe('shardReplayNotes', () => {
  const settings = { looks: [50, 100, 200, 400], budget: 400, alpha: 0.05, seed: null }
  const run = (entry: string, metric: string, maxDrop: number) =>
    ({ entry, metric, maxDrop, direction: 'higher' }) as unknown as Parameters<typeof shardReplayNotes>[0]['runs'][number]
  const side = (values: Map<string, Map<string, number>>) => ({ ids: ids(400), values })
  const same = new Map(ids(400).map(id => [id, 1]))
  const worse = new Map(ids(400).map(id => [id, 0]))

  it('says per check where it would have stopped, and why a check cannot be replayed', () => {
    const reading: StageReading = new Map([
      ['a', { baseline: side(new Map([['runs[0]', same]])), candidate: side(new Map([['runs[0]', worse]])) }],
      ['b', { baseline: side(new Map()), candidate: side(new Map()) }]
    ])
    const notes = shardReplayNotes({ runs: [run('a', 'exact_match', 0.05), run('b', 'exact_match', 0.05)], settings, seed: 0, reading })
    expect(notes[0]).toBe(
      "Sequential replay of a exact_match over the pooled shards in a seeded order (the budget is every instance, so the stages cannot be told): would have stopped at n = 50 of 400 (fail, certain), 350 instances per side fewer; 100 instance requests in stages against the 800 spent. The verdict is the fixed design's."
    )
    expect(notes[1]).toBe(
      "Sequential replay of b exact_match over the pooled shards: not possible (the pooled runs hold no values of it). The verdict is the fixed design's."
    )
  })

  it('takes the staged order when N is known and above the budget, and refuses a pool above N', () => {
    const reading: StageReading = new Map([
      ['a', { baseline: side(new Map([['runs[0]', same]])), candidate: side(new Map([['runs[0]', worse]])) }]
    ])
    const runs = [run('a', 'exact_match', 0.05)]
    expect(shardReplayNotes({ runs, settings, seed: 0, reading, populations: new Map([['a', 500]]) })[0]).toContain('in the staged order')
    expect(shardReplayNotes({ runs, settings, seed: 0, reading, populations: new Map([['a', 300]]) })[0]).toMatch(
      /^Sequential replay of a exact_match over the pooled shards: not possible \(.*300 instances.*\)/
    )
  })
})

describe('fixedAtBudget', () => {
  const helm = { version: '0.5.16', maxEvalInstances: 200, numTrainTrials: 1, numThreads: 1, timeoutMinutes: 60, command: 'helm-run' }
  const config = {
    version: 1,
    source: 'gate.yml',
    helm,
    deployments: null,
    runs: [],
    statistics: {} as GateConfig['statistics'],
    stopping: { looks: [20, 40, 79], budget: 79, alpha: 0.05, seed: null }
  } satisfies GateConfig

  it('runs one helm-run at the budget without stages, leaving the gate file as loaded', () => {
    const fixed = fixedAtBudget(config)
    expect(fixed.stopping).toBeNull()
    expect(fixed.helm).toEqual({ ...helm, maxEvalInstances: 79 })
    expect(fixed.runs).toBe(config.runs)
    expect(config.helm.maxEvalInstances).toBe(200)
    expect(config.stopping.budget).toBe(79)
  })

  it('keeps a fixed gate file as it is', () => {
    const plain = { ...config, stopping: null }
    expect(fixedAtBudget(plain)).toBe(plain)
  })
})
