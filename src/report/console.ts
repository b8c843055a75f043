/**
 * The report for a terminal: an aligned table (verdict, delta, interval, n, flips per
 * comparison), then errors and warnings, then the overall verdict as the last line, where a
 * reader's eye lands after a long run. Untrusted text is shown with control characters escaped,
 * so model output cannot move the cursor, clear the screen or fake a verdict with ANSI codes.
 */
import { renderLoadConsole } from './console-load.js'
import { sequentialConsoleLines } from './markdown-sequential.js'
import { directionLine } from './console-direction.js'
import { decide } from './decision.js'
import { renderPartsConsole } from './console-parts.js'
import { escapeTerminal, truncateText } from './escape.js'
import { comparisonVerdictLabel, formatCount, formatInterval, formatLevel, formatNumber, formatSigned, VERDICT_WORD } from './format.js'
import type { Comparison, Report, ReportIssue, Verdict } from '../model/report.js'
import { identityDiffers } from '../model/side-identity.js'

export interface ConsoleOptions {
  /** ANSI colours; when false the output contains no escape sequence at all. */
  color: boolean
}

type Tone = 'green' | 'red' | 'yellow' | 'dim' | 'bold'

const ANSI: Record<Tone, [string, string]> = {
  green: ['\x1b[32m', '\x1b[39m'],
  red: ['\x1b[31m', '\x1b[39m'],
  yellow: ['\x1b[33m', '\x1b[39m'],
  dim: ['\x1b[2m', '\x1b[22m'],
  bold: ['\x1b[1m', '\x1b[22m']
}

const TONE_OF: Record<Verdict | 'info', Tone> = {
  pass: 'green',
  fail: 'red',
  error: 'red',
  inconclusive: 'yellow',
  info: 'dim'
}

const MAX_NAME = 60
const MAX_RUN = 44
const MAX_MESSAGE = 400

function painter(color: boolean): (text: string, tone: Tone) => string {
  return (text, tone) => (color ? `${ANSI[tone][0]}${text}${ANSI[tone][1]}` : text)
}

/** One line of untrusted text for the terminal. */
function safe(text: string, max: number): string {
  return truncateText(escapeTerminal(text), max)
}

/** Only the run name is shortened: metric, split and perturbation are what tell rows apart. */
function comparisonName(c: Comparison): string {
  const rest = [c.metric, c.split, c.perturbation ?? 'clean'].filter((p): p is string => p !== null && p !== '')
  return [safe(c.run, MAX_RUN), ...rest.map(p => safe(p, 30))].join(' | ')
}

function flips(c: Comparison): string {
  return c.binary ? `+${formatCount(c.wins)}/-${formatCount(c.losses)}` : `${formatCount(c.wins)}↑/${formatCount(c.losses)}↓`
}

function issueLine(issue: ReportIssue): string {
  const where: string[] = []
  if (issue.file) where.push(`file: ${safe(issue.file, 200)}`)
  if (issue.field) where.push(`field: ${safe(issue.field, 120)}`)
  if (issue.value !== undefined && issue.value !== '') where.push(`value: ${safe(issue.value, 120)}`)
  const location = where.length ? ` (${where.join(', ')})` : ''
  return `${safe(issue.code, 80)}: ${safe(issue.message, MAX_MESSAGE)}${location}`
}

/** The comparisons table, then each row's direction (information only, never part of the verdict). */
function comparisonLines(report: Report, paint: (text: string, tone: Tone) => string): string[] {
  const out: string[] = []
  if (report.comparisons.length > 0) {
    const header = ['VERDICT', 'COMPARISON', 'N', 'DELTA', `${formatLevel(report.settings.confidence)} INTERVAL`, 'MARGIN', 'FLIPS']
    const rows = report.comparisons.map(c => [
      comparisonVerdictLabel(c),
      comparisonName(c),
      formatCount(c.n),
      formatSigned(c.delta),
      formatInterval(c.ci.low, c.ci.high),
      formatSigned(c.direction === 'lower' ? c.max_drop : -c.max_drop),
      flips(c)
    ])
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)))
    const rightAligned = new Set([2, 3, 5])
    const pad = (cells: string[]): string[] =>
      cells.map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
    out.push('', paint(pad(header).join('  ').trimEnd(), 'bold'))
    rows.forEach((cells, i) => {
      const padded = pad(cells)
      // Colour after padding: escape codes have length but no width.
      padded[0] = paint(padded[0], TONE_OF[comparisonVerdictLabel(report.comparisons[i]) as Verdict | 'info'])
      out.push(padded.join('  ').trimEnd())
    })
    // The direction of each row: information only, never part of the verdict above.
    const directions = report.comparisons.map(c => [c, directionLine(c)] as const).filter(([, line]) => line !== null)
    if (directions.length > 0)
      out.push('', paint('Direction (information only): answers won/lost, McNemar p, split by the baseline margin', 'bold'))
    for (const [c, line] of directions) out.push(`  ${comparisonName(c)}: ${safe(line ?? '', MAX_MESSAGE)}`)
  } else {
    out.push('', 'No comparisons.')
  }
  return out
}

/** The errors, then the warnings, each with where it is (file, field, value). */
function issueLines(report: Report, paint: (text: string, tone: Tone) => string): string[] {
  const out: string[] = []
  if (report.errors.length > 0) {
    out.push('', paint(`Errors (${formatCount(report.errors.length)}):`, 'red'))
    for (const issue of report.errors) out.push(`  ${paint('x', 'red')} ${issueLine(issue)}`)
  }
  if (report.warnings.length > 0) {
    out.push('', paint(`Warnings (${formatCount(report.warnings.length)}):`, 'yellow'))
    for (const issue of report.warnings) out.push(`  ${paint('!', 'yellow')} ${issueLine(issue)}`)
  }
  return out
}

export function renderConsole(report: Report, options: ConsoleOptions): string {
  const paint = painter(options.color)
  const out: string[] = []
  out.push(
    `helm-gate ${safe(report.tool.version, 40)}: baseline ${safe(report.baseline.path, 120)} vs candidate ${safe(report.candidate.path, 120)}`
  )

  // The serving configuration the servers reported, one line each; a difference is flagged, since
  // it changes answers with the same engine and weights.
  const serving = report.context?.serving
  // model/side-identity.ts owns the test of which rows differ.
  const differs = identityDiffers(report.baseline.identity, report.candidate.identity, serving, {
    baseline: report.baseline.requested_sampling,
    candidate: report.candidate.requested_sampling
  })
  const bRequests = report.baseline.requested_sampling?.cell ?? ''
  const cRequests = report.candidate.requested_sampling?.cell ?? ''
  const requests = bRequests || cRequests ? { baseline: bRequests, candidate: cRequests, differs: differs.requested_sampling } : null
  for (const [label, row] of [
    ['chat template', serving?.chat_template],
    // What the harness's own requests sent, then what the server would default to.
    ['sampling (requests)', requests],
    ['sampling (server defaults)', serving?.sampling]
  ] as const) {
    if (!row) continue
    const line = `${label}: baseline ${safe(row.baseline || 'not reported', 160)}; candidate ${safe(row.candidate || 'not reported', 160)}`
    out.push(row.differs ? paint(`${line}  (differs)`, 'yellow') : paint(line, 'dim'))
  }
  // The other identity rows that differ, one line.
  const differing = (['deployment', 'engine', 'image', 'weights'] as const).filter(r => differs[r])
  if (differing.length > 0) out.push(paint(`sides differ in: ${differing.join(', ')}`, 'yellow'))

  out.push(...comparisonLines(report, paint))

  if (report.efficiency.length > 0) {
    out.push('', paint('Efficiency (information only, not gated): candidate/baseline ratio of request time', 'bold'))
    for (const e of report.efficiency) {
      out.push(
        `  ${safe(e.run, MAX_NAME)} | ${safe(e.metric, 40)}: median ${formatNumber(e.median_ratio.estimate)}x ` +
          `[${formatNumber(e.median_ratio.low)}, ${formatNumber(e.median_ratio.high)}], p90 ${formatNumber(e.p90_ratio.estimate)}x ` +
          `[${formatNumber(e.p90_ratio.low)}, ${formatNumber(e.p90_ratio.high)}] (n = ${formatCount(e.n)})`
      )
    }
  }
  for (const c of report.calibrations ?? []) {
    // Four decimals, as the comment shows them: ECE and Brier move in small steps.
    const d = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(4)}`
    const line =
      `calibration ${c.metric} ${safe(c.run, MAX_NAME)}: ${c.verdict}: rise ${d(c.delta)} [${d(c.ci.low)}, ${d(c.ci.high)}], ` +
      `tolerates ${d(c.max_increase)} (baseline ${c.baseline.toFixed(4)}, candidate ${c.candidate.toFixed(4)}, n = ${formatCount(c.n)})`
    out.push(paint(line, TONE_OF[c.verdict]))
  }
  for (const line of sequentialConsoleLines(report.comparisons)) out.push(safe(line, 400))
  out.push(...renderPartsConsole(report.parts, paint))
  // The holistic grid in one line per entry: the gated and shown families, then what is blank.
  for (const row of report.holistic?.rows ?? []) {
    const named = (state: string): string =>
      row.cells
        .filter(c => c.state === state)
        .map(c => (c.verdict ? `${c.family} ${c.verdict}` : c.family))
        .join(', ') || 'none'
    out.push(`holistic ${safe(row.entry, MAX_NAME)}: gated ${named('gated')}; shown ${named('shown')}; blank ${named('blank')}`)
  }
  for (const note of report.notes) out.push(`  note: ${safe(note, MAX_MESSAGE)}`)
  out.push(...renderLoadConsole(report.load))

  out.push(...issueLines(report, paint))

  const verdict = paint(VERDICT_WORD[report.verdict].toUpperCase(), TONE_OF[report.verdict])
  // With two halves or a part the last line names the one that decided and its figure (report/decision.ts).
  const why = report.load || report.parts?.length ? decide(report).detail : report.headline
  out.push('', `${paint('Overall:', 'bold')} ${verdict}: ${safe(why, MAX_MESSAGE)}`)
  return `${out.join('\n')}\n`
}
