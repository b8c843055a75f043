/**
 * report.html's sequential verdicts in a real browser (headless Chromium): a gate file with
 * `sequential:` over the real HELM 0.5.16 fixture runs, its stages replayed from the runs'
 * per-instance values by the staged loop itself (src/sequential/staged-gate.ts) and applied to
 * the report as a run applies them. The section draws one SVG per sequential row (band, margin,
 * zero line, stop, axis labels), says where each stopped and what it spent, keeps a run name
 * with markup as text, is absent on a fixed gate's report, and does not scroll sideways at 1280 px.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'puppeteer-core'
import { parseGateConfig } from '../../../src/config/load.js'
import { compareOutputs } from '../../../src/gate/compare.js'
import { renderHtml } from '../../../src/report/html.js'
import type { Report } from '../../../src/model/report.js'
import { applyStoppedChecks } from '../../../src/runner/staged-quality.js'
import { checkKey, readStage } from '../../../src/runner/staged-runs.js'
import { runStagedGate, type StageReading } from '../../../src/sequential/staged-gate.js'
import { planStages } from '../../../src/sequential/stages.js'
import { launchChromium, type BrowserSession } from '../../../test-support/browser/chromium.js'
import { ALTERED_SUITE, BASELINE_SUITE } from '../../helm/read/fixtures.js'

const PAYLOAD = '<img src=x onerror="window.__pwned = 1">'
const LOOKS = [4, 7, 10]

// The fixture's 10 instances: the altered candidate is right on 7 the baseline got wrong, which
// clears a tolerated drop of 0.5 early; finish_reason_stop is 0 on both sides, a difference of
// exactly 0 that no look separates from a margin of 0: it runs to the budget.
const GATE = `runs:
  - {entry: simple_mcqa, metric: exact_match, max_drop: 0.5}
  - {entry: simple_mcqa, metric: finish_reason_stop, max_drop: 0}
sequential: {looks: [${LOOKS.join(', ')}], alpha: 0.05, seed: 0}
statistics: {resamples: 500}
`

/** Stage k holds the first look_k instances of the real runs (sorted ids), both sides. */
function fixtureStages(full: StageReading) {
  return async (index: number, entries: readonly string[]): Promise<StageReading> => {
    const look = LOOKS[index - 1]
    return new Map(
      entries.map(entry => {
        const sides = full.get(entry)!
        const held = [...sides.baseline.ids].sort().slice(0, look)
        return [entry, { baseline: { ids: held, values: sides.baseline.values }, candidate: { ids: held, values: sides.candidate.values } }]
      })
    )
  }
}

async function sequentialReport(): Promise<{ fixed: Report; staged: Report }> {
  const config = parseGateConfig(GATE, 'gate.yml')
  const fixed = await compareOutputs(BASELINE_SUITE, ALTERED_SUITE, config)
  const staged = await compareOutputs(BASELINE_SUITE, ALTERED_SUITE, config)
  const full = await readStage(config, ['simple_mcqa'], { baseline: BASELINE_SUITE, candidate: ALTERED_SUITE })
  const n = full.get('simple_mcqa')!.baseline.ids.length
  const plan = planStages({ entry: 'simple_mcqa', evalInstances: n, comparedInstances: n }, { looks: LOOKS, budget: n })
  const outcome = await runStagedGate({
    plans: [plan],
    checks: config.runs.map(run => ({
      key: checkKey(config, run),
      entry: run.entry,
      metric: run.metric,
      margin: run.maxDrop ?? 0,
      direction: run.direction
    })),
    alpha: 0.05,
    seed: 0,
    runStage: fixtureStages(full)
  })
  return { fixed, staged: applyStoppedChecks(staged, config, outcome.checks) }
}

describe('report.html: sequential verdicts in headless Chromium', () => {
  let session: BrowserSession
  let report: Report
  let dir: string
  let page: Page
  let fixedPage: Page
  let problems: string[]

  beforeAll(async () => {
    const { fixed, staged } = await sequentialReport()
    report = staged
    report.comparisons.find(c => c.sequential)!.run = `simple_mcqa${PAYLOAD}`
    dir = mkdtempSync(join(tmpdir(), 'helm-gate-html-sequential-'))
    writeFileSync(join(dir, 'report.html'), renderHtml(report, new Map()))
    writeFileSync(join(dir, 'fixed.html'), renderHtml(fixed, new Map()))
    session = await launchChromium()
    ;({ page, problems } = await session.page(1280))
    await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load' })
    ;({ page: fixedPage } = await session.page(1280))
    await fixedPage.goto(pathToFileURL(join(dir, 'fixed.html')).href, { waitUntil: 'load' })
  }, 120_000)

  afterAll(async () => {
    await session?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('the staged replay gives one row that stops early and one that runs to the budget', () => {
    const rows = report.comparisons.filter(c => c.sequential)
    expect(rows.map(c => [c.metric, c.sequential!.certain])).toEqual([
      ['exact_match', true],
      ['finish_reason_stop', false]
    ])
    expect(rows[0].sequential!.stopped_at).toBeLessThan(rows[0].sequential!.budget)
    expect(rows[1].sequential!.stopped_at).toBe(rows[1].sequential!.budget)
  })

  test('draws one plot per sequential row with its band, margin, zero line, stop and axis labels', async () => {
    const plots = await page.$$eval('#sequential svg.sequence', svgs =>
      svgs.map(s => ({
        stoppedAt: Number(s.getAttribute('data-stopped-at')),
        looks: s.querySelectorAll('.seq-look').length,
        band: s.querySelectorAll('polygon.seq-band').length,
        margin: s.querySelector('.seq-margin')?.getAttribute('stroke-dasharray') ?? null,
        marginLabel: s.querySelector('.seq-margin-label')?.textContent ?? '',
        zero: s.querySelectorAll('.seq-zero').length,
        stop: Number(s.querySelector('.seq-stop')?.getAttribute('data-n')),
        stopLabel: s.querySelector('.seq-stop-label')?.textContent ?? '',
        xLabel: s.querySelector('.seq-x-label')?.textContent ?? '',
        yLabel: s.querySelector('.seq-y-label')?.textContent ?? '',
        xTicks: [...s.querySelectorAll('.seq-x-tick')].map(t => t.textContent),
        title: s.querySelector('title')?.textContent ?? ''
      }))
    )
    const rows = report.comparisons.filter(c => c.sequential)
    expect(plots).toHaveLength(2)
    plots.forEach((plot, i) => {
      const s = rows[i].sequential!
      expect(plot.stoppedAt).toBe(s.stopped_at)
      expect(plot.stop).toBe(s.stopped_at)
      expect(plot.looks).toBe(s.looks.length)
      expect(plot.band).toBe(1)
      expect(plot.margin).toBe('5 3')
      expect(plot.zero).toBe(1)
      expect(plot.xLabel).toBe('n (instances compared on both sides)')
      expect(plot.yLabel).toBe('Δ = candidate − baseline')
      expect(plot.xTicks[0]).toBe('0')
      expect(plot.title).toContain(`${rows[i].run} ${rows[i].metric}`)
    })
    expect(plots[0].stopLabel).toBe(`stop: n = ${rows[0].sequential!.stopped_at}, pass`)
    expect(plots[1].stopLabel).toBe('budget: n = 10, inconclusive')
    expect(plots.map(plot => plot.marginLabel)).toEqual(['margin −0.5', 'margin 0'])
  })

  test('says where each row stopped and what it spent, the run name as text', async () => {
    const lines = await page.$$eval('#sequential .sequence-row', boxes =>
      boxes.map(b => [...b.querySelectorAll('h3, p')].map(p => (p as HTMLElement).innerText.trim()))
    )
    const [early, budget] = report.comparisons.filter(c => c.sequential).map(c => c.sequential!)
    expect(lines[0][0]).toBe(`simple_mcqa${PAYLOAD} exact_match`)
    expect(lines[0][1]).toBe(`pass: stopped early at n = ${early.stopped_at} of 10 (certain)`)
    expect(lines[0][2]).toBe(`${early.requests_spent} instance requests spent on both sides (the fixed design: 20).`)
    expect(lines[1][1]).toBe('inconclusive: ran to the budget (n = 10): inconclusive')
    expect(lines[1][2]).toBe(`${budget.requests_spent} instance requests spent on both sides (the fixed design: 20).`)
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(await page.$$eval('#sequential img', imgs => imgs.length)).toBe(0)
  })

  test('is absent on a fixed gate and does not scroll sideways at 1280 px', async () => {
    expect(await fixedPage.$$eval('#sequential', boxes => boxes.length)).toBe(0)
    expect(await fixedPage.$$eval('svg.sequence', svgs => svgs.length)).toBe(0)
    const width = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      plot: Math.max(...[...document.querySelectorAll('svg.sequence')].map(s => s.getBoundingClientRect().right))
    }))
    expect(width.scroll).toBeLessThanOrEqual(width.client)
    expect(width.plot).toBeLessThanOrEqual(width.client)
    expect(problems).toEqual([])
  })
})
