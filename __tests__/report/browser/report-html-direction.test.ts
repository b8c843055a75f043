/**
 * report.html with a calibration row and the direction of a change in headless Chromium: the
 * calibration table and the direction (p under the comparisons table's counts, one sentence per
 * row whose answers moved) are visible with their text, and a run name carrying a payload stays text.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'puppeteer-core'
import type { CalibrationRow } from '../../../src/model/report.js'
import { renderHtml } from '../../../src/report/html.js'
import { launchChromium, type BrowserSession } from '../../../test-support/browser/chromium.js'
import { makeComparison, makeReport } from '../make-report.js'

const PAYLOAD = '<img src=x onerror="window.__pwned = 1">'

const calibration: CalibrationRow = {
  run: 'simple_mcqa',
  metric: 'ece',
  split: 'test',
  n: 79,
  pairs: 79,
  baseline: 0.0165,
  candidate: 0.3065,
  delta: 0.29,
  ci: { level: 0.95, low: 0.21, high: 0.37, method: 'cluster-bootstrap' },
  max_increase: 0.05,
  gated: true,
  verdict: 'fail',
  n_needed: null,
  reason: 'The whole interval lies above the tolerated rise.'
}

describe('report.html with calibration and direction in headless Chromium', () => {
  let session: BrowserSession
  let dir: string
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    const churn = makeComparison({
      id: 'churn',
      run: `simple_mcqa${PAYLOAD}:model=base`,
      wins: 17,
      losses: 15,
      p_value: 0.86,
      change_direction: {
        kind: 'churn',
        pairs: 79,
        won: 17,
        lost: 15,
        p_value: 0.86,
        margin: { by: 'max_prob', sure_at: 0.8, sure: { won: 0, lost: 0 }, unsure: { won: 17, lost: 15 } },
        margin_reason: null,
        sentence: 'moved 32 answers: 17 won, 15 lost (McNemar p = 0.86): churn, not a drop; 0 of the lost where the baseline was sure'
      }
    })
    const plain = makeComparison({
      id: 'plain',
      run: 'synthetic_reasoning:model=base',
      metric: 'f1_score',
      binary: false,
      change_direction: { kind: 'absent', reason: 'f1_score is not 0 or 1 on every instance' }
    })
    const report = makeReport({ verdict: 'fail', comparisons: [churn, plain], calibrations: [calibration] })
    dir = mkdtempSync(join(tmpdir(), 'helm-gate-html-direction-'))
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

  /** The element's text when it is drawn (a box of its own, inside the page's width), else null. */
  const visibleText = (selector: string): Promise<string | null> =>
    page.$eval(selector, node => {
      const box = node.getBoundingClientRect()
      const shown = box.width > 0 && box.height > 0 && box.right <= document.documentElement.clientWidth
      return shown && getComputedStyle(node).visibility !== 'hidden' ? (node.textContent ?? '') : null
    })

  test('the calibration row is visible with its verdict, rise and interval', async () => {
    const cells = await page.$$eval('#calibration table tr.fail td', nodes => nodes.map(n => n.textContent))
    expect(cells).toEqual(['fail', 'simple_mcqa', 'ECE (10 bins)', '+0.2900 [+0.2100, +0.3700]', '+0.0500', '0.0165 → 0.3065', '79'])
    expect(await visibleText('#calibration table tr.fail')).not.toBeNull()
  })

  test('the direction is under the counts of its row and in a sentence; a row without one shows none', async () => {
    const counts = await page.$eval('#comparisons tr[data-id="churn"] td:last-child', node => node.textContent)
    expect(counts).toBe('+17 / -15(p 0.86)')
    expect(await visibleText('#comparisons tr[data-id="churn"] .direction-p')).toBe('(p 0.86)')
    expect(await page.$eval('#comparisons tr[data-id="plain"] td:last-child', node => node.textContent)).toBe('+12 / -11')
    const sentence = await visibleText('#direction li[data-id="churn"]')
    expect(sentence).toContain(`simple_mcqa${PAYLOAD}`)
    expect(sentence).toContain(
      'moved 32 answers: 17 won, 15 lost (McNemar p = 0.86): churn, not a drop; 0 of the lost where the baseline was sure ' +
        '(sure: +0 / -0; not sure: +17 / -15; sure is max_prob ≥ 0.8)'
    )
    expect(await page.$$eval('#direction li', nodes => nodes.length)).toBe(1)
    // Nothing the direction adds widens the page past the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0)
  })

  test('the payload in the run name stayed text and nothing went wrong', async () => {
    expect(await page.$$eval('#direction img, #comparisons img', nodes => nodes.length)).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(problems).toEqual([])
  })
})
