/**
 * report.html with traffic rows in headless Chromium: changed answers show the conversation, both
 * answers and the failed structural check, a stratum filter narrows them, and prompts and model
 * output carrying script payloads stay text.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'puppeteer-core'
import { DEFAULT_CHECK_MARGINS, DEFAULT_REFUSAL_PATTERNS, type TrafficSettings } from '../../../src/config/traffic.js'
import { DEFAULT_STATISTICS } from '../../../src/config/types.js'
import { newReport } from '../../../src/model/report.js'
import type { TrafficInstance } from '../../../src/config/traffic-set.js'
import { renderHtml } from '../../../src/report/html.js'
import type { Answer } from '../../../src/replay/answer-checks.js'
import { judgeTraffic } from '../../../src/replay/judge.js'
import { launchChromium, type BrowserSession } from '../../../test-support/browser/chromium.js'

const SET = join(import.meta.dirname, '..', '..', 'fixtures', 'traffic', 'support-120.jsonl')
const PAYLOAD = '<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned = \'img\'">'

describe('report.html with traffic rows in headless Chromium', () => {
  let session: BrowserSession
  let dir: string
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    const instances = readFileSync(SET, 'utf8')
      .trim()
      .split('\n')
      .map(line => JSON.parse(line) as TrafficInstance)
    // A prompt carrying a payload (prompts are untrusted too).
    instances[4].request.messages[1].content = `${PAYLOAD} where is my parcel?`
    const base = (i: number): Answer => {
      const json = instances[i].request.response_format !== undefined
      return { content: json ? '{"category": "billing", "urgent": false}' : `Answer ${i}.`, tool_calls: null, finish_reason: 'stop' }
    }
    const b1 = instances.map((_, i) => base(i))
    // The candidate breaks JSON mode on every JSON request, with a payload in its output.
    const c = instances.map((inst, i) =>
      inst.request.response_format !== undefined ? { content: `${PAYLOAD} {"category":`, tool_calls: null, finish_reason: 'stop' } : base(i)
    )
    const traffic: TrafficSettings = {
      set: 'support-120.jsonl',
      setSha256: '0'.repeat(64),
      instances,
      baselineReruns: 1,
      temperature: 0,
      similarity: 'token_f1',
      ignoreCase: false,
      checks: { ...DEFAULT_CHECK_MARGINS },
      refusalPatterns: DEFAULT_REFUSAL_PATTERNS,
      concurrency: 1,
      requestTimeoutSeconds: 1
    }
    const judged = judgeTraffic(instances, { b1, b2: b1, c }, traffic, { ...DEFAULT_STATISTICS, resamples: 1000 }, 3)
    const report = newReport(DEFAULT_STATISTICS, { verdict: 'fail', headline: 'traffic', comparisons: judged.comparisons })
    dir = mkdtempSync(join(tmpdir(), 'helm-gate-html-traffic-'))
    const file = join(dir, 'report.html')
    writeFileSync(file, renderHtml(report, judged.changed))
    session = await launchChromium()
    ;({ page, problems } = await session.page(1200))
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
  }, 120_000)

  afterAll(async () => {
    await session?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('changed answers show the conversation, both answers and the failed check; payloads stay text', async () => {
    const labels = await page.$$eval('#answers .answer .label', nodes => nodes.map(n => n.textContent))
    expect(labels).toEqual(expect.arrayContaining(['Input', 'Failed check', 'Baseline output', 'Candidate output']))
    const text = await page.$eval('#answers', node => node.textContent ?? '')
    expect(text).toContain('candidate: invalid JSON: does not parse')
    expect(text).toContain('system: You are the support assistant of Acme Parcel.')
    expect(text).toContain('<script>window.__pwned')
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined()
    expect(problems).toEqual([])
  })

  test('a stratum filter narrows the changed answers', async () => {
    const count = (): Promise<number> => page.$$eval('#answers .answer', nodes => nodes.length)
    const all = await count()
    const strata = await page.$$eval('#filter-stratum option', nodes => nodes.map(n => (n as HTMLOptionElement).value).filter(Boolean))
    expect(strata.length).toBeGreaterThan(1)
    await page.select('#filter-stratum', strata[0])
    const heads = await page.$$eval('#answers .answer .answer-head', nodes => nodes.map(n => n.textContent ?? ''))
    expect(heads.length).toBeGreaterThan(0)
    expect(heads.length).toBeLessThan(all)
    for (const head of heads) expect(head).toContain(`[${strata[0]}]`)
    await page.select('#filter-stratum', '')
    expect(await count()).toBe(all)
  })
})
