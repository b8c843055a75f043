import { describe, expect, test } from '@jest/globals'
import { UsageError } from '../../src/errors.js'
import { utf8Length } from '../../src/report/budget.js'
import { renderMarkdown, TRUNCATION_NOTICE } from '../../src/report/markdown.js'
import type { Comparison, Report, Verdict } from '../../src/model/report.js'
import { makeComparison, makeExample, makeReport } from './make-report.js'
import { cellSeparators, comparisonsTableOf, structureOf, tablesOf } from './markdown-checks.js'

/** Collapsed changed-answer sections (the efficiency section is collapsed too). */
const changedSections = (md: string): number => (md.match(/changed answers<\/summary>/g) ?? []).length

const MARKER = '<!-- helm-gate:sticky-comment -->'

/** Shared huge strings: every example refers to the same text, so memory stays small. */
const HUGE = `${'x'.repeat(200_000)}\n\`\`\`\n</details>\n@octocat ${'é漢'.repeat(50_000)}`

function bigReport(
  count: number,
  verdicts: (i: number) => Comparison['verdict'] = i => (i % 3 === 0 ? 'fail' : 'pass'),
  gated: (i: number) => boolean = i => i % 5 !== 0
): Report {
  const example = makeExample({ input: HUGE, reference: HUGE, baseline_output: HUGE, candidate_output: HUGE })
  const comparisons = Array.from({ length: count }, (_, i) =>
    makeComparison({
      run: `scenario_${i}:subject=${'s'.repeat(40)},model=base`,
      metric: i % 2 ? 'exact_match' : 'f1',
      gated: gated(i),
      verdict: verdicts(i),
      examples: [example, example, example]
    })
  )
  return makeReport({
    verdict: 'fail',
    errors: Array.from({ length: 500 }, (_, i) => ({ code: 'guard.drift', message: `drift ${i}: ${'y'.repeat(700)}`, file: `f${i}` })),
    warnings: Array.from({ length: 500 }, (_, i) => ({ code: 'w', message: `warning ${i}` })),
    comparisons
  })
}

function expectWellFormed(md: string, verdict: Verdict, errors: number): void {
  const lines = md.split('\n')
  expect(lines[0]).toBe(MARKER)
  expect(lines[1]).toMatch(new RegExp(`^## \\S+ ${verdict[0].toUpperCase()}${verdict.slice(1)} · helm-gate$`, 'u'))
  expect(md).toContain(`**${errors.toLocaleString('en-US')} error`)
  const s = structureOf(md)
  expect(s.unclosedFence).toBe(false)
  expect(s.detailsClosed).toBe(s.detailsOpened)
  for (const table of tablesOf(md)) {
    const columns = cellSeparators(table[0])
    for (const row of table) expect(cellSeparators(row)).toBe(columns)
  }
  expect(md).not.toMatch(/@octocat/)
}

describe('size budget with 2,000 comparisons and huge examples', () => {
  const report = bigReport(2000)

  test.each([
    ['PR comment', 65_000],
    ['PR comment, GitHub maximum', 65_536],
    ['check-run field', 65_535],
    ['small', 4_000]
  ])('%s: %d characters', (_name, limit) => {
    const md = renderMarkdown(report, { maxLength: limit, marker: MARKER })
    expect(md.length).toBeLessThanOrEqual(limit)
    expectWellFormed(md, 'fail', 500)
    expect(md).toContain(TRUNCATION_NOTICE)
  })

  test('job summary: 1 MiB counted in UTF-8 bytes', () => {
    const limit = 1024 * 1024
    const md = renderMarkdown(report, { maxLength: limit, marker: MARKER, lengthUnit: 'utf8' })
    expect(utf8Length(md)).toBeLessThanOrEqual(limit)
    expect(Buffer.byteLength(md, 'utf8')).toBe(utf8Length(md))
    expectWellFormed(md, 'fail', 500)
    // A megabyte holds far more than a comment.
    expect(md.length).toBeGreaterThan(500_000)
  })

  test('a budget too small for the headline is refused, not silently broken', () => {
    expect(() => renderMarkdown(report, { maxLength: 100, marker: MARKER })).toThrow(UsageError)
  })
})

describe('size budget: the steps before the hard cut', () => {
  const many = (count: number, verdicts?: (i: number) => Comparison['verdict'], gated?: (i: number) => boolean): Report => {
    const r = bigReport(count, verdicts, gated)
    return { ...r, errors: r.errors.slice(0, 2), warnings: [] }
  }

  test('full detail when it fits', () => {
    const md = renderMarkdown(many(3), { maxLength: 1_000_000, marker: MARKER })
    expect(changedSections(md)).toBe(3)
    expect(md.match(/\*\*Instance\*\*/g)).toHaveLength(9)
    expect(md).not.toContain('omitted')
  })

  test('fewer examples, then examples for the failing comparisons first, then none', () => {
    const report = many(
      3,
      i => (i === 2 ? 'fail' : 'pass'),
      () => true
    )
    const full = renderMarkdown(report, { maxLength: 1_000_000, marker: MARKER })
    const fewer = renderMarkdown(report, { maxLength: full.length - 1, marker: MARKER })
    expect(fewer.match(/\*\*Instance\*\*/g)).toHaveLength(3)
    expect(fewer).toContain('Only 1 changed answer per comparison shown')

    const none = renderMarkdown(report, { maxLength: 1_000_000, marker: MARKER, examplesPerComparison: 0 })
    expect(changedSections(none)).toBe(0)
    expect(none).toContain('Changed answers omitted to fit the size limit')
    const section = (fewer.length - none.length) / 3
    const some = renderMarkdown(report, { maxLength: none.length + 400 + Math.ceil(section * 1.5), marker: MARKER })
    expect(changedSections(some)).toBe(1)
    expect(some).toContain('<summary>scenario&#95;2')
    expect(some).toContain('Changed answers shown for 1 of 3 comparisons (failing and inconclusive first, 1 answer each)')

    expect(renderMarkdown(report, { maxLength: none.length, marker: MARKER })).toBe(none)
    expect(none).not.toContain(TRUNCATION_NOTICE)
  })

  test('then only gated or non-passing rows, with the count of omitted ones', () => {
    // Mostly ungated, passing rows: dropping them is enough.
    const report = many(
      300,
      i => (i % 7 === 0 ? 'fail' : 'pass'),
      i => i % 10 === 0
    )
    const md = renderMarkdown(report, { maxLength: 65_000, marker: MARKER })
    expect(md).not.toContain(TRUNCATION_NOTICE)
    const table = comparisonsTableOf(md)
    const kept = report.comparisons.filter(c => c.gated || c.verdict !== 'pass')
    const omitted = report.comparisons.length - kept.length
    expect(table).toHaveLength(2 + kept.length)
    expect(md).toContain(`_${omitted} comparisons omitted to fit the size limit`)
  })

  test('then only gated non-passing rows; all passing says so', () => {
    const report = many(2000, () => 'pass')
    const md = renderMarkdown(report, { maxLength: 65_000, marker: MARKER })
    expect(md).toContain('_Every gated comparison passed._')
    expect(md).toContain('_2,000 comparisons omitted to fit the size limit')
    expect(md.length).toBeLessThanOrEqual(65_000)
  })
})
