import { describe, expect, test } from '@jest/globals'
import { UsageError } from '../../src/errors.js'
import { markerLine, renderMarkdown } from '../../src/report/markdown.js'
import type { Comparison, Report } from '../../src/model/report.js'
import { makeComparison, makeExample, makeReport } from './make-report.js'
import { cellSeparators, comparisonsTableOf, structureOf } from './markdown-checks.js'

const MARKER = '<!-- helm-gate:sticky-comment -->'
const LIMIT = 65_000

const HOSTILE = [
  'a | b',
  '```\nfence\n```',
  '</details></summary><details>',
  '<script>alert(1)</script>',
  '@octocat and @github/security-team',
  '[link](javascript:alert(1))',
  '<!-- hidden -->',
  'line\r\nbreak',
  'zero\u200Bwidth @\u200Boctocat',
  '#123 https://evil.example www.evil.example'
].join(' ')

function hostileReport(): Report {
  const example = makeExample({
    instance_id: `id ${HOSTILE}`,
    input: `${HOSTILE}\n${'````'}\n</details>\n`,
    reference: HOSTILE,
    baseline_output: '</summary></details><details><summary>',
    candidate_output: '``````\n@octocat\n``````'
  })
  return makeReport({
    verdict: 'fail',
    headline: `Regression in ${HOSTILE}`,
    errors: [{ code: 'guard.cached', message: HOSTILE, file: HOSTILE, field: 'x|y', value: '`@octocat`' }],
    warnings: [{ code: 'w', message: HOSTILE }],
    comparisons: [
      makeComparison({ run: HOSTILE, metric: `m ${HOSTILE}`, split: HOSTILE, perturbation: HOSTILE, examples: [example, example] }),
      makeComparison({ verdict: 'fail', examples: [example] })
    ],
    notes: [HOSTILE]
  })
}

describe('renderMarkdown: content', () => {
  const report = makeReport({
    verdict: 'fail',
    errors: [{ code: 'helm.run_failed', message: 'helm-run exited with 1' }],
    warnings: [{ code: 'guard.drift', message: 'max_tokens differs' }],
    comparisons: [
      makeComparison({ verdict: 'fail', delta: -0.05, ci: { level: 0.95, low: -0.08, high: -0.03, method: 'bootstrap' } }),
      makeComparison({ metric: 'f1', binary: false, gated: false, verdict: 'pass' }),
      makeComparison({
        run: 'gsm8k',
        verdict: 'inconclusive',
        n: 120,
        n_needed: 480,
        ci: { level: 0.95, low: -0.04, high: 0.01, method: 'bootstrap' }
      }),
      makeComparison({
        run: 'boolq',
        verdict: 'inconclusive',
        n_needed: null,
        delta: -0.03,
        ci: { level: 0.95, low: -0.06, high: 0.0, method: 'bootstrap' }
      })
    ]
  })
  const md = renderMarkdown(report, {
    maxLength: LIMIT,
    marker: MARKER,
    links: { run: 'https://github.com/o/r/actions/runs/1', artifacts: 'https://github.com/o/r/actions/runs/1#artifacts' }
  })

  test('the marker is the first line and the verdict heading follows', () => {
    const lines = md.split('\n')
    expect(lines[0]).toBe(MARKER)
    expect(lines[1]).toBe('## ❌ Fail · helm-gate')
    expect(md).toContain('**1 error**')
  })

  test('errors come before warnings, both before the table', () => {
    const errors = md.indexOf('### ⛔ Errors (1)')
    const warnings = md.indexOf('### ⚠️ Warnings (1)')
    const table = md.indexOf('### Comparisons')
    expect(errors).toBeGreaterThan(0)
    expect(warnings).toBeGreaterThan(errors)
    expect(table).toBeGreaterThan(warnings)
  })

  test('one six-column row per comparison: verdict first, one label cell, delta with interval, flips as +w / -l', () => {
    const table = comparisonsTableOf(md)
    expect(table).toHaveLength(2 + report.comparisons.length)
    const columns = cellSeparators(table[0])
    for (const row of table) expect(cellSeparators(row)).toBe(columns)
    expect(columns).toBe(7)
    expect(table[2].startsWith('| ❌ fail |')).toBe(true)
    expect(table[3].startsWith('| ℹ️ info |')).toBe(true)
    // Flips as better / worse; delta and interval in one cell; the tolerated change.
    expect(table[2]).toContain('| +12 / -11 |')
    expect(table[2]).toContain('**-0.0500**<br>[-0.0800, -0.0300]')
    expect(table[2]).toContain('| -0.0200 |')
    // One label cell: the run without its model argument, then metric, split, perturbation.
    // A break opportunity after `=` and `_` lets a long argument wrap inside the cell.
    expect(table[2]).toContain('mmlu: subject=<wbr>anatomy<br>exact\\_<wbr>match · test')
  })

  test('the forest plot is a text block with one line per comparison', () => {
    const plot = structureOf(md).fences.find(f => f.fence === '```' && f.content.some(l => l.includes('tolerated drop')))
    expect(plot).toBeDefined()
    expect(plot!.content.filter(l => / (pass|fail|inconclusive|info)$/.test(l))).toHaveLength(4)
  })

  test('inconclusive comparisons say what would resolve them', () => {
    expect(md).toContain('About **480 instances** in total would resolve it.')
    expect(md).toContain('more instances would not make it pass')
    expect(md).toContain('More instances, not a looser threshold')
  })

  test('efficiency is information, with the note', () => {
    expect(md).toContain('<summary>Efficiency: request times (information only, not gated)</summary>')
    expect(md).toContain('0.7500×<br>[0.7000, 0.8000]')
    // Units: request times are seconds, shown in ms below 10 s.
    expect(md).toContain('800 ms → 600 ms')
    expect(md).toContain('not time-to-first-token under load')
  })

  test('links and changed answers in collapsed sections', () => {
    expect(md).toContain('[Workflow run](https://github.com/o/r/actions/runs/1)')
    expect(md).toContain('[Artifacts](https://github.com/o/r/actions/runs/1#artifacts)')
    const s = structureOf(md)
    // One per comparison, and the efficiency section.
    expect(s.detailsOpened).toBe(report.comparisons.length + 1)
    expect(s.detailsClosed).toBe(s.detailsOpened)
  })

  test('rendering is pure: the same input gives the same text', () => {
    expect(
      renderMarkdown(report, {
        maxLength: LIMIT,
        marker: MARKER,
        links: { run: 'https://github.com/o/r/actions/runs/1', artifacts: 'https://github.com/o/r/actions/runs/1#artifacts' }
      })
    ).toBe(md)
  })
})

describe('renderMarkdown: hostile text', () => {
  const md = renderMarkdown(hostileReport(), {
    maxLength: LIMIT,
    marker: MARKER,
    gateFileChange: '```\n</details>\n-  max_drop: 0.02\n+  max_drop: 0.5 @octocat\n'
  })
  const s = structureOf(md)

  test('no mention, issue link or bare URL in live text (code is left as written: GitHub never links there)', () => {
    expect(s.liveText).not.toMatch(/@octocat|@github\/security-team/)
    expect(s.liveText).not.toMatch(/#123/)
    expect(s.liveText).not.toMatch(/https:\/\/evil|www\.evil/)
    // The hostile text is there, neutralised, not dropped.
    expect(s.liveText).toContain('\\#\u200D123')
  })

  test('no injected HTML in live markdown; details open = close; every fence closes', () => {
    const live = s.liveText
    expect(live).not.toMatch(/<script|<!-- hidden|\]\(javascript/)
    // Only the renderer's own tags are live.
    // Two changed-answer sections and the efficiency section, each a details and a summary pair.
    expect(live.match(/<\/?(details|summary)>/g)?.length).toBe(3 * 2 * 2)
    expect(s.detailsOpened).toBe(3)
    expect(s.detailsClosed).toBe(3)
    expect(s.unclosedFence).toBe(false)
  })

  test('table rows keep their number of cells', () => {
    const table = comparisonsTableOf(md)
    expect(table).toHaveLength(4)
    for (const row of table) expect(cellSeparators(row)).toBe(7)
  })

  test('the gate file diff is shown in a diff block that its content cannot close', () => {
    expect(md).toContain('takes effect after merge')
    const diff = s.fences.find(f => f.content.some(l => l.includes('max_drop: 0.5')))
    expect(diff).toBeDefined()
    expect(diff!.fence.length).toBeGreaterThan(3)
    expect(diff!.content).toContain('</details>')
  })

  test('no control or invisible characters', () => {
    expect(md).not.toMatch(/[\r\u0000-\u0008\u000B-\u001F\u200B\u202E\uFEFF]/)
  })
})

describe('renderMarkdown: options', () => {
  test('a bare marker name is wrapped; a malformed marker is refused', () => {
    expect(markerLine('helm-gate')).toBe('<!-- helm-gate -->')
    expect(markerLine(MARKER)).toBe(MARKER)
    expect(() => markerLine('<!-- a --> <script> -->')).toThrow(UsageError)
    expect(() => markerLine('a\nb')).toThrow(UsageError)
  })

  test('links must be http(s) URLs; parentheses cannot end the link', () => {
    expect(() => renderMarkdown(makeReport(), { maxLength: LIMIT, links: { run: 'javascript:alert(1)' } })).toThrow(UsageError)
    const md = renderMarkdown(makeReport(), { maxLength: LIMIT, links: { run: 'https://x.example/a_(b) c' } })
    expect(md).toContain('[Workflow run](https://x.example/a_%28b%29%20c)')
  })

  test('sections select the parts; without a marker the heading comes first', () => {
    const md = renderMarkdown(makeReport(), { maxLength: LIMIT, sections: ['forest', 'examples'] })
    expect(md).not.toMatch(/^## /m)
    expect(md.startsWith('### Forest plot')).toBe(true)
    expect(md).not.toContain('### Comparisons')
    expect(md).toContain('### Forest plot')
    expect(md).toContain('<details>')
    expect(renderMarkdown(makeReport(), { maxLength: LIMIT }).startsWith('## ✅ Pass · helm-gate')).toBe(true)
  })

  test('every verdict has its word in the heading', () => {
    for (const [verdict, heading] of [
      ['pass', '✅ Pass'],
      ['fail', '❌ Fail'],
      ['inconclusive', '🟡 Inconclusive'],
      ['error', '⛔ Error']
    ] as const) {
      expect(renderMarkdown(makeReport({ verdict }), { maxLength: LIMIT }).split('\n')[0]).toBe(`## ${heading} · helm-gate`)
    }
  })

  test('a non-positive budget is refused', () => {
    expect(() => renderMarkdown(makeReport(), { maxLength: 0 })).toThrow(UsageError)
  })
})

describe('renderMarkdown: the sides are named by what they are', () => {
  const identity = (model: string, host: string) => ({
    model,
    host,
    api: 'chat',
    engine: { version: '0.6.3', root: 'meta-llama/Llama-3.1-8B-Instruct', max_model_len: 8192, owned_by: 'vllm' },
    origin: null
  })
  const report = makeReport({
    baseline: {
      path: '/home/runner/work/_temp/helm-gate/baseline/benchmark_output',
      runs: ['mmlu'],
      deployment: 'helm-gate/baseline',
      helm_version: '0.5.16',
      identity: {
        ...identity('llama-3.1-8b', '10.0.0.5:8000'),
        origin: { kind: 'archived', artifact_id: 1125, workflow_run_id: 4242, head_sha: 'abcdef0123456789abcdef', age_hours: 5.2 }
      }
    },
    candidate: {
      path: '/home/runner/work/_temp/helm-gate/candidate/benchmark_output',
      runs: ['mmlu'],
      deployment: 'helm-gate/candidate',
      helm_version: '0.5.16',
      identity: { ...identity('llama-3.1-8b-fp8', '10.0.0.6:8000'), origin: { kind: 'run' } }
    },
    context: { fingerprint: '0123456789abcdef0123456789abcdef', concurrent: true },
    comparisons: [
      makeComparison({
        worst_case: { imputed: { baseline: 0, candidate: 3 }, low: -0.09, high: 0.01, method: 'tango', verdict: 'inconclusive' }
      } as Partial<Comparison>)
    ]
  })
  const md = renderMarkdown(report, { maxLength: LIMIT })

  test('deployment, engine, HELM and source per side; no file-system path', () => {
    expect(md).not.toContain('/home/runner')
    expect(md).toContain(
      '| Deployment **(differs)** | `llama-3.1-8b` on `10.0.0.5:8000` (chat) | `llama-3.1-8b-fp8` on `10.0.0.6:8000` (chat) |'
    )
    expect(md).toContain('| Engine | version `0.6.3`')
    expect(md).toContain('version `0.6.3` · weights `meta-llama/Llama-3.1-8B-Instruct` · context 8,192 · by vllm')
    expect(md).toContain('| Source | archived baseline \\#\u200D1125 from run 4242 at `abcdef012345`, 5.2 h old | run by this gate |')
    expect(md).toContain('Gate set `0123456789abcdef`')
  })

  test('concurrent sides are called out in the collapsed efficiency section', () => {
    const efficiency = md.slice(md.indexOf('<summary>Efficiency'))
    expect(efficiency).toContain('Both sides ran at the same time on one machine')
    expect(efficiency.indexOf('</details>')).toBeGreaterThan(efficiency.indexOf('Both sides ran'))
  })

  test('the worst-case bound shares the delta cell', () => {
    expect(comparisonsTableOf(md)[2]).toContain('[-0.0100, +0.0200]<br>worst case [-0.0900, +0.0100]')
  })

  test('chat against completions marks the Deployment row; the host alone does not', () => {
    const side = (host: string, api: string) => ({
      path: '/tmp/x',
      runs: ['mmlu'],
      deployment: 'd',
      helm_version: null,
      identity: { model: 'tiny', host, api, engine: null, origin: null }
    })
    const text = renderMarkdown(makeReport({ baseline: side('127.0.0.1:1', 'chat'), candidate: side('127.0.0.1:2', 'completions') }), {
      maxLength: LIMIT
    })
    expect(text).toContain('| Deployment **(differs)** | `tiny` on `127.0.0.1:1` (chat) | `tiny` on `127.0.0.1:2` (completions) |')
    const same = renderMarkdown(makeReport({ baseline: side('127.0.0.1:1', 'chat'), candidate: side('127.0.0.1:2', 'chat') }), {
      maxLength: LIMIT
    })
    expect(same).toContain('| Deployment | `tiny` on `127.0.0.1:1` (chat) |')
  })

  test('a long image name is cut in the middle to 40 characters, its tag kept whole', () => {
    const name = 'registry.internal.example.com:5000/platform/inference/serving/vllm-openai-cuda12:v0.11.1-cu124'
    const side = (n: string) => ({
      path: '/tmp/x',
      runs: ['mmlu'],
      deployment: 'd',
      helm_version: null,
      identity: {
        model: 'tiny',
        host: null,
        api: null,
        engine: null,
        origin: null,
        image: { name: n, digest: null, id: null, error: null }
      }
    })
    const text = renderMarkdown(makeReport({ baseline: side(name), candidate: side('vllm/vllm-openai:v0.11.0') }), { maxLength: LIMIT })
    const row = text.split('\n').find(l => l.startsWith('| Image'))!
    expect(row).toContain('`registry.internal.example…:v0.11.1-cu124`')
    expect('registry.internal.example…:v0.11.1-cu124').toHaveLength(40)
    expect(row.startsWith('| Image **(differs)** |')).toBe(true)
  })

  test('a bare compare falls back to the HELM deployment name', () => {
    const bare = renderMarkdown(makeReport(), { maxLength: LIMIT })
    expect(bare).toContain('| Deployment | `vllm/base` | `vllm/cand` |')
  })

  test("llama.cpp's weights: the file type from the server, the launched file by name and hash", () => {
    const side = (ftype: string, file: string, sha256: string | null) => ({
      path: '/tmp/x',
      runs: ['custom_mcqa'],
      deployment: 'helm-gate/gated-model',
      helm_version: null,
      identity: {
        model: 'addition',
        host: '127.0.0.1:18451',
        api: 'chat',
        engine: { version: 'b1-0c1e570', root: null, max_model_len: null, owned_by: 'llamacpp', details: `${ftype} · 1.25 M parameters` },
        origin: { kind: 'run' as const },
        weights: { file, bytes: 10, sha256, error: sha256 ? null : 'larger than 4 bytes: not hashed' }
      }
    })
    const text = renderMarkdown(
      makeReport({
        baseline: side('F16', './.real-engine/model/model-F16.gguf', 'c29d3724715351527f89'),
        candidate: side('Q4_0', './.real-engine/model/model-Q4_0.gguf', null)
      }),
      { maxLength: LIMIT }
    )
    expect(text).toContain('version `b1-0c1e570` · by llamacpp · F16 · 1.25 M parameters |')
    expect(text).toContain('| Weights | `model-F16.gguf` · sha256 `c29d37247153` | `model-Q4_0.gguf` · larger than 4 bytes: not hashed |')
  })
})
