// The direction on every comparison row of real HELM 0.5.16 output: the same won and lost as the
// row's flips, the split by the baseline's max_prob counted again here from per_instance_stats.json,
// and no split (with its reason) where the run's max_prob carries no information.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SURE_PROB } from '../../src/holistic/direction.js'
import type { RunDefaults } from '../../src/model/harness.js'
import { cliConfig, comparer } from './compare-helpers.js'
import { ALTERED_SUITE, BASELINE_SUITE, MCQA_RUN } from '../helm/read/fixtures.js'
import { copyToTemp, editJson } from '../support/fixture-copy.js'

const defaults: RunDefaults = {
  metric: 'exact_match',
  split: 'test',
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
}
const compare = comparer(cliConfig(400), defaults)

interface Stat {
  name: { name: string; split: string; perturbation?: unknown }
  sum: number
  count: number
}
interface Entry {
  instance_id: string
  train_trial_index: number
  stats: Stat[]
}

/** The clean test value of `metric` per instance, read straight from the file. */
function cleanValues(suite: string, metric: string): Map<string, number> {
  const entries = JSON.parse(readFileSync(join(suite, MCQA_RUN, 'per_instance_stats.json'), 'utf8')) as Entry[]
  const out = new Map<string, number>()
  for (const e of entries) {
    const s = e.stats.find(x => x.name.name === metric && x.name.split === 'test' && x.name.perturbation === undefined)
    if (s) out.set(e.instance_id, s.sum / s.count)
  }
  return out
}

describe('the direction of each comparison row', () => {
  it('has the row flips, its McNemar p, and no split where every max_prob is 1 (the simple model)', async () => {
    const report = await compare(ALTERED_SUITE, BASELINE_SUITE)
    expect(report.comparisons.length).toBeGreaterThan(3)
    for (const c of report.comparisons) {
      const d = c.change_direction
      expect(c.binary).toBe(true)
      if (!d || d.kind === 'absent') throw new Error(`${c.id}: no direction`)
      expect([d.won, d.lost, d.p_value, d.pairs]).toEqual([c.wins, c.losses, c.p_value, c.pairs])
      expect(d.margin).toBeNull()
      expect(d.margin_reason).toMatch(c.perturbation === 'worst' ? /worst variant/ : /every max_prob of the baseline is 1/)
    }
    const mcqa = report.comparisons.find(c => c.run === 'simple_mcqa' && c.perturbation === null)!
    expect(mcqa.change_direction).toMatchObject({ kind: 'drop', won: 0, lost: 7 })
  })

  it('splits the flips by the baseline max_prob, counted again from the files', async () => {
    const baseline = copyToTemp(ALTERED_SUITE)
    // Sure of every third instance: the simple model writes max_prob 1 everywhere, so set real ones.
    editJson<Entry[]>(join(baseline, MCQA_RUN, 'per_instance_stats.json'), entries => {
      entries.forEach((e, i) => {
        for (const s of e.stats) if (s.name.name === 'max_prob') s.sum = s.count * (i % 3 === 0 ? 0.9 : 0.55)
      })
    })
    const report = await compare(baseline, BASELINE_SUITE)
    const row = report.comparisons.find(c => c.run === 'simple_mcqa' && c.perturbation === null)!
    const b = cleanValues(baseline, 'exact_match')
    const c = cleanValues(BASELINE_SUITE, 'exact_match')
    const prob = cleanValues(baseline, 'max_prob')
    const expected = { sure: { won: 0, lost: 0 }, unsure: { won: 0, lost: 0 } }
    for (const [id, bv] of b) {
      const cv = c.get(id)
      if (cv === undefined || cv === bv) continue
      const bucket = (prob.get(id) ?? 0) >= SURE_PROB ? expected.sure : expected.unsure
      if (cv > bv) bucket.won++
      else bucket.lost++
    }
    expect(expected.sure.lost).toBeGreaterThan(0)
    expect(expected.unsure.lost).toBeGreaterThan(0)
    expect(row.change_direction).toMatchObject({ margin: { by: 'max_prob', sure_at: SURE_PROB, ...expected }, margin_reason: null })
    // Information only: the verdict is the interval's, whatever the split.
    const plain = await compare(ALTERED_SUITE, BASELINE_SUITE)
    expect(report.comparisons.map(x => [x.id, x.verdict])).toEqual(plain.comparisons.map(x => [x.id, x.verdict]))
    expect(report.verdict).toBe(plain.verdict)
  })

  it('is absent, with the reason, on a metric that is not 0/1 per instance', async () => {
    const report = await compare(ALTERED_SUITE, BASELINE_SUITE, { metric: 'num_prompt_tokens', direction: 'lower', maxDrop: 100 })
    const rows = report.comparisons.filter(c => !c.binary)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.change_direction).toEqual({
        kind: 'absent',
        reason: 'num_prompt_tokens is not 0 or 1 on every instance, so no answer is simply won or lost'
      })
    }
  })
})
