/**
 * report.html in headless Chromium, the parts the fixture runs do not reach: the load half's
 * tables (per level, per metric: baseline, candidate, ratio [interval], checks with verdicts;
 * server-provided text stays text) and the forest plot's axis, whose tick labels must never
 * overlap whatever the range of the intervals.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Comparison, Report } from '../../../src/model/report.js'
import { renderHtml } from '../../../src/report/html.js'
import { launchChromium, type BrowserSession } from '../../../test-support/browser/chromium.js'
import { makeComparison, makeReport } from '../make-report.js'
import { LOAD_PAYLOAD, makeLoadReport } from '../make-load-report.js'

const PAYLOAD = LOAD_PAYLOAD

interface Shown {
  problems: string[]
  pwned: unknown
  text: string
}

describe('report.html in headless Chromium: load tables and the plot axis', () => {
  let session: BrowserSession

  beforeAll(async () => {
    session = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await session?.close()
  })

  async function open<T>(report: Report, read: () => T): Promise<Shown & { read: Awaited<T> }> {
    const { page, problems } = await session.page(1200)
    await page.setContent(renderHtml(report), { waitUntil: 'load' })
    const result = {
      problems,
      pwned: await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
      text: await page.$eval('#app', app => app.textContent ?? ''),
      read: (await page.evaluate(read)) as Awaited<T>
    }
    await page.close()
    return result
  }

  test('the load half: a table per level, a row per metric with baseline, candidate, ratio [interval] and its checks', async () => {
    const load = makeLoadReport()
    const shown = await open(makeReport({ load }), () =>
      [...document.querySelectorAll('#load table.load-level')].map(table => ({
        level: table.getAttribute('data-level'),
        head: [...table.querySelectorAll('th')].map(th => th.textContent),
        rows: [...table.querySelectorAll('tbody tr')].map(tr => ({
          metric: tr.getAttribute('data-metric'),
          verdict: tr.className,
          cells: [...tr.querySelectorAll('td')].map(td => td.textContent),
          checks: [...tr.querySelectorAll('.check')].map(c => c.className)
        }))
      }))
    )
    expect(shown.problems).toEqual([])
    expect(shown.read.map(t => t.level)).toEqual(['1', '64'])
    expect(shown.read[0].head).toEqual(['Metric', 'Baseline', 'Candidate', 'Ratio [interval]', 'Pairs', 'Checks'])
    const throughput = shown.read[1].rows.find(r => r.metric === 'output_tokens_per_second')!
    expect(throughput.cells).toEqual(['output_tokens_per_second', '4000 tok/s', '6400 tok/s', '1.600× [1.520, 1.680]', '3', '≥ 1.3×: pass'])
    expect(throughput.checks).toEqual(['check pass'])
    const ttft = shown.read[1].rows.find(r => r.metric === 'ttft_ms.p99')!
    expect(ttft.cells.slice(1, 4)).toEqual(['300 ms', '200 ms', '0.667× [0.550, 0.800]'])
    expect(ttft.cells[5]).toBe('≤ 0.9×: inconclusive')
    expect(ttft.verdict).toBe('inconclusive')
    const errors = shown.read[1].rows.find(r => r.metric === 'error_rate')!
    expect(errors.cells.slice(1, 4)).toEqual(['0%', '2%', '—'])
    expect(errors.verdict).toBe('fail')
    // Level 1 has a ratio but no check.
    expect(shown.read[0].rows).toEqual([
      {
        metric: 'output_tokens_per_second',
        verdict: 'info',
        cells: ['output_tokens_per_second', '100 tok/s', '160 tok/s', '1.600× [1.400, 1.800]', '3', '—'],
        checks: []
      }
    ])
    // The whole section is text: the raw JSON dump is gone, and payloads in the reasons, notes
    // and headline are shown as written and never run.
    expect(shown.text).not.toContain('"requests_per_block"')
    expect(shown.text).toContain(`ttft_ms.p99 at concurrency 64: ${PAYLOAD}`)
    expect(shown.text.split(PAYLOAD).length - 1).toBeGreaterThanOrEqual(3)
    expect(shown.pwned).toBeUndefined()
  })

  test('a skipped load half says why and shows no table', async () => {
    const shown = await open(
      makeReport({ load: makeLoadReport({ skipped: `baseline unreachable ${PAYLOAD}` }) }),
      () => document.querySelectorAll('#load table').length
    )
    expect(shown.read).toBe(0)
    expect(shown.text).toContain(`baseline unreachable ${PAYLOAD}`)
    expect(shown.pwned).toBeUndefined()
  })

  test('the load settings line says whether the blocks alternated: interleaved A B B A, or each side in its own period', async () => {
    const settingsLine = (): string => document.querySelector('#load p.settings')?.textContent ?? ''
    const interleaved = await open(makeReport({ load: makeLoadReport({ interleaved: true }) }), settingsLine)
    expect(interleaved.read).toContain('interleaved A B B A')
    const periods = await open(makeReport({ load: makeLoadReport({ interleaved: false }) }), settingsLine)
    expect(periods.read).toContain('not interleaved: each side measured in its own period')
    expect(periods.read).not.toContain('A B B A')
  })

  // Ranges where fixed min / 0 / max ticks fell on one another: every interval below zero (max is
  // 0), a hair-thin range around zero, a wide one, and many comparisons of mixed sign.
  const RANGES: [string, Partial<Comparison>[]][] = [
    ['all below zero', [{ delta: -0.03, ci: { level: 0.95, low: -0.045, high: -0.012, method: 'bootstrap' }, max_drop: 0.05 }]],
    ['thin around zero', [{ delta: 0.0001, ci: { level: 0.95, low: -0.0002, high: 0.0003, method: 'bootstrap' }, max_drop: 0.0004 }]],
    ['wide', [{ delta: 3, ci: { level: 0.95, low: -20, high: 40, method: 'bootstrap' }, max_drop: 25 }]],
    [
      'mixed, lower is better',
      [
        { delta: 0.01, ci: { level: 0.95, low: 0.002, high: 0.02, method: 'bootstrap' }, max_drop: 0.015, direction: 'lower' },
        { delta: -0.2, ci: { level: 0.95, low: -0.31, high: -0.1, method: 'bootstrap' }, max_drop: 0.05, run: 'other:x=1' }
      ]
    ]
  ]

  test.each(RANGES)('the plot axis labels never overlap and stay inside the plot (%s)', async (_name, rows) => {
    const comparisons = rows.map((over, i) => makeComparison({ ...over, run: over.run ?? `run${i}:x=${i}` }))
    const shown = await open(makeReport({ comparisons }), () => {
      const svgBox = document.querySelector('#forest')!.getBoundingClientRect()
      return {
        svg: { left: svgBox.left, right: svgBox.right },
        labels: [...document.querySelectorAll('#forest text.axis')].map(t => {
          const box = t.getBoundingClientRect()
          return {
            text: t.textContent,
            value: Number(t.getAttribute('data-value')),
            left: box.left,
            right: box.right,
            top: box.top,
            bottom: box.bottom
          }
        })
      }
    })
    expect(shown.problems).toEqual([])
    const { labels, svg } = shown.read
    expect(labels.length).toBeGreaterThanOrEqual(2)
    for (let i = 0; i < labels.length; i++) {
      expect(labels[i].left).toBeGreaterThanOrEqual(svg.left)
      expect(labels[i].right).toBeLessThanOrEqual(svg.right)
      for (let j = i + 1; j < labels.length; j++) {
        const a = labels[i]
        const b = labels[j]
        const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
        if (overlap) throw new Error(`axis labels ${a.text} and ${b.text} overlap: ${JSON.stringify([a, b])}`)
      }
    }
    // Each label names the value at its position, and the values increase left to right.
    for (let i = 1; i < labels.length; i++) expect(labels[i].value).toBeGreaterThan(labels[i - 1].value)
    for (const label of labels) expect(Number(label.text)).toBeCloseTo(label.value, 10)
  })
})
