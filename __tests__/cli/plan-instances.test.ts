import { describe, expect, it } from '@jest/globals'
import { bestCaseLowerBound, floorInstances, instanceLines, isBinaryMetric } from '../../src/cli/commands/plan-instances.js'
import { DEFAULT_STATISTICS, type GateConfig, type GatedRun } from '../../src/config/types.js'
import type { InstanceCount } from '../../src/runner/instance-count.js'

const run = (over: Partial<GatedRun>): GatedRun => ({
  entry: 'e',
  match: null,
  metric: 'exact_match',
  split: null,
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report',
  ...over
})
const config = { statistics: DEFAULT_STATISTICS } as GateConfig
const count = (r: GatedRun, n: number, clean: Record<string, number> = { test: n }): InstanceCount => ({
  run: r,
  split: 'test',
  n,
  counts: { clean, perturbed: {} }
})

describe('the best case and its floor', () => {
  it("is Tango's lower bound with no discordant pair for 0/1 metrics", () => {
    // With no change the score interval's lower bound is -z^2 / (n + z^2).
    expect(bestCaseLowerBound(20, true, 0.95)).toBeCloseTo(-(1.959964 ** 2) / (20 + 1.959964 ** 2), 6)
    const floor = floorInstances(0.05, true, 0.95) as number
    expect(bestCaseLowerBound(floor, true, 0.95)).toBeGreaterThan(-0.05)
    expect(bestCaseLowerBound(floor - 1, true, 0.95)).toBeLessThanOrEqual(-0.05)
    expect(floor).toBe(73)
  })

  it('is the bootstrap minimum for other metrics', () => {
    expect(bestCaseLowerBound(19, false, 0.95)).toBe(-Infinity)
    expect(bestCaseLowerBound(20, false, 0.95)).toBe(0)
    expect(floorInstances(0.05, false, 0.95)).toBe(20)
  })

  it('knows the exact-match family as 0/1', () => {
    for (const m of ['exact_match', 'quasi_exact_match', 'quasi_prefix_exact_match@5', 'exact_match_indicator', 'exact_set_match']) {
      expect(isBinaryMetric(m)).toBe(true)
    }
    for (const m of ['f1_score', 'rouge_l', 'bleu_4', 'exact_match_rate']) expect(isBinaryMetric(m)).toBe(false)
  })
})

describe('instanceLines', () => {
  const options = { maxEvalInstances: 200 }

  it('says how many instances and which flip rate the margin tolerates', () => {
    const { lines, warnings } = instanceLines([count(run({ maxDrop: 0.1 }), 99, { test: 99, valid: 101 })], config, options)
    expect(warnings).toEqual([])
    // n m^2 / z^2 = 99 * 0.01 / 3.8415 = 25.8%
    expect(lines).toEqual([
      'e exact_match: n = 99 (split test); resolves max_drop 0.1 while at most about 26% of answers change (power approximation)'
    ])
  })

  it('warns below the floor, with the budget that would reach it at the same split share', () => {
    const { warnings } = instanceLines([count(run({ maxDrop: 0.05 }), 50, { test: 50, valid: 150 })], config, options)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^e exact_match: n = 50 \(split test\) cannot resolve max_drop 0\.05: even with no changed answer the 95% interval reaches -0\.0713/
    )
    expect(warnings[0]).toMatch(/about 73 instances needed \(raise helm\.max_eval_instances from 200 to about 292\)$/)
  })

  it('says when the scenario has no more instances to give', () => {
    const { warnings } = instanceLines([count(run({ maxDrop: 0.02 }), 79)], config, options)
    expect(warnings[0]).toMatch(/the scenario has only 79 evaluation instances: a larger max_eval_instances cannot help/)
  })

  it('with an assumed discordance, warns when the power computation needs more than n', () => {
    const lines = instanceLines([count(run({ maxDrop: 0.1 }), 99, { test: 99, valid: 101 })], config, { ...options, discordance: 0.4 })
    // z^2 r / m^2 = 3.8415 * 0.4 / 0.01 = 154 > 99
    expect(lines.warnings).toEqual([
      'e exact_match: n = 99 (split test) is too few for max_drop 0.1 if 40% of answers change: about 154 needed (raise helm.max_eval_instances from 200 to about 312)'
    ])
    expect(instanceLines([count(run({ maxDrop: 0.1 }), 99)], config, { ...options, discordance: 0.2 }).warnings).toEqual([])
  })

  it('continuous metrics: only the bootstrap minimum; relative drops and unknown counts are said so', () => {
    const result = instanceLines(
      [
        count(run({ metric: 'f1_score' }), 12),
        count(run({ metric: 'f1_score', entry: 'f' }), 30),
        count(run({ maxDrop: null, maxRelativeDrop: 0.1, entry: 'g' }), 40),
        { run: run({ entry: 'h' }), split: null, n: null, counts: null }
      ],
      config,
      options
    )
    expect(result.lines).toEqual([
      'f f1_score: n = 30 (split test); at least 20 instances, so max_drop 0.05 can be resolved',
      'g exact_match: n = 40 (split test); max_relative_drop 0.1 depends on the baseline mean'
    ])
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /^e f1_score: n = 12 \(split test\) cannot resolve max_drop 0\.05: a bootstrap interval on fewer than 20 instances never passes/
      ),
      'h exact_match: cannot tell how many instances it will have (the dry run made no run for this entry)'
    ])
  })
})
