/**
 * The PR comment as a reviewer sees it: report.md rendered by GitHub's parser (cmark-gfm) with
 * GitHub's stylesheet, in headless Chromium at the width of a pull-request conversation. Every
 * row's verdict and interval must be visible without horizontal scrolling.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { join } from 'node:path'
import { compareOutputs } from '../../../src/gate/compare.js'
import { renderMarkdown } from '../../../src/report/markdown.js'
import type { Report } from '../../../src/model/report.js'
import { githubMarkdownCss, launchChromium, renderGfm, type BrowserSession } from '../../../test-support/browser/chromium.js'
import { cliConfig } from '../../gate/compare-helpers.js'
import { makeComparison, makeEfficiency, makeReport } from '../make-report.js'
import { makeLoadReport } from '../make-load-report.js'

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'helm-0.5.16')
/** A pull-request conversation column, comment padding included. */
const PR_WIDTH = 800

interface Layout {
  containerRight: number
  tables: { scrollWidth: number; clientWidth: number; right: number }[]
  /** Every code block (the forest plot, the load chart): its content width against its box. */
  blocks: { text: string; scrollWidth: number; clientWidth: number; right: number }[]
  /** Per row of the comparisons table: right edges of the verdict and the delta cells, and their text. */
  rows: { verdictRight: number; deltaRight: number; verdict: string; delta: string }[]
}

async function layoutOf(session: BrowserSession, markdown: string): Promise<Layout> {
  const { page, problems } = await session.page(PR_WIDTH)
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>${githubMarkdownCss()}
    body { margin: 0 } .markdown-body { box-sizing: border-box; width: ${PR_WIDTH}px; padding: 16px }</style></head>
    <body><article class="markdown-body">${renderGfm(markdown)}</article></body></html>`
  await page.setContent(html, { waitUntil: 'load' })
  const layout = await page.evaluate(() => {
    const container = document.querySelector('article')!.getBoundingClientRect()
    const tables = [...document.querySelectorAll('table')]
    // The comparisons table and its verdict and interval columns, wherever they are.
    const headers = (t: HTMLTableElement): string[] => [...t.querySelectorAll('th')].map(th => th.textContent ?? '')
    const comparisons = tables.find(t => headers(t).includes('Verdict'))
    const verdictColumn = comparisons ? headers(comparisons).indexOf('Verdict') : -1
    const intervalColumn = comparisons ? headers(comparisons).findIndex(h => /interval/i.test(h)) : -1
    const rows = [...(comparisons?.querySelectorAll('tbody tr') ?? [])].map(tr => {
      const cells = tr.querySelectorAll('td')
      return {
        verdictRight: cells[verdictColumn].getBoundingClientRect().right,
        deltaRight: cells[intervalColumn].getBoundingClientRect().right,
        verdict: cells[verdictColumn].textContent ?? '',
        delta: cells[intervalColumn].textContent ?? ''
      }
    })
    return {
      containerRight: container.right,
      tables: tables.map(t => ({ scrollWidth: t.scrollWidth, clientWidth: t.clientWidth, right: t.getBoundingClientRect().right })),
      blocks: [...document.querySelectorAll('pre')].map(pre => ({
        text: (pre.textContent ?? '').split('\n')[0],
        scrollWidth: pre.scrollWidth,
        clientWidth: pre.clientWidth,
        right: pre.getBoundingClientRect().right
      })),
      rows
    }
  })
  await page.close()
  expect(problems).toEqual([])
  return layout
}

function expectFits(layout: Layout, rows: number): void {
  expect(layout.rows).toHaveLength(rows)
  for (const table of layout.tables) {
    // No horizontal scrolling inside the table, and the table inside the comment.
    expect(table.scrollWidth).toBeLessThanOrEqual(table.clientWidth)
    expect(table.right).toBeLessThanOrEqual(layout.containerRight)
  }
  // The forest plot's right end (the upper interval ends, the axis's right value) scrolled away
  // when its lines were wider than the comment.
  expect(layout.blocks.length).toBeGreaterThan(0)
  for (const block of layout.blocks) {
    expect({ block: block.text, scrollWidth: block.scrollWidth }).toEqual({ block: block.text, scrollWidth: block.clientWidth })
    expect(block.right).toBeLessThanOrEqual(layout.containerRight)
  }
  for (const row of layout.rows) {
    expect(row.verdict).toMatch(/pass|fail|inconclusive|info/)
    expect(row.delta).toMatch(/\[[-+]?\d/)
    expect(row.verdictRight).toBeLessThanOrEqual(layout.containerRight)
    expect(row.deltaRight).toBeLessThanOrEqual(layout.containerRight)
  }
}

/** A gate with long run names, perturbations, lower-is-better metrics and every verdict. */
function crowdedReport(): Report {
  const long = 'natural_qa:mode=closedbook,data_augmentation=robustness_all,instructions=none,model=meta_llama-3.1-70b-instruct-fp8-dynamic'
  return makeReport({
    verdict: 'fail',
    comparisons: [
      makeComparison({
        run: long,
        perturbation: 'worst',
        verdict: 'fail',
        delta: -0.0523,
        ci: { level: 0.95, low: -0.0812, high: -0.0311, method: 'tango' }
      }),
      makeComparison({ run: long, perturbation: 'misspelling_sweep#0', verdict: 'inconclusive', n: 1234, wins: 1234, losses: 5678 }),
      makeComparison({ run: 'wmt_14:language_pair=de-en,model=m', metric: 'bleu_4', binary: false, gated: false, delta: 0.00012 }),
      makeComparison({
        run: 'legalbench:subset=abercrombie,model=m',
        metric: 'quasi_prefix_exact_match',
        direction: 'lower',
        split: 'valid',
        max_drop: 0.0125
      })
    ],
    efficiency: [makeEfficiency({ run: long })],
    // The demo's comment has the performance half too: its table must fit as well.
    load: makeLoadReport()
  })
}

describe('the PR comment at 800 px, rendered by cmark-gfm with GitHub\u2019s stylesheet', () => {
  let session: BrowserSession
  beforeAll(async () => {
    session = await launchChromium()
  }, 90_000)
  afterAll(async () => {
    await session?.close()
  })

  test('real HELM runs: every verdict and interval is visible without scrolling', async () => {
    const report = await compareOutputs(join(FIXTURES, 'baseline'), join(FIXTURES, 'altered'), cliConfig(2000), {
      defaults: { metric: 'exact_match', split: null, maxDrop: 0.02, maxRelativeDrop: null, direction: 'higher', perturbations: 'report' }
    })
    expect(report.comparisons.length).toBeGreaterThan(2)
    const layout = await layoutOf(session, renderMarkdown(report, { maxLength: 65_000, marker: '<!-- helm-gate -->' }))
    expectFits(layout, report.comparisons.length)
  })

  test('long run names, perturbations and large counts still fit', async () => {
    const report = crowdedReport()
    const layout = await layoutOf(session, renderMarkdown(report, { maxLength: 65_000 }))
    expectFits(layout, report.comparisons.length)
  })
})
