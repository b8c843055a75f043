/**
 * The answer-length rows of compareOutputs on real output: HELM 0.5.16 runs (num_output_tokens)
 * and lm-eval 0.4.13 runs (characters of the generated answer), checked against a hand count from
 * the files themselves, gated only when the entry gives a band.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LENGTH_INTERVAL_METHOD, SHOWN_LENGTH_INTERVAL_METHOD } from '../../src/gate/answer-length.js'
import { compareOutputs } from '../../src/gate/compare.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { ALTERED_SUITE, BASELINE_SUITE, REASONING_RUN } from '../helm/read/fixtures.js'
import { LM_EVAL_BASELINE, LM_EVAL_DEGRADED, LM_EVAL_EQUIVALENT, LM_EVAL_MC } from '../lmeval/fixtures.js'
import { cliConfig, comparer, errorCodes } from './compare-helpers.js'

const config = cliConfig(2000)
const band = { min: 0.8, max: 1.25 }

/** Characters of each document's first response, per task, straight from the samples files. */
function lmEvalChars(dir: string): Map<string, Map<number, number>> {
  const folder = join(dir, 'gate-model')
  const out = new Map<string, Map<number, number>>()
  for (const file of readdirSync(folder).filter(f => f.startsWith('samples_'))) {
    const task = file.replace(/^samples_/, '').replace(/_\d{4}-.*$/, '')
    const docs = new Map<number, number>()
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n').filter(Boolean)) {
      const sample = JSON.parse(line) as { doc_id: number; resps: string[][] }
      if (!docs.has(sample.doc_id)) docs.set(sample.doc_id, Array.from(sample.resps[0][0]).length)
    }
    out.set(task, docs)
  }
  return out
}

/** num_output_tokens of the clean instances of one run, summed over its file. */
function helmTokens(suite: string, run: string): number {
  const stats = JSON.parse(readFileSync(join(suite, run, 'per_instance_stats.json'), 'utf8')) as {
    perturbation?: unknown
    stats: { name: { name: string; perturbation?: unknown }; sum: number; count: number }[]
  }[]
  let total = 0
  for (const instance of stats) {
    if (instance.perturbation) continue
    for (const s of instance.stats) if (s.name.name === 'num_output_tokens' && !s.name.perturbation) total += s.sum / s.count
  }
  return total
}

describe('answer length on lm-eval output', () => {
  const compare = comparer(config, {
    metric: 'exact_match',
    split: 'strict-match',
    maxDrop: 0.05,
    maxRelativeDrop: null,
    direction: 'higher',
    perturbations: 'report'
  })

  it('reports the ratio of characters per generated answer for every task, as counted from the samples files', async () => {
    const report = await compare(LM_EVAL_BASELINE, LM_EVAL_DEGRADED)
    const b = lmEvalChars(LM_EVAL_BASELINE)
    const c = lmEvalChars(LM_EVAL_DEGRADED)
    expect(report.answer_lengths?.map(r => r.run)).toEqual([...b.keys()].sort())
    for (const row of report.answer_lengths ?? []) {
      const sum = (m: Map<number, number>): number => [...m.values()].reduce((s, x) => s + x, 0)
      expect(row).toMatchObject({ source: 'lm-eval', gated: false, n: b.get(row.run)!.size })
      expect(row.unit).toMatch(/^characters/)
      expect(row.ratio.estimate).toBeCloseTo(sum(c.get(row.run)!) / sum(b.get(row.run)!), 12)
      expect(row.ratio.low).toBeLessThan(row.ratio.estimate)
      // Shown only: the one-pass delta-method interval, nothing resampled on the gated path.
      expect(row.ratio.method).toBe(SHOWN_LENGTH_INTERVAL_METHOD)
    }
    // Reported, never gated: the quality verdict is the comparisons' alone.
    expect(report.verdict).toBe(
      report.comparisons.some(x => x.verdict === 'fail')
        ? 'fail'
        : report.comparisons.some(x => x.verdict === 'inconclusive')
          ? 'inconclusive'
          : 'pass'
    )
  })

  it('gates the band when the entry sets one: the degraded candidate answers longer and fails it', async () => {
    const report = await compare(LM_EVAL_BASELINE, LM_EVAL_DEGRADED, { answerLength: { min: 0.8, max: 1.2 } })
    const rows = report.answer_lengths ?? []
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.gated).toBe(true)
      expect(row.ratio.method).toBe(LENGTH_INTERVAL_METHOD)
      expect(row.ratio.low).toBeGreaterThan(1.2)
      expect(row.verdict).toBe('fail')
      expect(row.reason).toMatch(/longer than tolerated/)
    }
    expect(report.verdict).toBe('fail')
    const md = renderMarkdown(report, { maxLength: 65000 })
    expect(md).toContain('### Answer length')
    expect(md).toMatch(/\| ❌ fail \| gate\\_arith<br>lm-eval \| \*\*1\.\d+×\*\*<br>\[/)
  })

  it('passes the band for an equivalent candidate', async () => {
    const report = await compare(LM_EVAL_BASELINE, LM_EVAL_EQUIVALENT, { answerLength: band })
    expect(report.answer_lengths?.map(r => r.verdict)).toEqual(report.answer_lengths?.map(() => 'pass'))
    expect(report.verdict).toBe('pass')
  })

  it('has no answers to measure on loglikelihood tasks: nothing reported, an error only when gated', async () => {
    const plain = await compare(join(LM_EVAL_MC, 'baseline'), join(LM_EVAL_MC, 'equivalent'), { split: 'none', metric: 'acc' })
    expect(plain.answer_lengths).toBeUndefined()
    const gated = await compare(join(LM_EVAL_MC, 'baseline'), join(LM_EVAL_MC, 'equivalent'), {
      split: 'none',
      metric: 'acc',
      answerLength: band
    })
    expect(errorCodes(gated)).toContain('length.no_answers')
    expect(gated.verdict).toBe('error')
  })
})

describe('answer length on HELM output', () => {
  const compare = comparer(config, {
    metric: 'exact_match',
    split: null,
    maxDrop: 0.5,
    maxRelativeDrop: null,
    direction: 'higher',
    perturbations: 'report'
  })

  it("is HELM's num_output_tokens per clean instance, paired, one row per run", async () => {
    const report = await compareOutputs(BASELINE_SUITE, ALTERED_SUITE, config, {
      defaults: { metric: 'exact_match', split: null, maxDrop: 0.5, maxRelativeDrop: null, direction: 'higher', perturbations: 'report' }
    })
    const row = report.answer_lengths?.find(r => r.run.startsWith('synthetic_reasoning'))
    expect(row).toMatchObject({ source: 'helm', unit: 'output tokens', gated: false })
    expect(row!.ratio.estimate).toBeCloseTo(helmTokens(ALTERED_SUITE, REASONING_RUN) / helmTokens(BASELINE_SUITE, REASONING_RUN), 12)
    expect(report.answer_lengths!.every(r => r.source === 'helm')).toBe(true)
  })

  it('gates a band like any check: an unchanged length passes it', async () => {
    const report = await compare(BASELINE_SUITE, ALTERED_SUITE, { answerLength: band })
    expect(report.answer_lengths!.length).toBeGreaterThan(0)
    for (const row of report.answer_lengths!) {
      expect(row.gated).toBe(true)
      expect(row.verdict).toBe('pass')
    }
    expect(report.answer_lengths!.map(r => r.ratio.estimate)).toEqual(report.answer_lengths!.map(() => 1))
  })
})
