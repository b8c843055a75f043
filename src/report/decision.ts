/**
 * The verdict in one line that names what decided it, with the figure: the check run's title, the
 * first line of the job summary and the PR comment, the action's `decision` output and the last
 * line of the console. With a `load:` section or a measurement's part (report.parts) the overall
 * verdict is the worst of them, and a line that counted only the quality comparisons ("Fail: 2/2
 * gated passed") contradicted itself whenever another decided: the line names each, the deciding
 * ones first. A part brings its own words (model/measurement-part.ts), so this file names no
 * measurement but quality and performance. Pure; the callers escape for their medium.
 */
import { truncateText } from './escape.js'
import { formatCount, formatNumber, formatSigned, marginOf, VERDICT_WORD } from './format.js'
import { checkName, levelLabel, loadValue, ratioText } from './load-text.js'
import type { LoadCheckResult, LoadReport } from '../model/load-report.js'
import type { AnswerLength, CalibrationRow, Comparison, Report, ReportIssue, Verdict } from '../model/report.js'

/** `quality`, `performance`, or the key of a measurement's part (`fidelity`). */
export type Half = string

export interface Decision {
  verdict: Verdict
  /** The half or part whose verdict is the overall one; `both` when more than one shares it (also when all pass). */
  decidedBy: Half | 'both'
  /** `Fail: performance (output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×); quality 2/2 passed` */
  line: string
  /** The line without its verdict word: `performance (…); quality 2/2 passed`. */
  detail: string
}

const RANK: Record<Verdict, number> = { pass: 0, inconclusive: 1, fail: 2, error: 3 }
const MAX_MESSAGE = 160

/** One named part of the line: its verdict and its words when it decides or stands beside one that does. */
interface LinePart {
  key: Half
  verdict: Verdict
  text: (deciding: boolean) => string
}

export function decide(report: Report): Decision {
  const load = report.load
  const parts = (report.parts ?? []).filter(p => p.decision !== null)
  // Nothing joined the quality half: the counts the title has always shown.
  if (!load && parts.length === 0) return finish(report.verdict, 'quality', qualityCounts(report, report.errors))
  // helm-gate load (or run --only load): no quality half at all.
  if (load && !report.quality) return finish(report.verdict, 'performance', performanceText(load, true))
  // The joins (src/load/combine.ts, model/join-part.ts) kept the quality half's own verdict and
  // errors; each part and the performance half say their own. The deciding ones come first and
  // take their verdict from the line's first word.
  const quality = report.quality ?? { verdict: report.verdict, errors: report.errors }
  const named: LinePart[] = [
    { key: 'quality', verdict: quality.verdict, text: () => rowsFigure(report, quality.verdict, quality.errors) },
    ...parts.map(p => ({
      key: p.key,
      verdict: p.verdict ?? 'pass',
      text: (deciding: boolean) => clip(deciding ? (p.decision?.deciding ?? '') : (p.decision?.beside ?? ''), 2 * MAX_MESSAGE)
    })),
    ...(load ? [{ key: 'performance', verdict: load.verdict, text: (deciding: boolean) => performanceText(load, deciding) }] : [])
  ]
  const top = Math.max(...named.map(p => RANK[p.verdict]))
  const deciders = named.filter(p => RANK[p.verdict] === top)
  const rest = named.filter(p => RANK[p.verdict] !== top)
  const detail = [...deciders.map(p => p.text(true)), ...rest.map(p => p.text(false))].filter(Boolean).join('; ')
  return finish(report.verdict, deciders.length === 1 ? deciders[0].key : 'both', detail)
}

function finish(verdict: Verdict, decidedBy: Decision['decidedBy'], detail: string): Decision {
  const line = detail ? `${VERDICT_WORD[verdict]}: ${detail}` : VERDICT_WORD[verdict]
  return { verdict, decidedBy, line: oneLine(line), detail: oneLine(detail) }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

type GatedRow = Comparison | AnswerLength | CalibrationRow

/** The rows the quality half gates: comparisons, answer-length bands and calibration (a measurement's part is apart). */
function gatedRows(report: Report): GatedRow[] {
  return [...report.comparisons, ...(report.answer_lengths ?? []), ...(report.calibrations ?? [])].filter(c => c.gated)
}

/** Without a load half: the counts the title has always shown (`1 error: 2/2 gated passed, …`). */
function qualityCounts(report: Report, errors: readonly ReportIssue[]): string {
  const gated = gatedRows(report)
  const count = (verdict: string): number => gated.filter(c => c.verdict === verdict).length
  const parts: string[] = []
  if (errors.length > 0) parts.push(`${formatCount(errors.length)} error${errors.length === 1 ? '' : 's'}`)
  if (gated.length > 0) {
    parts.push(
      `${formatCount(count('pass'))}/${formatCount(gated.length)} gated passed` +
        (count('fail') > 0 ? `, ${formatCount(count('fail'))} failed` : '') +
        (count('inconclusive') > 0 ? `, ${formatCount(count('inconclusive'))} inconclusive` : '')
    )
  }
  return parts.join(': ')
}

/** `quality 2/2 passed`, `quality 1/2 failed (run exact_match -0.12, tolerates -0.02)`, `quality (error message)`. */
function rowsFigure(report: Report, verdict: Verdict, errors: readonly ReportIssue[]): string {
  const gated = gatedRows(report)
  const of = (v: Verdict): string => `${formatCount(gated.filter(c => c.verdict === v).length)}/${formatCount(gated.length)}`
  switch (verdict) {
    case 'pass':
      return `quality ${of('pass')} passed`
    case 'error':
      // An error always decides, so the line's first word already says it.
      return errors.length > 0 ? `quality (${clip(errors[0].message)}${more(errors.length)})` : 'quality (nothing was gated)'
    case 'fail':
    case 'inconclusive': {
      const open = gated.filter(c => c.verdict === verdict)
      const word = verdict === 'fail' ? 'failed' : 'inconclusive'
      return `quality ${of(verdict)} ${word} (${comparisonFigure(open[0])}${more(open.length)})`
    }
  }
}

function comparisonFigure(c: GatedRow): string {
  if ('max_increase' in c) {
    // Four decimals, as the Calibration section shows them (ECE moves in small steps).
    const d = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(4)}`
    const figure = `${clip(`${c.run} ${c.metric}`, 80)} ${d(c.delta)} [${d(c.ci.low)}, ${d(c.ci.high)}], tolerates ${d(c.max_increase)}`
    if (c.verdict !== 'inconclusive') return figure
    return `${figure}; n = ${formatCount(c.n)}${c.n_needed !== null ? `, about ${formatCount(c.n_needed)} needed` : ''}`
  }
  if ('ratio' in c) {
    const bounds = [c.min === null ? null : `≥ ${formatNumber(c.min)}`, c.max === null ? null : `≤ ${formatNumber(c.max)}`].filter(Boolean)
    const figure = `${clip(`${c.source} ${c.run}`, 80)} answer_length_ratio ${formatNumber(c.ratio.estimate)}×, needs ${bounds.join(' and ')}`
    if (c.verdict !== 'inconclusive') return figure
    return `${figure}; n = ${formatCount(c.n)}${c.n_needed !== null ? `, about ${formatCount(c.n_needed)} needed` : ''}`
  }
  const name = [c.run, c.metric, c.split].filter(Boolean).join(' ')
  const figure = `${clip(name, 80)} ${formatSigned(c.delta)}, tolerates ${formatSigned(marginOf(c))}`
  if (c.verdict !== 'inconclusive') return figure
  return `${figure}; n = ${formatCount(c.n)}${c.n_needed !== null && Number.isFinite(c.n_needed) ? `, about ${formatCount(c.n_needed)} needed` : ''}`
}

/**
 * `performance 5/5 checks passed`; `performance (output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×)`
 * when it decides, `performance inconclusive (…)` when it does not.
 */
export function performanceText(load: LoadReport, deciding: boolean): string {
  if (load.skipped) return 'performance skipped (load.baseline: optional)'
  // Measured in two periods: drift between them is charged to the change, so the line says so.
  if (load.interleaved === false && load.errors.length === 0)
    return `${measuredText(load, deciding)} [not interleaved: ${notInterleavedWhy(load)}]`
  return measuredText(load, deciding)
}

function notInterleavedWhy(load: LoadReport): string {
  return clip(load.timeline?.why ?? 'the launched sides were up one at a time, each measured in its own period')
}

function measuredText(load: LoadReport, deciding: boolean): string {
  const checks = load.checks
  if (load.verdict === 'pass') return `performance ${formatCount(checks.length)}/${formatCount(checks.length)} checks passed`
  const half = deciding ? 'performance' : `performance ${load.verdict}`
  const open = checks.filter(c => c.verdict === load.verdict)
  if (open.length > 0) return `${half} (${checkFigure(load, open[0])}${more(open.length)})`
  // An error before any check could be evaluated: a side that does not answer, no streaming, ...
  if (load.errors.length > 0) return `${half} (${clip(load.errors[0].message)}${more(load.errors.length)})`
  return `performance ${load.verdict}`
}

/** The measured figure against its threshold: `output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×`. */
export function checkFigure(load: LoadReport, c: LoadCheckResult): string {
  const at = `at ${levelLabel(load, c.level)}`
  const needs = `needs ${checkName(c).slice(c.metric.length + 1)}`
  if (c.verdict === 'error') return `${c.metric} ${at}: ${clip(c.reason)}`
  if (c.kind === 'min' || c.kind === 'max') return `${c.metric} ${loadValue(c.metric, c.candidate)} ${at}, ${needs}`
  if (!c.ratio) return `${c.metric} ${at}: ${clip(c.reason)}`
  // A failed check's estimate says how far off it is; an inconclusive one needs its interval too.
  const ratio = c.verdict === 'inconclusive' ? ratioText(c) : ratioText(c).split(' [')[0]
  return `${c.metric} ${ratio} ${at}, ${needs}`
}

function more(count: number): string {
  return count > 1 ? `, and ${formatCount(count - 1)} more` : ''
}

function clip(text: string, max = MAX_MESSAGE): string {
  return truncateText(oneLine(text), max)
}
