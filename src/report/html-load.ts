/// <reference lib="dom" />
/**
 * The load half in report.html (report.load, docs/report.md): its verdict, then per level one
 * table with a row per metric (baseline, candidate, the candidate/baseline ratio with its
 * interval, and the checks on that metric with their verdicts), the open reasons, issues and
 * settings. Bundled into the page with html-client.ts (it imports only types and
 * load-schedule.ts, which imports only types); server-provided text (model names, reasons) goes
 * in as text through the `el` the page gives it.
 */
import type { LoadCheckResult, LoadInterval, LoadReport, LoadRatio } from '../model/load-report.js'
import type { ReportIssue } from '../model/report.js'
import { loadScheduleText } from './load-schedule.js'

type El = (
  tag: 'section' | 'h2' | 'h3' | 'p' | 'table' | 'thead' | 'tbody' | 'tr' | 'th' | 'td' | 'span' | 'br' | 'ul' | 'li' | 'code',
  attrs?: Record<string, string>,
  ...children: (Node | string | null)[]
) => HTMLElement

const UNITS: Record<string, string> = { output_tokens_per_second: 'tok/s', request_throughput: 'req/s', goodput: 'req/s' }

function valueText(metric: string, v: unknown): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '—'
  if (metric === 'error_rate') return `${Number((v * 100).toPrecision(3))}%`
  return `${Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)} ${UNITS[metric] ?? 'ms'}`
}

// As in the comment: three decimals (one from 10 up).
const fixed = (v: number): string => v.toFixed(v >= 10 ? 1 : 3)
const ratioText = (r: LoadInterval | null): string => (r ? `${fixed(r.estimate)}× [${fixed(r.low)}, ${fixed(r.high)}]` : '—')

function checkText(c: LoadCheckResult): string {
  const op = c.kind === 'min_ratio' || c.kind === 'min' ? '≥' : '≤'
  const bound = String(c.kind).endsWith('ratio') ? `${c.threshold}×` : valueText(c.metric, c.threshold)
  return `${op} ${bound}: ${c.verdict}`
}

/** One metric's row at one level: its figures, its checks, coloured by the worst of them. */
function metricRow(el: El, metric: string, r: LoadRatio | undefined, own: LoadCheckResult[]): HTMLElement {
  const verdicts: string[] = own.map(c => c.verdict)
  const worst = ['error', 'fail', 'inconclusive', 'pass'].find(v => verdicts.includes(v)) ?? 'info'
  const checkCell = el('td', { class: 'checks' })
  own.forEach((c, i) => {
    if (i) checkCell.append(el('br'))
    checkCell.append(el('span', { class: `check ${c.verdict}`, title: String(c.reason ?? '') }, checkText(c)))
  })
  if (!own.length) checkCell.append('—')
  return el(
    'tr',
    { class: worst, 'data-metric': metric },
    el('td', {}, metric),
    el('td', { class: 'num' }, valueText(metric, r?.baseline ?? own[0]?.baseline)),
    el('td', { class: 'num' }, valueText(metric, r?.candidate ?? own[0]?.candidate)),
    el('td', { class: 'num' }, ratioText(r?.ratio ?? own[0]?.ratio ?? null)),
    el('td', { class: 'num' }, String(r?.pairs ?? own[0]?.pairs ?? '—')),
    checkCell
  )
}

/** Per level, its heading and table; a level with no figure and no check is left out. */
function levelTables(el: El, section: LoadReport, levelName: (level: number) => string): HTMLElement[] {
  const ratios: LoadRatio[] = section.ratios ?? []
  const checks: LoadCheckResult[] = section.checks ?? []
  const out: HTMLElement[] = []
  for (const level of section.levels ?? []) {
    const metrics = [...new Set([...ratios, ...checks].filter(r => r.level === level).map(r => String(r.metric)))]
    if (!metrics.length) continue
    const rows = metrics.map(metric =>
      metricRow(
        el,
        metric,
        ratios.find(x => x.level === level && x.metric === metric),
        checks.filter(c => c.level === level && c.metric === metric)
      )
    )
    out.push(
      el('h3', {}, levelName(level)),
      el(
        'table',
        { class: 'load-level', 'data-level': String(level) },
        el(
          'thead',
          {},
          el('tr', {}, ...['Metric', 'Baseline', 'Candidate', 'Ratio [interval]', 'Pairs', 'Checks'].map(h => el('th', {}, h)))
        ),
        el('tbody', {}, ...rows)
      )
    )
  }
  return out
}

/** The load section, or null when the report has no load half. */
export function loadSection(el: El, section: LoadReport | undefined): HTMLElement | null {
  if (!section) return null
  const box = el(
    'section',
    { id: 'load' },
    el('h2', { class: `load-verdict ${section.verdict}` }, `Load: ${section.verdict}`),
    el('p', {}, String(section.headline ?? ''))
  )
  if (section.skipped) {
    box.append(el('p', { class: 'note' }, String(section.skipped)))
    return box
  }
  const levelName = (level: number): string => (section.mode === 'concurrency' ? `concurrency ${level}` : `${level} requests/s`)
  box.append(...levelTables(el, section, levelName))
  const checks: LoadCheckResult[] = section.checks ?? []
  const open = checks.filter(c => c.verdict === 'inconclusive' || c.verdict === 'error')
  if (open.length)
    box.append(el('ul', { class: 'load-reasons' }, ...open.map(c => el('li', {}, `${c.metric} at ${levelName(c.level)}: ${c.reason}`))))
  for (const [kind, list] of [
    ['errors', section.errors ?? []],
    ['warnings', section.warnings ?? []]
  ] as const) {
    if (list.length)
      box.append(el('ul', { class: kind }, ...list.map((i: ReportIssue) => el('li', {}, el('code', {}, i.code), ' ', i.message))))
  }
  const st = section.settings ?? {}
  box.append(
    el(
      'p',
      { class: 'settings' },
      `${st.repetitions} blocks per side per level, ${loadScheduleText(section)}; intervals: ${st.interval_method}; percentiles: ${st.percentile_method}.`
    )
  )
  for (const note of section.notes ?? []) box.append(el('p', { class: 'note' }, note))
  return box
}
