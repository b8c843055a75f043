/**
 * report.html's holistic grid in a real browser (headless Chromium): one row per run entry with a
 * cell per family, each cell's state and reason as text, required cells marked, an entry name
 * carrying markup shown as text, and no sideways scroll at 1280 px.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'puppeteer-core'
import { parseGateConfig } from '../../../src/config/load.js'
import { compareOutputs } from '../../../src/gate/compare.js'
import { withHolisticGrid } from '../../../src/holistic/grid.js'
import { renderHtml } from '../../../src/report/html.js'
import type { Report } from '../../../src/model/report.js'
import { launchChromium, type BrowserSession } from '../../../test-support/browser/chromium.js'
import { ALTERED_SUITE, BASELINE_SUITE } from '../../helm/read/fixtures.js'

const PAYLOAD = '<img src=x onerror="window.__pwned = 1">'

describe('report.html: the holistic grid in headless Chromium', () => {
  let session: BrowserSession
  let report: Report
  let dir: string
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    const config = parseGateConfig(
      `runs:
  - {entry: simple_mcqa, metric: exact_match, max_drop: 0.5}
  - {entry: "simple_mcqa:data_augmentation=robustness", metric: exact_match, max_drop: 0.5, perturbations: gate}
require: [accuracy]
statistics: {resamples: 500}
`,
      'gate.yml'
    )
    report = withHolisticGrid(await compareOutputs(BASELINE_SUITE, ALTERED_SUITE, config), config)
    report.holistic!.rows[0].entry = `simple_mcqa${PAYLOAD}`
    dir = mkdtempSync(join(tmpdir(), 'helm-gate-html-grid-'))
    const file = join(dir, 'report.html')
    writeFileSync(file, renderHtml(report, new Map()))
    session = await launchChromium()
    ;({ page, problems } = await session.page(1280))
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
  }, 120_000)

  afterAll(async () => {
    await session?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('shows one row per entry and a cell per family, with the state and reason as text', async () => {
    const rows = await page.$$eval('#holistic table.holistic tr', trs =>
      trs.map(tr => [...tr.querySelectorAll('th, td')].map(td => (td as HTMLElement).innerText.replace(/\s+/g, ' ').trim()))
    )
    expect(rows[0]).toEqual([
      'Entry',
      'Accuracy *',
      'Calibration',
      'Robustness',
      'Fairness',
      'Bias',
      'Toxicity',
      'Efficiency',
      'Answer length'
    ])
    expect(rows).toHaveLength(3)
    expect(rows[1][0]).toBe(`simple_mcqa${PAYLOAD}`)
    expect(rows[1][1]).toMatch(/^(pass|fail|inconclusive) \(required\) /)
    expect(rows[1][3]).toBe('blank perturbation not configured (data_augmentation=robustness)')
    expect(rows[2][3]).toMatch(/^(pass|fail|inconclusive) \d+ perturbed rows$/)
    expect(rows[1][5]).toContain("HELM's bias metrics are computed over a whole run")
    const cells = report.holistic!.rows.flatMap(r => r.cells)
    expect(await page.$$eval('#holistic td.grid-cell', tds => tds.length)).toBe(cells.length)
    expect(await page.$$eval('#holistic td.grid-cell.blank', tds => tds.length)).toBe(cells.filter(c => c.state === 'blank').length)
    expect(await page.$eval('#holistic', box => (box as HTMLElement).innerText)).toContain(
      'Whole gate, Fidelity: blank: not configured (fidelity:)'
    )
  })

  test('keeps markup from entry names as text and does not scroll sideways', async () => {
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(await page.$$eval('#holistic img', imgs => imgs.length)).toBe(0)
    const width = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth
    }))
    expect(width.scroll).toBeLessThanOrEqual(width.client)
    expect(problems).toEqual([])
  })
})
