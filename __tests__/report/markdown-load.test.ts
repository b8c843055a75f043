import { describe, expect, test } from '@jest/globals'
import { renderLoadConsole } from '../../src/report/console-load.js'
import { loadChart } from '../../src/report/load-chart.js'
import type { LoadReport } from '../../src/model/load-report.js'
import { figures as fig } from './make-load-report.js'
import { renderLoadMarkdown } from '../../src/report/markdown-load.js'

export function sampleLoad(over: Partial<LoadReport> = {}): LoadReport {
  return {
    verdict: 'pass',
    headline: 'Performance: pass: all 2 load checks passed.',
    skipped: null,
    mode: 'concurrency',
    levels: [1, 64],
    settings: {
      repetitions: 3,
      requests_per_block: 100,
      seconds_per_block: null,
      warmup_requests: 20,
      timeout_seconds: 120,
      arrival: null,
      confidence: 0.95,
      percentile_method: 'Hyndman-Fan type 7',
      interval_method: 'block-pair log-ratio t interval',
      prompts: 'synthetic',
      seed: 0
    },
    sides: {
      baseline: { api: 'chat', model: 'm', ignore_eos: true, usage: true },
      candidate: { api: 'chat', model: 'm', ignore_eos: true, usage: true }
    },
    blocks: [],
    summary: [
      { level: 1, baseline: fig(100, 20), candidate: fig(160, 15) },
      { level: 64, baseline: fig(4000, 300), candidate: fig(6400, 200) }
    ],
    ratios: [],
    checks: [
      {
        metric: 'output_tokens_per_second',
        level: 64,
        kind: 'min_ratio',
        threshold: 1.3,
        baseline: 4000,
        candidate: 6400,
        ratio: { estimate: 1.6, low: 1.52, high: 1.68 },
        pairs: 3,
        verdict: 'pass',
        pairs_needed: null,
        reason: 'the whole interval is above 1.3'
      },
      {
        metric: 'error_rate',
        level: 64,
        kind: 'max',
        threshold: 0,
        baseline: 0,
        candidate: 0,
        ratio: null,
        pairs: 0,
        verdict: 'pass',
        pairs_needed: null,
        reason: 'candidate 0 <= 0'
      }
    ],
    errors: [],
    warnings: [],
    notes: [],
    timings_file: 'load-timings.jsonl',
    ...over
  }
}

describe('Performance section', () => {
  test('markdown: one row per check with baseline, candidate, ratio [interval] and verdict, then the chart', () => {
    const text = renderLoadMarkdown(sampleLoad()).join('\n')
    expect(text).toContain('### ✅ Performance: Pass')
    expect(text).toContain('| `output_tokens_per_second` ≥ 1.3× | c=64 | 4000 tok/s | 6400 tok/s | 1.600× [1.520, 1.680] | ✅ pass |')
    expect(text).toContain('| `error_rate` ≤ 0% | c=64 | 0% | 0% | — | ✅ pass |')
    expect(text).toContain('```text\nTTFT p99 (ms) against output tokens/s')
    expect(text).toContain('load-timings.jsonl')
    expect(text).toMatch(/^300 ms \|/m)
    expect(renderLoadMarkdown(undefined)).toEqual([])
  })

  test('a skipped load half says so loudly and shows no table', () => {
    const text = renderLoadMarkdown(sampleLoad({ skipped: 'the baseline is not reachable; SKIPPED' })).join('\n')
    expect(text).toContain('> [!WARNING]')
    expect(text).not.toContain('| check |')
  })

  test('server text is escaped in markdown and in the terminal', () => {
    const hostile = sampleLoad({ notes: ['@octocat <b>x</b>\u001b[2J'] })
    expect(renderLoadMarkdown(hostile).join('\n')).not.toMatch(/@octocat|<b>/)
    expect(renderLoadConsole(hostile).join('\n')).not.toContain('\u001b')
  })

  test('the chart places each side and level: the faster side further right, the slower TTFT higher', () => {
    const lines = loadChart(sampleLoad())
    const rowOf = (label: string): number => lines.findIndex(l => l.includes(label))
    const colOf = (label: string): number => lines[rowOf(label)].indexOf(label)
    expect(colOf('C2')).toBeGreaterThan(colOf('B2'))
    expect(rowOf('B2')).toBeLessThan(rowOf('C2'))
    expect(lines[lines.length - 1]).toBe('levels: 1 = concurrency 1, 2 = concurrency 64')
  })
})
