/**
 * report.html's fidelity section in headless Chromium: the measurement runs for real against two
 * fake servers answering from known next-token distributions (the candidate's shifted), and the
 * page shows the worst instances token by token (the baseline's token above the candidate's top-1),
 * shaded by delta-p; a token carrying a script payload stays text.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'puppeteer-core'
import { DEFAULT_STATISTICS } from '../../../src/config/types.js'
import { measureFidelity } from '../../../src/fidelity/measure-fidelity.js'
import type { FidelityReport } from '../../../src/model/fidelity-report.js'
import { newReport } from '../../../src/model/report.js'
import { joinPart } from '../../../src/model/join-part.js'
import { fidelityPart } from '../../../src/fidelity/fidelity-part.js'
import { renderHtml } from '../../../src/report/html.js'
import { launchChromium, type BrowserSession } from '../../../test-support/browser/chromium.js'
import { startFakeServer, type FakeServer } from '../../../test-support/fake-openai/harness.js'

const PAYLOAD = '<img src=x onerror="window.__pwned = \'token\'">'

describe('report.html fidelity section in headless Chromium', () => {
  let session: BrowserSession
  let servers: FakeServer[] = []
  let dir: string
  let page: Page
  let problems: string[]
  let fidelity: FidelityReport

  beforeAll(async () => {
    servers = await Promise.all([startFakeServer({ answerKeys: [] }), startFakeServer({ answerKeys: [] })])
    await servers[0].control({ fidelity: 1, fidelityShift: 0 })
    await servers[1].control({ fidelity: 1, fidelityShift: 1.5 })
    const side = (name: 'baseline' | 'candidate', server: FakeServer) => ({
      side: name,
      baseUrl: server.baseUrl,
      model: 'gate-model',
      apiKey: null,
      api: 'chat' as const
    })
    fidelity = await measureFidelity({
      sides: { baseline: side('baseline', servers[0]), candidate: side('candidate', servers[1]) },
      prompts: Array.from({ length: 12 }, (_, i) => ({ id: `p${i}`, text: `Question number ${i}: what comes next?` })),
      settings: {
        instances: 12,
        maxAnswerTokens: 12,
        topK: 5,
        baselineReruns: 1,
        checks: [{ metric: 'kld_mean', bound: 'max', value: 0.02 }],
        requestTimeoutSeconds: 30
      },
      statistics: { ...DEFAULT_STATISTICS, resamples: 1000 }
    })
    // Model text is untrusted: a server could send a token that is markup.
    const shown = structuredClone(fidelity)
    shown.worst[0].tokens![0].baseline = PAYLOAD
    const quality = newReport(DEFAULT_STATISTICS, { verdict: 'pass', headline: 'quality' })
    const report = joinPart(quality, fidelityPart(shown, []), { fidelity: shown })
    dir = mkdtempSync(join(tmpdir(), 'helm-gate-html-fidelity-'))
    const file = join(dir, 'report.html')
    writeFileSync(file, renderHtml(report))
    session = await launchChromium()
    ;({ page, problems } = await session.page(1200))
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
  }, 120_000)

  afterAll(async () => {
    await session?.close()
    await Promise.all(servers.map(s => s.stop()))
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('one check row, verdict first, and the worst instances in order of mean KL', async () => {
    const cells = await page.$$eval('#fidelity table.fidelity-table tbody tr td', nodes => nodes.map(n => n.textContent))
    expect(cells[0]).toBe(fidelity.checks[0].verdict)
    expect(cells[1]).toBe('kld_mean ≤ 0.02')
    const ids = await page.$$eval('#fidelity .fidelity-instance', nodes => nodes.map(n => n.getAttribute('data-id')))
    expect(ids).toEqual(fidelity.worst.map(w => w.id))
    expect(ids.length).toBeGreaterThan(1)
    expect(problems).toEqual([])
  })

  test('each instance shows every position: the baseline token above the candidate top-1, shaded by delta-p', async () => {
    const worst = fidelity.worst[1]
    const pairs = await page.$$eval(`#fidelity .fidelity-instance[data-id="${worst.id}"] .token-pair`, nodes =>
      nodes.map(n => ({
        baseline: n.querySelector('.baseline')?.textContent,
        candidate: n.querySelector('.candidate')?.textContent,
        deltaP: Number(n.getAttribute('data-value')),
        differs: n.classList.contains('differs'),
        background: getComputedStyle(n).backgroundColor
      }))
    )
    const tokens = worst.tokens!
    expect(pairs.map(p => p.baseline)).toEqual(tokens.map(t => t.baseline.replace(/ /g, '␣')))
    expect(pairs.map(p => p.candidate)).toEqual(tokens.map(t => (t.candidate ?? '—').replace(/ /g, '␣')))
    expect(pairs.map(p => p.deltaP)).toEqual(tokens.map(t => t.deltaP))
    expect(pairs.map(p => p.differs)).toEqual(tokens.map(t => t.candidate !== null && t.candidate !== t.baseline))
    // Red where the candidate lowers the baseline token's probability, green where it raises it.
    for (const p of pairs) {
      if (p.deltaP < -0.01) expect(p.background).toMatch(/^rgba\(207, 34, 46,/)
      if (p.deltaP > 0.01) expect(p.background).toMatch(/^rgba\(26, 127, 55,/)
    }
    expect(pairs.some(p => p.deltaP < -0.01)).toBe(true)
  })

  test('a token carrying markup stays text', async () => {
    const first = await page.$eval('#fidelity .fidelity-instance .token-pair .baseline', n => n.textContent)
    expect(first).toBe(PAYLOAD.replace(/ /g, '␣'))
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined()
    expect(await page.$$eval('#fidelity img', nodes => nodes.length)).toBe(0)
  })
})
