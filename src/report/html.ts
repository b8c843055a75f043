/**
 * report.html: one self-contained page (inline CSS and script, no network) for the reviewer who
 * must read the changed answers: a forest plot, the sortable comparisons table, every changed
 * answer side by side with the differing characters marked, filters and search, efficiency.
 *
 * Safety: the report and the answers are untrusted text (model output, prompts). They are
 * embedded only as JSON in a `<script type="application/json">` block with every `<`, `>` and
 * `&` escaped, so nothing in them can close the block or form markup, and the page script builds
 * the DOM with textContent (html-client.ts, bundled by scripts/build-report-page.mjs). A Content-Security-Policy allows exactly the page's own script (by
 * hash) and inline styles, and no network at all.
 */
import { createHash } from 'node:crypto'
import { REPORT_PAGE_SCRIPT } from './html-client.bundle.js'
import type { ChangedExample, Report } from '../model/report.js'
import { identityDiffers } from '../model/side-identity.js'

/** Every changed answer per comparison id (report.json keeps only the first few). */
export type ChangedAnswers = ReadonlyMap<string, readonly ChangedExample[]>

/** JSON that is safe inside a script element: no `<`, `>`, `&` or line separators survive raw. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

const STYLE = `
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --inconclusive: #bf8700; --info: #6e7781; --error: #cf222e; }
body { font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0; color: #1f2328; }
#app { max-width: 1200px; margin: 0 auto; padding: 16px 24px; }
h1.verdict { margin: 0 0 4px; } h1.pass { color: var(--pass); } h1.fail, h1.error { color: var(--fail); } h1.inconclusive { color: var(--inconclusive); }
table { border-collapse: collapse; margin: 8px 0; max-width: 100%; } th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
#comparisons { width: 100%; } #forest { display: block; max-width: 100%; height: auto; }
th[data-column] { cursor: pointer; user-select: none; } th.sorted.asc::after { content: " ▲"; } th.sorted.desc::after { content: " ▼"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.pass .verdict-cell { color: var(--pass); } tr.fail .verdict-cell { color: var(--fail); } tr.inconclusive .verdict-cell { color: var(--inconclusive); } tr.info .verdict-cell { color: var(--info); }
.filters { display: flex; gap: 8px; flex-wrap: wrap; margin: 12px 0; position: sticky; top: 0; background: #fff; padding: 8px 0; border-bottom: 1px solid #d0d7de; }
.filters input { flex: 1; min-width: 200px; }
#forest .label, #forest .axis { font-size: 11px; fill: #1f2328; } #forest .zero, #forest .tick { stroke: #8c959f; }
#forest .margin { stroke: var(--fail); stroke-dasharray: 3 2; } #forest .ci { stroke-width: 3; }
#forest .pass .ci, #forest .pass .mark { stroke: var(--pass); fill: var(--pass); } #forest .fail .ci, #forest .fail .mark { stroke: var(--fail); fill: var(--fail); }
#forest .inconclusive .ci, #forest .inconclusive .mark { stroke: var(--inconclusive); fill: var(--inconclusive); } #forest .info .ci, #forest .info .mark { stroke: var(--info); fill: var(--info); }
details { border: 1px solid #d0d7de; border-radius: 6px; margin: 8px 0; padding: 4px 8px; } summary { cursor: pointer; font-weight: 600; }
.answer { border-top: 1px solid #d0d7de; padding: 8px 0; } .answer.won .answer-head { color: var(--pass); } .answer.lost .answer-head { color: var(--fail); }
.outputs { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 8px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: 6px; margin: 2px 0; max-height: 24em; overflow: auto; }
.label { font-size: 12px; color: #59636e; } mark { background: #ffd7d5; } pre.candidate mark { background: #aceebb; }
.note { color: #59636e; } .settings { color: #59636e; } table.sides tr.differs th, table.sides tr.differs td { background: #fff8c5; }
.check.pass, .load-verdict.pass { color: var(--pass); } .check.fail, .check.error, .load-verdict.fail, .load-verdict.error { color: var(--fail); } .check.inconclusive, .load-verdict.inconclusive { color: var(--inconclusive); }
td.grid-cell .grid-state { display: block; font-weight: 600; } td.grid-cell .grid-reason { display: block; font-size: 12px; color: #59636e; } td.grid-cell.pass .grid-state { color: var(--pass); } td.grid-cell.fail .grid-state, td.grid-cell.error .grid-state { color: var(--fail); } td.grid-cell.inconclusive .grid-state { color: var(--inconclusive); } td.grid-cell.blank.required { background: #ffebe9; }
.token-strip { display: flex; flex-wrap: wrap; gap: 2px; margin: 4px 0 8px; } .token-pair { display: inline-flex; flex-direction: column; padding: 1px 3px; border: 1px solid transparent; border-radius: 3px; font-family: ui-monospace, monospace; font-size: 12px; }
.token-pair.differs { border-color: #1f2328; } .token.candidate { color: #59636e; border-top: 1px dotted #8c959f; }
`

export function renderHtml(report: Report, changed: ChangedAnswers = new Map()): string {
  const script = REPORT_PAGE_SCRIPT
  const hash = createHash('sha256').update(script).digest('base64')
  // Which header rows differ is decided here, once (model/side-identity.ts); the page only shows it.
  const differs = identityDiffers(report.baseline.identity, report.candidate.identity, report.context?.serving, {
    baseline: report.baseline.requested_sampling,
    candidate: report.candidate.requested_sampling
  })
  const data = scriptSafeJson({ report, changed: Object.fromEntries(changed), differs })
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'`
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>helm-gate: ${report.verdict}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    `<script type="application/json" id="helm-gate-data">${data}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    ''
  ].join('\n')
}
