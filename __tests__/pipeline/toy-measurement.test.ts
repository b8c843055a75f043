/**
 * A toy measurement written only against the interface (model/measurement-part.ts, config/sections.ts,
 * model/measurement.ts): its gate-file section, its `plan` lines, its part of the report. Handed to the
 * real loops (config loading, plan's lines, the console, the comment, report.html in headless
 * Chromium, the decision line), it shows in each without a line of theirs naming it.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseGateConfig } from '../../src/config/load.js'
import { DEFAULT_STATISTICS, type GateConfig } from '../../src/config/types.js'
import { ConfigError } from '../../src/errors.js'
import { joinPart } from '../../src/model/join-part.js'
import type { SideMeasurement } from '../../src/model/measurement.js'
import type { MeasurementDefinition, ReportPart } from '../../src/model/measurement-part.js'
import { newReport, type Report } from '../../src/model/report.js'
import { gateSections, measurementPlanLines } from '../../src/pipeline/measurement-definitions.js'
import { renderConsole } from '../../src/report/console.js'
import { decide } from '../../src/report/decision.js'
import { renderHtml } from '../../src/report/html.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { renderJson } from '../../src/report/json.js'
import { launchChromium, type BrowserSession } from '../../test-support/browser/chromium.js'

interface WobbleSettings {
  maxWobble: number
}

/** The toy: each side's "wobble" is measured; the candidate's may not exceed `max_wobble`. */
const WOBBLE: MeasurementDefinition = {
  key: 'wobble',
  section: {
    key: 'wobble',
    parse(fields) {
      fields.allow(['max_wobble'])
      const maxWobble = fields.number('max_wobble', undefined, n => n > 0 && n < 1, 'a number between 0 and 1')
      fields.done()
      return { maxWobble } satisfies WobbleSettings
    }
  },
  async planLines(config) {
    const s = config.sections?.wobble as WobbleSettings | undefined
    return s ? [`# wobble: the candidate's wobble at most ${s.maxWobble}`] : []
  }
}

class WobbleRun implements SideMeasurement {
  readonly name = 'wobble'
  constructor(
    private readonly settings: WobbleSettings,
    private readonly measured: number
  ) {}
  async hold(): Promise<void> {}
  async holdAlwaysUp(): Promise<void> {}
  attach(report: Report): Report {
    const verdict = this.measured <= this.settings.maxWobble ? 'pass' : 'fail'
    const figure = `wobble ${this.measured}, needs ≤ ${this.settings.maxWobble}`
    const part: ReportPart = {
      key: 'wobble',
      title: 'Wobble',
      verdict,
      summary: verdict === 'pass' ? '1 of 1 check passed' : '0 of 1 check passed',
      decision:
        verdict === 'pass'
          ? { deciding: 'wobble 1/1 checks passed', beside: 'wobble 1/1 checks passed' }
          : { deciding: `wobble (${figure})`, beside: `wobble fail (${figure})` },
      tables: [
        {
          columns: ['verdict', 'check', 'value'],
          numeric: [2],
          rows: [[verdict, 'wobble ≤ 0.1', String(this.measured)]],
          verdicts: [verdict]
        }
      ],
      lines: ['Wobble was measured on both sides <b>as text</b>.'],
      errors: []
    }
    return joinPart(report, part)
  }
}

const GATE = (section: string): string => `
version: 1
deployments:
  baseline: { api: chat, base_url: http://127.0.0.1:8001/v1/, model: m }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1/, model: m }
runs:
  - { entry: "mmlu:subject=anatomy", metric: exact_match, max_drop: 0.02 }
${section}
`

function load(section: string, sections = gateSections([WOBBLE])): GateConfig {
  return parseGateConfig(GATE(section), 'helm-gate.yaml', { sections })
}

/** The quality half passed; the toy's part joined by its own attach. */
function reportWith(measured: number): Report {
  const config = load('wobble:\n  max_wobble: 0.1')
  const quality = newReport(DEFAULT_STATISTICS, { verdict: 'pass', headline: 'The quality half passes.' })
  return new WobbleRun(config.sections?.wobble as WobbleSettings, measured).attach(quality) as Report
}

describe('a toy measurement written only against the interface', () => {
  test('config loading reads its section, and bad input names file, field and value', () => {
    expect(load('wobble:\n  max_wobble: 0.1').sections?.wobble).toEqual({ maxWobble: 0.1 })
    expect(load('').sections).toBeUndefined()
    let error: unknown
    try {
      load('wobble:\n  max_wobble: 7')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).location).toMatchObject({ file: 'helm-gate.yaml', field: 'wobble.max_wobble', value: 7 })
    // Without the definition in the list, the key is an unknown one (a typo is never a silent pass).
    expect(() => load('wobble:\n  max_wobble: 0.1', [])).toThrow(/wobble/)
  })

  test('plan prints its lines', async () => {
    const config = load('wobble:\n  max_wobble: 0.1')
    const lines = await measurementPlanLines(config, { env: {}, endpoints: { baseline: null, candidate: null } }, [WOBBLE])
    expect(lines).toEqual(["# wobble: the candidate's wobble at most 0.1"])
  })

  test('the decision line names it beside the quality half, first when it decides', () => {
    expect(decide(reportWith(0.05)).line).toBe('Pass: quality 0/0 passed; wobble 1/1 checks passed')
    const failed = decide(reportWith(0.4))
    expect(failed).toMatchObject({ verdict: 'fail', decidedBy: 'wobble' })
    expect(failed.line).toBe('Fail: wobble (wobble 0.4, needs ≤ 0.1); quality 0/0 passed')
  })

  test('report.json keeps quality its own and the part apart', () => {
    const report = reportWith(0.4)
    expect(report.verdict).toBe('fail')
    expect(report.quality?.verdict).toBe('pass')
    expect(report.parts?.map(p => [p.key, p.verdict])).toEqual([['wobble', 'fail']])
  })

  test('the console prints its table and its verdict', () => {
    const text = renderConsole(reportWith(0.4), { color: false })
    expect(text).toMatch(/^Wobble: Fail \(0 of 1 check passed\)$/m)
    expect(text).toMatch(/^fail +wobble ≤ 0\.1 +0\.4$/m)
    expect(text).toMatch(/Overall: FAIL: wobble \(wobble 0\.4, needs ≤ 0\.1\); quality 0\/0 passed/)
  })

  test('the comment shows its section, escaped', () => {
    const text = renderMarkdown(reportWith(0.4), { maxLength: 60000 })
    expect(text).toContain('### ❌ Wobble: Fail (0 of 1 check passed)')
    expect(text).toContain('| ❌ fail | wobble ≤ 0.1 | 0\\.4 |')
    expect(text).not.toContain('<b>')
  })

  describe('report.html in headless Chromium', () => {
    let session: BrowserSession
    let dir: string
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'helm-gate-toy-'))
      writeFileSync(join(dir, 'report.html'), renderHtml(reportWith(0.4)))
      session = await launchChromium()
    }, 120_000)
    afterAll(async () => {
      await session?.close()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    test('shows its section with its table, and its text stays text', async () => {
      const { page, problems } = await session.page(1280)
      await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load' })
      expect(await page.$eval('#wobble h2', n => n.textContent)).toBe('Wobble')
      const cells = await page.$$eval('#wobble table tbody td', nodes => nodes.map(n => n.textContent))
      expect(cells).toEqual(['fail', 'wobble ≤ 0.1', '0.4'])
      expect(await page.$$eval('#wobble b', nodes => nodes.length)).toBe(0)
      expect(problems).toEqual([])
    })
  })
})

describe("the toy's part in report.json", () => {
  test('is written in the model order and read back as it was', () => {
    const report = reportWith(0.4)
    const text = renderJson(report)
    const keys = Object.keys(JSON.parse(text) as Record<string, unknown>)
    expect(keys.indexOf('parts')).toBe(keys.indexOf('quality') + 1)
    expect((JSON.parse(text) as Report).parts).toEqual(report.parts)
  })
})
