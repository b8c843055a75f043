/**
 * The one line that says what decided the verdict and its figure. Reports are joined with the real
 * attachLoad, as the pipeline joins them, so the line is computed from what a report really holds.
 */
import { describe, expect, test } from '@jest/globals'
import { attachLoad, loadOnlyReport } from '../../src/load/combine.js'
import type { LoadCheckResult, LoadReport } from '../../src/model/load-report.js'
import type { Report } from '../../src/model/report.js'
import { renderCheckRun } from '../../src/report/check-run.js'
import { renderConsole } from '../../src/report/console.js'
import { decide } from '../../src/report/decision.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { sampleLoad } from './markdown-load.test.js'
import { makeComparison, makeReport } from './make-report.js'

const passing = [makeComparison({ run: 'a' }), makeComparison({ run: 'b' })]
const quality = (over: Partial<Report> = {}): Report => makeReport({ verdict: 'pass', comparisons: passing, ...over })

const throughput: LoadCheckResult = {
  metric: 'output_tokens_per_second',
  level: 16,
  kind: 'min_ratio',
  threshold: 0.9,
  baseline: 1000,
  candidate: 610,
  ratio: { estimate: 0.61, low: 0.58, high: 0.64 },
  pairs: 3,
  verdict: 'fail',
  pairs_needed: null,
  reason: 'the whole interval is on the wrong side of 0.9'
}
const errorRate: LoadCheckResult = {
  ...throughput,
  metric: 'error_rate',
  kind: 'max',
  threshold: 0,
  baseline: 0,
  candidate: 0,
  ratio: null,
  verdict: 'pass',
  reason: 'candidate 0 <= 0'
}

const TIMELINE: NonNullable<LoadReport['timeline']> = {
  schedule: 'swapped',
  why: '',
  switches: { baseline: 'restart', candidate: 'none' },
  swap_cost_ms: 900,
  swap_budget_seconds: 600,
  swaps: [],
  up: { baseline: [], candidate: [] }
}

function slower(): LoadReport {
  return sampleLoad({
    verdict: 'fail',
    headline: 'Performance: fail: output_tokens_per_second at concurrency 16: …',
    checks: [throughput, errorRate]
  })
}

function unreachable(): LoadReport {
  const message = 'candidate: not reachable at http://127.0.0.1:9/v1 (connect ECONNREFUSED)'
  return sampleLoad({
    verdict: 'error',
    headline: `Performance: error: ${message}`,
    checks: [],
    errors: [{ code: 'load.unreachable', message }]
  })
}

describe('decide', () => {
  test('the performance half decides a fail: its figure and threshold first, then the quality half', () => {
    const d = decide(attachLoad(quality(), slower()))
    expect(d).toMatchObject({ verdict: 'fail', decidedBy: 'performance' })
    expect(d.line).toBe('Fail: performance (output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×); quality 2/2 passed')
  })

  test('the performance half decides an error: its error message, the quality half passed', () => {
    const d = decide(attachLoad(quality(), unreachable()))
    expect(d).toMatchObject({ verdict: 'error', decidedBy: 'performance' })
    expect(d.line).toBe('Error: performance (candidate: not reachable at http://127.0.0.1:9/v1 (connect ECONNREFUSED)); quality 2/2 passed')
  })

  test('measured in two periods (not interleaved): the line says so and why, whichever half decides', () => {
    const why = 'swapping is impossible: deployments.candidate.launch.switch is none'
    const periods = (load: LoadReport): LoadReport => ({ ...load, interleaved: false, timeline: { ...TIMELINE, schedule: 'periods', why } })
    expect(decide(attachLoad(quality(), periods(slower()))).line).toBe(
      `Fail: performance (output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×) [not interleaved: ${why}]; quality 2/2 passed`
    )
    const passed = sampleLoad({ verdict: 'pass', checks: [errorRate] })
    expect(decide(attachLoad(quality(), periods(passed))).line).toBe(
      `Pass: quality 2/2 passed; performance 1/1 checks passed [not interleaved: ${why}]`
    )
    // Interleaved (swapped or both up): nothing added.
    expect(decide(attachLoad(quality(), { ...passed, interleaved: true })).line).toBe(
      'Pass: quality 2/2 passed; performance 1/1 checks passed'
    )
  })

  test('the quality half decides: the failing comparison and its tolerance, then performance', () => {
    const failing = makeComparison({ run: 'mmlu', verdict: 'fail', delta: -0.12, max_drop: 0.02 })
    const d = decide(attachLoad(quality({ verdict: 'fail', comparisons: [failing, passing[0]] }), sampleLoad()))
    expect(d).toMatchObject({ verdict: 'fail', decidedBy: 'quality' })
    expect(d.line).toBe('Fail: quality 1/2 failed (mmlu exact_match test -0.1200, tolerates -0.0200); performance 2/2 checks passed')
  })

  test('an inconclusive ratio check shows its interval; a quality error shows its message', () => {
    const open = { ...throughput, verdict: 'inconclusive' as const, ratio: { estimate: 0.93, low: 0.85, high: 1.01 } }
    const load = sampleLoad({ verdict: 'inconclusive', checks: [open] })
    expect(decide(attachLoad(quality(), load)).line).toBe(
      'Inconclusive: performance (output_tokens_per_second 0.930× [0.850, 1.010] at c=16, needs ≥ 0.9×); quality 2/2 passed'
    )
    const broken = quality({ verdict: 'error', comparisons: [], errors: [{ code: 'helm.failed', message: 'helm-run exited 1' }] })
    const d = decide(attachLoad(broken, load))
    expect(d).toMatchObject({ verdict: 'error', decidedBy: 'quality' })
    expect(d.line).toBe(
      'Error: quality (helm-run exited 1); performance inconclusive (output_tokens_per_second 0.930× [0.850, 1.010] at c=16, needs ≥ 0.9×)'
    )
  })

  test('both halves with the same verdict, both passing, and the performance half alone', () => {
    const failing = makeComparison({ verdict: 'fail', delta: -0.1 })
    expect(decide(attachLoad(quality({ verdict: 'fail', comparisons: [failing] }), slower())).decidedBy).toBe('both')
    const pass = decide(attachLoad(quality(), sampleLoad()))
    expect(pass).toMatchObject({ decidedBy: 'both', line: 'Pass: quality 2/2 passed; performance 2/2 checks passed' })
    const config = { statistics: { confidence: 0.95, resamples: 100, seed: 0, minOverlap: 0.95, interval: 'auto' } } as never
    expect(decide(loadOnlyReport(config, slower())).line).toBe('Fail: performance (output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×)')
  })

  test('each half keeps its own errors, even when both say the same thing', () => {
    // Telling the halves' errors apart by their text took this quality error for the load half's.
    const down = unreachable().errors[0]
    const joined = attachLoad(quality({ verdict: 'error', comparisons: [], errors: [{ ...down }] }), unreachable())
    expect(joined.quality).toEqual({ verdict: 'error', errors: [down] })
    expect(decide(joined)).toMatchObject({
      decidedBy: 'both',
      line: `Error: quality (${down.message}); performance (${down.message})`
    })
  })

  test('without a load half the line is the counts the title has always shown', () => {
    expect(decide(makeReport({ verdict: 'fail', comparisons: [makeComparison({ verdict: 'fail' })] })).line).toBe(
      'Fail: 0/1 gated passed, 1 failed'
    )
    expect(decide(makeReport({ verdict: 'error', errors: [{ code: 'x', message: 'y' }], comparisons: [] }))).toMatchObject({
      line: 'Error: 1 error',
      decidedBy: 'quality'
    })
  })
})

describe('every first line a reviewer reads says the same', () => {
  test.each([
    ['fail', slower, 'Fail: performance (output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×); quality 2/2 passed'],
    [
      'error',
      unreachable,
      'Error: performance (candidate: not reachable at http://127.0.0.1:9/v1 (connect ECONNREFUSED)); quality 2/2 passed'
    ]
  ])('performance %s: check title, markdown heading and the console\u2019s last line', (_verdict, load, line) => {
    const report = attachLoad(quality(), load())
    expect(renderCheckRun(report).title).toBe(line)
    const markdown = renderMarkdown(report, { maxLength: 65_536 })
    const heading = markdown.split('\n')[0]
    expect(heading).toMatch(/^## (❌|⛔) /)
    // Markdown escapes its punctuation and breaks autolinks with a zero-width joiner; without them it is the same line.
    expect(
      heading
        .replace(/^## \S+ /, '')
        .replace(/\\(.)/g, '$1')
        .replace(/\u200D/g, '')
    ).toBe(`${line} · helm-gate`)
    expect(markdown).not.toContain('Decided by the performance half')
    const console = renderConsole(report, { color: false }).trimEnd().split('\n')
    expect(console[console.length - 1]).toBe(`Overall: ${line.replace(/^(\w+): /, (_m, w: string) => `${w.toUpperCase()}: `)}`)
  })
})

describe('the Performance section says each thing once', () => {
  test.each([
    ['pass', sampleLoad(), '### ✅ Performance: Pass (all 2 checks passed)'],
    ['fail', slower(), '### ❌ Performance: Fail (1 of 2 checks failed)'],
    ['error', unreachable(), '### ⛔ Performance: Error']
  ])('%s: the heading carries the verdict and the count, no sentence repeats it', (_verdict, load, heading) => {
    const markdown = renderMarkdown(attachLoad(quality(), load), { maxLength: 65_536 })
    const lines = markdown.split('\n')
    const at = lines.indexOf(heading)
    expect(at).toBeGreaterThan(0)
    // No line restates a verdict heading ("Performance: pass: all 5 load checks passed.").
    expect(markdown).not.toMatch(/Performance: (pass|fail|error):/i)
    for (const h of lines.filter(l => /^#+ (✅|❌|⛔|🟡|⚠️) /u.test(l))) {
      const said = h
        .replace(/^#+ \S+ /u, '')
        .split(/ \(| · /)[0]
        .toLowerCase()
      expect([said, lines.filter(l => !l.startsWith('#') && l.toLowerCase().includes(said))]).toEqual([said, []])
    }
  })

  test('a skipped load half: one heading and the reason once in the section', () => {
    const skipped = sampleLoad({
      verdict: 'pass',
      skipped: 'the baseline deployment is not reachable',
      headline: 'Performance: SKIPPED: the baseline deployment is not reachable'
    })
    const section = renderMarkdown(attachLoad(quality(), skipped), { maxLength: 65_536 }).split('### ⚠️ Performance: Skipped')[1]
    expect(section.match(/the baseline deployment is not reachable/g)).toHaveLength(1)
    expect(section).not.toContain('SKIPPED')
  })
})
