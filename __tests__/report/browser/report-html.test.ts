/**
 * report.html in a real browser (headless Chromium): it loads with no console error and no
 * network, the forest plot has one mark per comparison where its delta lies, the table sorts,
 * filters and search change what is shown, and model output carrying script payloads stays text.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'puppeteer-core'
import { compareOutputs } from '../../../src/gate/compare.js'
import { renderHtml } from '../../../src/report/html.js'
import type { ChangedExample, Report } from '../../../src/model/report.js'
import { launchChromium, type BrowserSession } from '../../../test-support/browser/chromium.js'
import { cliConfig } from '../../gate/compare-helpers.js'

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'helm-0.5.16')
const PAYLOADS = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'onerror\'">',
  '</script><script>window.__pwned = "breakout"</script>',
  '<svg onload="window.__pwned = \'svg\'"></svg> \u2028 --> <!--'
]

describe('report.html in headless Chromium', () => {
  let session: BrowserSession
  let report: Report
  let changed: Map<string, ChangedExample[]>
  let dir: string
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    changed = new Map()
    report = await compareOutputs(join(FIXTURES, 'baseline'), join(FIXTURES, 'altered'), cliConfig(2000), {
      defaults: { metric: 'exact_match', split: null, maxDrop: 0.02, maxRelativeDrop: null, direction: 'higher', perturbations: 'report' },
      examples: 1,
      changedAnswers: changed
    })
    // Untrusted text everywhere the page shows text: outputs, input, reference, a run name.
    const first = [...changed.values()].find(list => list.length > 0)!
    first[0].candidate_output = PAYLOADS.join(' ')
    first[0].baseline_output = PAYLOADS[0]
    first[0].input = PAYLOADS[1]
    first[0].reference = PAYLOADS[2]
    report.comparisons[0].run = `${report.comparisons[0].run}${PAYLOADS[3]}`
    // The serving configuration rows (issue 28): a differing chat template is marked.
    report.context = {
      fingerprint: null,
      concurrent: null,
      serving: {
        chat_template: {
          baseline: 'sha256 cd61dc8c18d1 · 81 chars',
          candidate: `chatml · sha256 1e53ec5bf20c · 6 chars ${PAYLOADS[0]}`,
          differs: true
        },
        sampling: { baseline: 'temperature 0.8', candidate: 'temperature 0.8', differs: false }
      }
    }
    // The candidate's requests: one entry at temperature 0.7 (a cell carrying a payload, as text).
    const requested = report.candidate.requested_sampling!
    const [entry] = Object.keys(requested.by_entry)
    report.candidate.requested_sampling = {
      cell: `temperature 0.7 ${PAYLOADS[1]}`,
      by_entry: { ...requested.by_entry, [entry]: { ...requested.by_entry[entry], temperature: 0.7 } }
    }
    // The demo's pair: the same model asked by chat and by completions; the Deployment row is marked.
    report.baseline.identity = { model: 'tiny', host: '127.0.0.1:8001', api: 'chat', engine: null, origin: { kind: 'run' } }
    report.candidate.identity = { model: 'tiny', host: '127.0.0.1:8002', api: 'completions', engine: null, origin: { kind: 'run' } }
    dir = mkdtempSync(join(tmpdir(), 'helm-gate-html-'))
    const file = join(dir, 'report.html')
    writeFileSync(file, renderHtml(report, changed))
    session = await launchChromium()
    ;({ page, problems } = await session.page(1200))
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
  }, 120_000)

  afterAll(async () => {
    await session?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('loads with no console error and no network, and every changed answer is there', async () => {
    expect(problems).toEqual([])
    const total = [...changed.values()].reduce((sum, list) => sum + list.length, 0)
    // More answers than report.json keeps (one per comparison here).
    expect(total).toBeGreaterThan(report.comparisons.filter(c => c.examples.length > 0).length)
    expect(await page.$$eval('#answers .answer', cards => cards.length)).toBe(total)
  })

  test('script payloads in model output, prompts and run names stay text', async () => {
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined()
    expect(await page.$$eval('#answers img, #answers script, #answers svg, #comparisons script', nodes => nodes.length)).toBe(0)
    const text = await page.$eval('#answers', node => node.textContent ?? '')
    for (const payload of PAYLOADS.slice(0, 3)) expect(text).toContain(payload)
    expect(await page.$eval('#comparisons', node => node.textContent ?? '')).toContain('<svg onload=')
  })

  test('the header shows the chat template and sampling rows, the differing one marked', async () => {
    const rows = await page.$$eval('table.sides tr', trs =>
      trs.map(tr => ({ cls: tr.className, cells: [...tr.children].map(c => c.textContent ?? '') }))
    )
    const template = rows.find(r => r.cells[0].startsWith('Chat template'))!
    expect(template.cls).toBe('differs')
    expect(template.cells[0]).toBe('Chat template (differs)')
    expect(template.cells[2]).toContain('chatml · sha256 1e53ec5bf20c')
    const sampling = rows.find(r => r.cells[0].startsWith('Sampling (server defaults)'))!
    expect(sampling).toEqual({ cls: '', cells: ['Sampling (server defaults)', 'temperature 0.8', 'temperature 0.8'] })
  })

  test('the sampling the requests sent: read from the run specs, marked where the candidate sent another temperature', async () => {
    const rows = await page.$$eval('table.sides tr', trs =>
      trs.map(tr => ({ cls: tr.className, cells: [...tr.children].map(c => c.textContent ?? '') }))
    )
    const labels = rows.map(r => r.cells[0])
    expect(labels.indexOf('Sampling (requests) (differs)')).toBe(labels.indexOf('Chat template (differs)') + 1)
    expect(rows.find(r => r.cells[0].startsWith('Sampling (requests)'))).toEqual({
      cls: 'differs',
      cells: ['Sampling (requests) (differs)', 'varies by run entry', `temperature 0.7 ${PAYLOADS[1]}`]
    })
  })

  test('a differing deployment (chat against completions) is marked like the chat template', async () => {
    const rows = await page.$$eval('table.sides tr', trs =>
      trs.map(tr => ({ cls: tr.className, cells: [...tr.children].map(c => c.textContent ?? '') }))
    )
    expect(rows.find(r => r.cells[0].startsWith('Deployment'))).toEqual({
      cls: 'differs',
      cells: ['Deployment (differs)', 'tiny on 127.0.0.1:8001 (chat)', 'tiny on 127.0.0.1:8002 (completions)']
    })
  })

  test('the forest plot has one mark per comparison at its delta', async () => {
    const plot = await page.$eval('#forest', svg => ({
      min: Number(svg.getAttribute('data-min')),
      max: Number(svg.getAttribute('data-max')),
      left: Number(svg.getAttribute('data-left')),
      width: Number(svg.getAttribute('data-width')),
      marks: [...svg.querySelectorAll('circle.mark')].map(m => ({ id: m.getAttribute('data-id'), cx: Number(m.getAttribute('cx')) }))
    }))
    expect(plot.marks).toHaveLength(report.comparisons.length)
    for (const c of report.comparisons) {
      const mark = plot.marks.find(m => m.id === c.id)
      expect(mark).toBeDefined()
      expect(mark!.cx).toBeCloseTo(plot.left + ((c.delta - plot.min) / (plot.max - plot.min)) * plot.width, 6)
      // The interval lies inside the plotted domain.
      expect(c.ci.low).toBeGreaterThanOrEqual(plot.min)
      expect(c.ci.high).toBeLessThanOrEqual(plot.max)
    }
  })

  test('the table sorts by a column when its header is clicked', async () => {
    const deltas = async (): Promise<number[]> =>
      (await page.$$eval('#comparisons tbody tr', rows => rows.map(r => r.getAttribute('data-id')))).map(
        id => report.comparisons.find(c => c.id === id)!.delta
      )
    await page.click('#comparisons th[data-column="8"]')
    const ascending = await deltas()
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b))
    await page.click('#comparisons th[data-column="8"]')
    const descending = await deltas()
    expect(descending).toEqual([...ascending].reverse())
  })

  test('filters and search change what is shown', async () => {
    const count = (selector: string): Promise<number> => page.$$eval(selector, nodes => nodes.length)
    const allCards = await count('#answers .answer')
    const allRows = await count('#comparisons tbody tr')

    await page.select('#filter-direction', 'lost')
    const lost = await page.$$eval('#answers .answer', cards => cards.map(c => c.className))
    expect(lost.length).toBeLessThan(allCards)
    for (const name of lost) expect(name).toContain('lost')
    await page.select('#filter-direction', '')

    const run = report.comparisons[report.comparisons.length - 1].run
    await page.select('#filter-run', run)
    expect(await count('#comparisons tbody tr')).toBe(report.comparisons.filter(c => c.run === run).length)
    expect(await count('#forest circle.mark')).toBe(report.comparisons.filter(c => c.run === run).length)
    await page.select('#filter-run', '')
    expect(await count('#comparisons tbody tr')).toBe(allRows)

    await page.select('#filter-perturbation', '(clean)')
    expect(await count('#comparisons tbody tr')).toBe(report.comparisons.filter(c => c.perturbation === null).length)
    await page.select('#filter-perturbation', '')

    const someId = [...changed.values()].flat()[1].instance_id
    await page.type('#filter-search', someId)
    const found = await page.$$eval('#answers .answer', cards => cards.map(c => c.getAttribute('data-instance')))
    expect(found.length).toBeGreaterThan(0)
    expect(found.length).toBeLessThan(allCards)
    for (const id of found) expect(id).toBe(someId)
    expect(problems).toEqual([])
  })
})
