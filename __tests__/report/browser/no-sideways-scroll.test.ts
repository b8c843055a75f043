/**
 * Nothing scrolls sideways: report.html at 1280 px and the PR comment (report.md rendered by
 * cmark-gfm with GitHub's stylesheet) at 800 px, on a report shaped like a real gate's: many
 * comparisons with long run names and perturbations, traffic rows, the load half, fidelity
 * measured against two fake servers, and long identity rows. Two checks, each able to fail on its
 * own: every box (the document, each table, the plot, each code block) is no wider inside than
 * outside, and a screenshot of the viewport is byte-identical after `window.scrollBy(200, 0)`.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'puppeteer-core'
import { DEFAULT_STATISTICS } from '../../../src/config/types.js'
import { measureFidelity } from '../../../src/fidelity/measure-fidelity.js'
import { fidelityPart } from '../../../src/fidelity/fidelity-part.js'
import type { ChangedExample, Comparison, Report } from '../../../src/model/report.js'
import { requestedSampling } from '../../../src/model/side-identity.js'
import { renderHtml } from '../../../src/report/html.js'
import { renderMarkdown } from '../../../src/report/markdown.js'
import { githubMarkdownCss, launchChromium, renderGfm, type BrowserSession } from '../../../test-support/browser/chromium.js'
import { startFakeServer, type FakeServer } from '../../../test-support/fake-openai/harness.js'
import { makeLoadReport } from '../make-load-report.js'
import { makeComparison, makeEfficiency, makeExample, makeReport } from '../make-report.js'

const HTML_WIDTH = 1280
const COMMENT_WIDTH = 800

/** The boxes that could scroll: the document and every table, plot and code block. */
interface Overflow {
  box: string
  scrollWidth: number
  clientWidth: number
}

async function overflowing(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const boxes: [string, Element][] = [['document', document.documentElement]]
    // Every table, plot and code block, and any other box that would show a scrollbar of its own.
    const scrolling = (node: Element): boolean => ['auto', 'scroll'].includes(getComputedStyle(node).overflowX)
    document.querySelectorAll('*').forEach((node, i) => {
      if (node.matches('table, svg, pre') || scrolling(node)) boxes.push([`${node.tagName.toLowerCase()}#${node.id || i}`, node])
    })
    return boxes
      .map(([box, node]) => {
        // An SVG has no scroll box of its own: its drawn width against the box it sits in.
        const svgNode = node instanceof SVGSVGElement ? node : null
        const scrollWidth = svgNode ? Math.ceil(svgNode.getBoundingClientRect().width) : node.scrollWidth
        const clientWidth = svgNode ? (svgNode.parentElement?.clientWidth ?? 0) : node.clientWidth
        return { box, scrollWidth, clientWidth }
      })
      .filter(o => o.scrollWidth > o.clientWidth)
  })
}

/** A viewport screenshot, then the same after scrolling 200 px sideways: equal when nothing can scroll. */
async function sidewaysShots(page: Page): Promise<{ before: Buffer; after: Buffer; scrollX: number }> {
  await page.evaluate(() => window.scrollTo(0, 0))
  const before = Buffer.from(await page.screenshot({ type: 'png' }))
  const scrollX = await page.evaluate(() => {
    window.scrollBy(200, 0)
    return window.scrollX
  })
  const after = Buffer.from(await page.screenshot({ type: 'png' }))
  await page.evaluate(() => window.scrollTo(0, 0))
  return { before, after, scrollX }
}

const LONG_RUN = 'simple_mcqa:subject=anatomy,data_augmentation=robustness,instructions=none,model=meta_llama-3.1-70b-instruct-fp8-dynamic'
const PERTURBATIONS = ['misspelling_sweep#0', 'synonym_perturbation', 'dialect#prob=1.0', 'lowercase', 'contraction', 'worst']

/** Many comparisons with long run names and perturbations, traffic rows and a load half. */
function realShapedReport(): { report: Report; changed: Map<string, ChangedExample[]> } {
  const comparisons: Comparison[] = []
  for (const subject of ['anatomy', 'college_chemistry', 'high_school_european_history']) {
    const run = LONG_RUN.replace('anatomy', subject)
    for (const perturbation of [null, ...PERTURBATIONS]) {
      comparisons.push(
        makeComparison({
          id: `${run} | exact_match | test | ${perturbation ?? '-'}`,
          run,
          perturbation,
          verdict: perturbation === 'worst' ? 'fail' : 'inconclusive',
          n: 12345,
          wins: 1234,
          losses: 5678,
          delta: perturbation === 'worst' ? -0.0523 : -0.00012,
          ci: { level: 0.95, low: -0.0812, high: 0.0311, method: 'tango' }
        })
      )
    }
  }
  comparisons.push(
    makeComparison({
      id: 'traffic:support-chat-2026-11 | disagreement | - | -',
      run: 'traffic:support-chat-2026-11',
      entry: 'traffic',
      metric: 'disagreement',
      split: null,
      direction: 'lower',
      examples: [makeExample({ stratum: 'tool_call/long', failed_check: 'invalid_json: Unexpected end of JSON input at position 4096' })]
    })
  )
  const changed = new Map<string, ChangedExample[]>(
    comparisons.map(c => [
      c.id,
      [makeExample({ candidate_output: `${'a_very_long_unbroken_token_'.repeat(12)}end`, stratum: c.examples[0]?.stratum })]
    ])
  )
  const digest = `sha256:${'0123456789abcdef'.repeat(4)}`
  // The widest cell of the requests row: several stop sequences, a temperature that differs.
  const requested = (temperature: number) => {
    const sampling = { temperature, max_tokens: 1024, stop_sequences: ['\n\n', '###', '</answer>', 'Question:'], num_outputs: 1 }
    return requestedSampling({ [LONG_RUN]: sampling })!
  }
  const report = makeReport({
    verdict: 'fail',
    comparisons,
    efficiency: [makeEfficiency({ run: LONG_RUN })],
    load: makeLoadReport(),
    baseline: {
      path: '/runner/work/out/baseline',
      runs: [LONG_RUN],
      deployment: 'vllm/meta-llama-3.1-70b-instruct-fp8-dynamic',
      helm_version: '0.5.16',
      identity: {
        model: 'meta-llama/Meta-Llama-3.1-70B-Instruct-FP8-dynamic',
        host: 'inference-baseline.internal.example.com:8000',
        api: 'chat',
        engine: {
          version: '0.11.0',
          root: '/models/huggingface/hub/models--meta-llama--Meta-Llama-3.1-70B-Instruct-FP8-dynamic/snapshots/0123456789abcdef',
          max_model_len: 131072,
          owned_by: 'vllm'
        },
        origin: { kind: 'run' },
        image: { name: 'vllm/vllm-openai:v0.11.0', digest, id: null, error: null },
        weights: {
          file: '/models/gguf/Meta-Llama-3.1-70B-Instruct-Q4_K_M-00001-of-00002.gguf',
          bytes: 1,
          sha256: digest.slice(7),
          error: null
        }
      },
      requested_sampling: requested(0)
    },
    candidate: {
      path: '/runner/work/out/candidate',
      runs: [LONG_RUN],
      deployment: 'vllm/meta-llama-3.1-70b-instruct-fp8-dynamic',
      helm_version: '0.5.16',
      identity: {
        model: 'meta-llama/Meta-Llama-3.1-70B-Instruct-FP8-dynamic',
        host: 'inference-candidate.internal.example.com:8000',
        api: 'completions',
        engine: null,
        origin: { kind: 'run' },
        // ~120 characters: a private registry path with a long build tag, the widest an image name gets.
        image: {
          name: 'registry.internal.example.com:5000/platform/inference/serving/vllm-openai-cuda12:v0.11.1-cu124-py312-build20261207-a1b2c3d4',
          digest,
          id: null,
          error: null
        }
      },
      requested_sampling: requested(0.7)
    },
    context: {
      fingerprint: 'f'.repeat(64),
      concurrent: false,
      serving: {
        chat_template: { baseline: 'sha256 cd61dc8c18d1 · 8123 chars', candidate: 'chatml · sha256 1e53ec5bf20c · 6 chars', differs: true },
        sampling: {
          baseline: 'temperature 0.8 · top_k 40 · top_p 0.95 · min_p 0.05 · repeat_penalty 1 · seed 4294967295 · n_ctx 131072',
          candidate: 'temperature 0.7 · top_k 40 · top_p 0.9 · min_p 0.05 · repeat_penalty 1.1 · seed 4294967295 · n_ctx 131072',
          differs: true
        }
      }
    }
  })
  return { report, changed }
}

describe('nothing scrolls sideways: report.html at 1280 px, the comment at 800 px', () => {
  let session: BrowserSession
  let servers: FakeServer[] = []
  let dir: string
  let report: Report
  let changed: Map<string, ChangedExample[]>

  beforeAll(async () => {
    ;({ report, changed } = realShapedReport())
    // Fidelity measured for real against two fake servers, the candidate's distributions shifted.
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
    report.fidelity = await measureFidelity({
      sides: { baseline: side('baseline', servers[0]), candidate: side('candidate', servers[1]) },
      prompts: Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, text: `Question number ${i}: what comes next?` })),
      settings: {
        instances: 8,
        maxAnswerTokens: 40,
        topK: 5,
        baselineReruns: 1,
        checks: [{ metric: 'kld_mean', bound: 'max', value: 0.02 }],
        requestTimeoutSeconds: 30
      },
      statistics: { ...DEFAULT_STATISTICS, resamples: 500 }
    })
    // Fidelity's part of the report, as its attach joins it (what the page renders).
    report.parts = [fidelityPart(report.fidelity, [])]
    dir = mkdtempSync(join(tmpdir(), 'helm-gate-sideways-'))
    session = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await session?.close()
    await Promise.all(servers.map(s => s.stop()))
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('report.html at 1280 px: no box scrolls and a sideways scroll changes nothing', async () => {
    const file = join(dir, 'report.html')
    writeFileSync(file, renderHtml(report, changed))
    const { page, problems } = await session.page(HTML_WIDTH)
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
    // Every part is on the page, so the checks below look at a full report.
    for (const part of ['#forest', '#comparisons', '#answers', '#fidelity', 'table.sides']) expect(await page.$(part)).not.toBeNull()
    expect(await page.$$eval('#comparisons tbody tr', rows => rows.length)).toBe(report.comparisons.length)
    expect(await overflowing(page)).toEqual([])
    const shots = await sidewaysShots(page)
    expect(shots.scrollX).toBe(0)
    expect(shots.after.equals(shots.before)).toBe(true)
    // The verdict and the interval of every row are inside the viewport, not cut off.
    const cut = await page.$$eval('#comparisons tbody tr', rows =>
      rows.flatMap(r => [...r.children].filter(td => td.getBoundingClientRect().right > window.innerWidth).map(td => td.textContent))
    )
    expect(cut).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)

  test('the comment at 800 px: no box scrolls and a sideways scroll changes nothing', async () => {
    const { page, problems } = await session.page(COMMENT_WIDTH)
    const markdown = renderMarkdown(report, { maxLength: 65_000, marker: '<!-- helm-gate -->' })
    const html = `<!doctype html><html><head><meta charset="utf-8"><style>${githubMarkdownCss()}
      body { margin: 0 } .markdown-body { box-sizing: border-box; width: ${COMMENT_WIDTH}px; padding: 16px }</style></head>
      <body><article class="markdown-body">${renderGfm(markdown)}</article></body></html>`
    await page.setContent(html, { waitUntil: 'load' })
    // The header, the comparisons, the plot and the load half are all in the comment.
    expect(await page.$$eval('table', tables => tables.length)).toBeGreaterThan(2)
    expect(markdown).toContain('| Sampling (requests) **(differs)** | temperature 0 · max\\_tokens 1024 · stop')
    expect(await page.$$eval('pre', blocks => blocks.length)).toBeGreaterThan(0)
    expect(await overflowing(page)).toEqual([])
    const shots = await sidewaysShots(page)
    expect(shots.scrollX).toBe(0)
    expect(shots.after.equals(shots.before)).toBe(true)
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)
})
