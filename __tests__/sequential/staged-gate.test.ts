import { describe, expect, it } from '@jest/globals'
import { runStagedGate, type StageReading, type StagedCheck } from '../../src/sequential/staged-gate.js'
import { planStages, StagedRunError } from '../../src/sequential/stages.js'

const N = 400
const LOOKS = { looks: [50, 100, 200], budget: 400 }
const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `id${i}`)

/** A stage runner over fixed per-instance values: stage k holds the first look_k instances. */
function fakeStages(values: Record<string, { baseline: (i: number) => number; candidate: (i: number) => number }>) {
  const calls: Array<{ index: number; entries: string[] }> = []
  const looks = [50, 100, 200, 400]
  const runStage = async (index: number, entries: readonly string[]): Promise<StageReading> => {
    calls.push({ index, entries: [...entries] })
    const held = ids(looks[index - 1])
    const side = (entry: string, value: (i: number) => number) => ({
      ids: held,
      values: new Map([[`check:${entry}`, new Map(held.map((id, i) => [id, value(i)]))]])
    })
    return new Map(
      entries.map(entry => [entry, { baseline: side(entry, values[entry].baseline), candidate: side(entry, values[entry].candidate) }])
    )
  }
  return { calls, runStage }
}

const check = (entry: string, margin = 0.05): StagedCheck => ({
  key: `check:${entry}`,
  entry,
  metric: 'exact_match',
  margin,
  direction: 'higher'
})
const plan = (entry: string) => planStages({ entry, evalInstances: N, comparedInstances: N }, LOOKS)

describe('runStagedGate', () => {
  it('stops equal sides early with a pass and spends fewer requests than the fixed design', async () => {
    const same = (i: number): number => (i % 5 === 0 ? 0 : 1)
    const { calls, runStage } = fakeStages({ a: { baseline: same, candidate: same } })
    const outcome = await runStagedGate({ plans: [plan('a')], checks: [check('a', 0.1)], alpha: 0.05, seed: 0, runStage })
    const [stopped] = outcome.checks
    expect(stopped.decision).toBe('pass')
    expect(stopped.certain).toBe(true)
    expect(stopped.stoppedAt).toBeLessThan(400)
    expect(calls.length).toBe(outcome.lastStage.get('a'))
    expect(stopped.looks.at(-1)).toMatchObject({ n: stopped.stoppedAt, decision: 'pass' })
    expect(stopped.looks.at(-1)?.low).toBeGreaterThan(-0.1)
    expect(stopped.looks.slice(0, -1).every(look => look.decision === 'continue')).toBe(true)
    // Each stage asks its first instances again: the sum of the looks run, on both sides.
    const looksRun = [50, 100, 200, 400].slice(0, calls.length)
    expect(stopped.requestsSpent).toBe(2 * looksRun.reduce((a, b) => a + b, 0))
    expect(stopped.requestsFixed).toBe(800)
  })

  it('fails a much worse candidate at the first look and runs no later stage for it, while the other entry goes on', async () => {
    const right = (): number => 1
    const wrong = (): number => 0
    const coin = (i: number): number => (i * 7919) % 2
    const { calls, runStage } = fakeStages({
      worse: { baseline: right, candidate: wrong },
      noisy: { baseline: coin, candidate: (i: number) => ((i * 7919) % 3 === 0 ? 0 : 1) }
    })
    const outcome = await runStagedGate({
      plans: [plan('worse'), plan('noisy')],
      checks: [check('worse'), check('noisy', 0.0)],
      alpha: 0.05,
      seed: 3,
      runStage
    })
    const [worse, noisy] = outcome.checks
    expect(worse).toMatchObject({ decision: 'fail', certain: true, stoppedAt: 50 })
    expect(calls[0].entries).toEqual(['worse', 'noisy'])
    expect(calls.slice(1).every(call => !call.entries.includes('worse'))).toBe(true)
    expect(outcome.lastStage.get('worse')).toBe(1)
    expect(noisy.stoppedAt).toBeGreaterThan(50)
  })

  it('calls a check undecided at the budget inconclusive, not certain', async () => {
    // Differences of +-1 that cancel out: mean 0, right at a margin of 0.
    const flip = (i: number): number => i % 2
    const { calls, runStage } = fakeStages({ a: { baseline: flip, candidate: (i: number) => 1 - flip(i) } })
    const outcome = await runStagedGate({ plans: [plan('a')], checks: [check('a', 0)], alpha: 0.05, seed: 0, runStage })
    expect(outcome.checks[0]).toMatchObject({ decision: 'inconclusive', certain: false, stoppedAt: 400, budget: 400 })
    expect(calls.map(call => call.index)).toEqual([1, 2, 3, 4])
    expect(outcome.checks[0].requestsSpent).toBe(2 * (50 + 100 + 200 + 400))
  })

  it('refuses a value outside [0, 1], naming the check and the metric', async () => {
    const { runStage } = fakeStages({ a: { baseline: () => 3, candidate: () => 1 } })
    const run = runStagedGate({ plans: [plan('a')], checks: [check('a')], alpha: 0.05, seed: 0, runStage })
    await expect(run).rejects.toBeInstanceOf(StagedRunError)
    await expect(run).rejects.toMatchObject({
      code: 'sequential.metric_not_bounded',
      location: { field: 'check:a.metric', value: 'exact_match' }
    })
  })

  it('refuses a stage that drops instances of the stage before (HELM did not nest them)', async () => {
    const looks = [50, 100, 200, 400]
    const runStage = async (index: number, entries: readonly string[]): Promise<StageReading> => {
      const held = Array.from({ length: looks[index - 1] }, (_, i) => `id${index === 2 ? i + 1000 : i}`)
      const side = { ids: held, values: new Map([['check:a', new Map(held.map(id => [id, 1]))]]) }
      return new Map(entries.map(entry => [entry, { baseline: side, candidate: side }]))
    }
    // A margin nothing decides at the first look, so the second stage is read.
    await expect(runStagedGate({ plans: [plan('a')], checks: [check('a', 0)], alpha: 0.05, seed: 0, runStage })).rejects.toMatchObject({
      code: 'sequential.stages_not_nested'
    })
  })

  it('passes a stage runner failure on (an error verdict for the caller, never a decision)', async () => {
    const runStage = async (): Promise<StageReading> => {
      throw new StagedRunError('sequential.stage_failed', 'helm-run failed at stage 1', { field: 'stages[0]' })
    }
    await expect(runStagedGate({ plans: [plan('a')], checks: [check('a')], alpha: 0.05, seed: 0, runStage })).rejects.toMatchObject({
      code: 'sequential.stage_failed'
    })
  })
})
