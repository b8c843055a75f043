/**
 * The report as GitHub-flavoured markdown: the sticky PR comment, the job summary and (split in
 * two) the check run's summary and text. Pure: a report and options in, a string out.
 *
 * Every piece of text that comes from a model, a dataset, a run name or a path goes through
 * `escape.ts`; only the strings written in this file and the markdown-*.ts sections it joins
 * (the sides table, the comparisons table, the issues and gate-file diff, ...) are raw markdown.
 *
 * Size: the result never exceeds `maxLength`. It is rendered at decreasing levels of detail
 * (all changed answers, one per comparison, none, only gated or non-passing rows, only gated
 * non-passing rows) and the first that fits is returned; if none fits, the last is cut at a line
 * boundary with open fences and `<details>` closed and a "truncated" line added. The marker, the
 * headline verdict and the number of errors come first, so they always survive.
 */
import { UsageError } from '../errors.js'
import { counted } from '../words.js'
import { cutAtLineBoundary, measure, type LengthUnit } from './budget.js'
import { codeBlock, codeSpan, escapeHtmlText, escapeInline, sanitizeText, tailText, truncateText } from './escape.js'
import { renderForestPlot, type ForestRow } from './forest-plot.js'
import { decide } from './decision.js'
import { renderLoadMarkdown } from './markdown-load.js'
import {
  comparisonVerdictLabel,
  formatCount,
  formatFlips,
  formatInterval,
  formatNumber,
  formatSigned,
  marginOf,
  VERDICT_EMOJI,
  VERDICT_WORD
} from './format.js'
import { renderPartsMarkdown } from './markdown-parts.js'
import { renderAnswerLengthMarkdown } from './markdown-length.js'
import { renderCalibrationMarkdown } from './markdown-calibration.js'
import { renderSequentialMarkdown } from './markdown-sequential.js'
import { renderGridMarkdown } from './markdown-grid.js'
import { gateFileDiff, gateFileNotice, issuesBlock, MAX_ISSUE_MESSAGE, OMISSION_NOTICE } from './markdown-issues.js'
import { sidesBlock } from './markdown-sides.js'
import { RUN_LABEL_LENGTH, runLabel, tableBlock } from './markdown-table.js'
import type { ChangedExample, Comparison, EfficiencyEntry, Report } from '../model/report.js'

export { flipsCell, runLabel } from './markdown-table.js'

export type MarkdownSection =
  'headline' | 'issues' | 'table' | 'forest' | 'inconclusive' | 'efficiency' | 'examples' | 'gate-file' | 'links'

export const ALL_SECTIONS: readonly MarkdownSection[] = [
  'headline',
  'links',
  'issues',
  'gate-file',
  'table',
  'forest',
  'inconclusive',
  'efficiency',
  'examples'
]

export interface MarkdownOptions {
  /** Budget for the whole body, in `lengthUnit` (comment 65,536; check output 65,535; job summary 1 MiB). */
  maxLength: number
  /**
   * Hidden first line that identifies the sticky comment: a complete HTML comment
   * (`<!-- helm-gate:sticky-comment -->`), used verbatim, or a bare name, which is wrapped.
   */
  marker?: string
  /** Absolute http(s) URLs of the workflow run and of its artifacts. */
  links?: { run?: string; artifacts?: string }
  /** A unified diff of the gate file when this pull request changes it. */
  gateFileChange?: string | null
  /** How `maxLength` is counted; `utf8` for the job summary, whose limit is in bytes. Default `utf16`. */
  lengthUnit?: LengthUnit
  /** Changed answers shown per comparison at full detail (default 3). */
  examplesPerComparison?: number
  /** Which sections to render, in the standard order (default: all). */
  sections?: readonly MarkdownSection[]
}

/** One level of detail; the renderer walks down this list until the body fits. */
interface Detail {
  examples: number
  /** Longest excerpt of each example text. */
  excerpt: number
  rows: 'all' | 'gated-or-not-passing' | 'gated-not-passing'
  /** Issues listed per kind (errors, warnings) and inconclusive comparisons explained. */
  listed: number
  diff: boolean
  efficiencyRows: boolean
  /** Choose which comparisons show examples so that they fit in `exampleBudget`. */
  fill?: boolean
  exampleBudget?: number
}

function levels(full: number): Detail[] {
  return [
    { examples: full, excerpt: 800, rows: 'all', listed: 100, diff: true, efficiencyRows: true },
    { examples: Math.min(full, 1), excerpt: 300, rows: 'all', listed: 100, diff: true, efficiencyRows: true },
    { examples: Math.min(full, 1), excerpt: 300, rows: 'all', listed: 50, diff: true, efficiencyRows: true, fill: true },
    { examples: 0, excerpt: 0, rows: 'all', listed: 50, diff: true, efficiencyRows: true },
    { examples: 0, excerpt: 0, rows: 'gated-or-not-passing', listed: 30, diff: true, efficiencyRows: true },
    { examples: 0, excerpt: 0, rows: 'gated-not-passing', listed: 10, diff: false, efficiencyRows: false }
  ]
}

export const TRUNCATION_NOTICE = '_✂️ Truncated to fit the size limit; see the job summary or the report artifact for the full report._'

/**
 * The marker line. A complete HTML comment is used as given; a bare name is wrapped. Anything
 * that could end the comment early or span lines is refused, since the marker is how the
 * comment is found again.
 */
export function markerLine(marker: string): string {
  const wellFormed = /^<!--(?!>|->)([^\n\r]*?)-->$/.exec(marker)
  if (wellFormed && !wellFormed[1].includes('--')) return marker
  if (/^[A-Za-z0-9 _.:/=+-]+$/.test(marker) && !marker.includes('--')) return `<!-- ${marker.trim()} -->`
  throw new UsageError('report.invalid_marker', 'The comment marker must be an HTML comment or a plain name', {
    field: 'marker',
    value: marker
  })
}

/** An http(s) URL made safe as a markdown link destination, or a UsageError. */
function linkTarget(url: string, field: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError('report.invalid_link', 'A report link is not a valid URL', { field, value: url })
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new UsageError('report.invalid_link', 'A report link must be an http(s) URL', { field, value: url })
  }
  return parsed.href.replace(/\(/g, '%28').replace(/\)/g, '%29')
}

function rowIncluded(comparison: Comparison, rows: Detail['rows']): boolean {
  if (rows === 'all') return true
  const notPassing = comparison.verdict !== 'pass'
  return rows === 'gated-or-not-passing' ? comparison.gated || notPassing : comparison.gated && notPassing
}

function comparisonName(comparison: Comparison): string {
  return [comparison.run, comparison.metric, comparison.split, comparison.perturbation]
    .filter((part): part is string => part !== null && part !== '')
    .join(' · ')
}

/** Marker, verdict heading, headline sentence (one half) and the error and warning counts. */
function headlineBlock(report: Report): string[] {
  const counts = [
    `**${counted(report.errors.length, 'error', 'errors', formatCount)}**`,
    counted(report.warnings.length, 'warning', 'warnings', formatCount),
    `${counted(report.comparisons.length, 'comparison', 'comparisons', formatCount)} (${formatCount(report.comparisons.filter(c => c.gated).length)} gated)`
  ]
  if (report.load) {
    // Two halves: the heading says which one decided and its figure (report/decision.ts), so the
    // joined headline sentence ("Decided by the performance half. …") would only repeat it; each
    // half's detail follows in its own section.
    return [`## ${VERDICT_EMOJI[report.verdict]} ${escapeInline(decide(report).line, 300)} · helm-gate`, '', counts.join(' · ')]
  }
  return [
    `## ${VERDICT_EMOJI[report.verdict]} ${VERDICT_WORD[report.verdict]} · helm-gate`,
    '',
    escapeInline(report.headline, 400),
    '',
    counts.join(' · ')
  ]
}

function linksBlock(links: MarkdownOptions['links']): string[] {
  const parts: string[] = []
  if (links?.run) parts.push(`[Workflow run](${linkTarget(links.run, 'links.run')})`)
  if (links?.artifacts) {
    parts.push(`[Artifacts](${linkTarget(links.artifacts, 'links.artifacts')}): \`report.html\` in the evidence has every changed answer`)
  }
  return parts.length ? [parts.join(' · ')] : []
}

/**
 * A code block in a PR comment 800 px wide holds about 90 columns of GitHub's code font
 * (__tests__/report/browser/comment-width.test.ts); a few less leave room for other fonts.
 */
const FOREST_COLUMNS = 84

function forestBlock(shown: Comparison[]): string[] {
  if (shown.length === 0) return []
  const rows: ForestRow[] = shown.map(c => ({
    // The run name can be long; keep the metric, split and perturbation readable.
    label: [truncateText(c.run, 20), c.metric, c.split, c.perturbation].filter(p => p !== null && p !== '').join(' · '),
    low: c.ci.low,
    high: c.ci.high,
    estimate: c.delta,
    margin: marginOf(c),
    verdict: comparisonVerdictLabel(c)
  }))
  const plot = renderForestPlot(rows, { labelWidth: 56, maxColumns: FOREST_COLUMNS })
  return ['### Forest plot', '', codeBlock(plot.join('\n'), 'text'), '']
}

function inconclusiveBlock(report: Report, detail: Detail): string[] {
  const inconclusive = report.comparisons.filter(c => c.gated && c.verdict === 'inconclusive')
  if (inconclusive.length === 0) return []
  const lines = ['### 🟡 Inconclusive: what would resolve it', '']
  for (const c of inconclusive.slice(0, detail.listed)) {
    const where =
      `- ${escapeInline(comparisonName(c), 160)} (n = ${formatCount(c.n)}): the interval ` +
      `${formatInterval(c.ci.low, c.ci.high)} includes the tolerated change ${formatSigned(marginOf(c))}.`
    const fix =
      c.n_needed !== null && Number.isFinite(c.n_needed)
        ? ` About **${formatCount(c.n_needed)} instances** in total would resolve it.`
        : ' The estimated change is already at or beyond the tolerated drop, so more instances would not make it pass.'
    lines.push(where + fix)
  }
  if (inconclusive.length > detail.listed) {
    lines.push(`- … and ${formatCount(inconclusive.length - detail.listed)} more; ${OMISSION_NOTICE}.`)
  }
  lines.push(
    '',
    '**More instances, not a looser threshold:** raise `max_eval_instances` (or add scenarios) so the interval narrows. Loosening `max_drop` after seeing a result defeats the gate.',
    ''
  )
  return lines
}

function ratioCell(ratio: EfficiencyEntry['median_ratio']): string {
  return `${formatNumber(ratio.estimate)}×<br>[${formatNumber(ratio.low)}, ${formatNumber(ratio.high)}]`
}

/** Request times are seconds (HELM's inference_runtime); shown in ms below 10 s. */
function secondsText(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—'
  return Math.abs(seconds) < 10 ? `${formatNumber(seconds * 1000)} ms` : `${formatNumber(seconds)} s`
}

/** Collapsed: information only, and long on a gate with many runs. */
function efficiencyBlock(report: Report, detail: Detail): string[] {
  if (report.efficiency.length === 0 && report.notes.length === 0) return []
  const lines: string[] = []
  if (report.efficiency.length > 0) {
    lines.push('<details>', '<summary>Efficiency: request times (information only, not gated)</summary>', '')
    if (report.context?.concurrent) {
      lines.push(
        '> [!NOTE]',
        '> Both sides ran at the same time on one machine: the ratios reflect the shared client as much as the servers.',
        ''
      )
    }
    if (detail.efficiencyRows) {
      lines.push('| Run | n | Median, baseline → candidate | Median ratio | p90 ratio |', '|---|--:|---|--:|--:|')
      for (const e of report.efficiency) {
        const cells = [
          escapeInline(runLabel(e.run), RUN_LABEL_LENGTH),
          formatCount(e.n),
          `${secondsText(e.baseline_median)} → ${secondsText(e.candidate_median)}`,
          ratioCell(e.median_ratio),
          ratioCell(e.p90_ratio)
        ]
        lines.push(`| ${cells.join(' | ')} |`)
      }
      lines.push('', '_Ratios are candidate / baseline with their intervals; above 1 the candidate took longer._')
    } else {
      lines.push(
        `_${counted(report.efficiency.length, 'efficiency entry', 'efficiency entries', formatCount)} omitted to fit the size limit._`
      )
    }
    lines.push('', '</details>', '')
  }
  if (report.notes.length > 0) lines.push('### Notes', '')
  for (const note of report.notes.slice(0, detail.listed)) lines.push(`- ${escapeInline(note, MAX_ISSUE_MESSAGE)}`)
  if (report.notes.length > 0) lines.push('')
  return lines
}

/**
 * An excerpt of an example text. Cut before sanitising: examples can be megabytes and only the
 * excerpt is shown; the slack covers characters that sanitising removes.
 */
function excerptOf(value: string, length: number, fromEnd: boolean): string {
  const slack = length * 2 + 64
  const rough = value.length <= slack ? value : fromEnd ? value.slice(-slack) : value.slice(0, slack)
  const clean = sanitizeText(rough)
  return fromEnd ? tailText(clean, length) : truncateText(clean, length)
}

function exampleLines(example: ChangedExample, excerpt: number): string[] {
  const text = (label: string, value: string, fromEnd = false): string[] => [
    `${label}:`,
    '',
    codeBlock(excerptOf(value, excerpt, fromEnd), 'text'),
    ''
  ]
  return [
    `**Instance** ${codeSpan(example.instance_id, { maxLength: 120 })} (trial ${formatCount(example.train_trial_index)}): ` +
      `baseline ${formatNumber(example.baseline_value)} → candidate ${formatNumber(example.candidate_value)}`,
    '',
    // HELM prompts put the in-context examples first and the question last: show the end.
    ...text('Input (end)', example.input, true),
    ...text('Reference', example.reference),
    ...(example.failed_check ? text('Failed check', example.failed_check) : []),
    ...text('Baseline output', example.baseline_output),
    ...text('Candidate output', example.candidate_output)
  ]
}

/** Which comparisons get their changed answers first when not all fit: what blocks the merge. */
function examplePriority(c: Comparison): number {
  if (c.gated) return c.verdict === 'fail' ? 0 : c.verdict === 'inconclusive' ? 1 : 3
  return c.verdict === 'pass' ? 4 : 2
}

function detailsSection(c: Comparison, detail: Detail): string[] {
  const shown = c.examples.slice(0, detail.examples)
  const changed = c.wins + c.losses
  const lines = [
    '<details>',
    `<summary>${escapeHtmlText(comparisonName(c), 300)}: ${formatCount(shown.length)} of ${formatCount(Math.max(changed, shown.length))} changed answers</summary>`,
    '',
    `Mean ${formatNumber(c.baseline_mean)} → ${formatNumber(c.candidate_mean)} on ${counted(c.n, 'instance', 'instances', formatCount)} (${escapeInline(formatFlips(c), 80)}).`,
    ''
  ]
  for (const example of shown) lines.push(...exampleLines(example, detail.excerpt))
  lines.push('</details>', '')
  return lines
}

interface ExamplesRender {
  lines: string[]
  /** Comparisons whose changed answers are shown, of those that have any. */
  shown: number
  of: number
}

/**
 * The changed answers, one collapsed section per comparison, in report order. With `fill`,
 * sections are chosen by priority while they fit in `budget`; otherwise rendering stops once
 * `budget` is exceeded, because this level of detail cannot fit and the rest (2,000 comparisons
 * with examples make megabytes) would be rendered only to be thrown away.
 */
function examplesBlock(report: Report, detail: Detail, budget: number, unit: LengthUnit): ExamplesRender {
  const withExamples = report.comparisons.filter(c => c.examples.length > 0)
  if (detail.examples === 0 || withExamples.length === 0) return { lines: [], shown: 0, of: withExamples.length }
  const candidates = detail.fill ? [...withExamples].sort((a, b) => examplePriority(a) - examplePriority(b)) : withExamples
  const chosen = new Map<Comparison, string[]>()
  let size = measure('### Changed answers\n\n', unit)
  for (const c of candidates) {
    if (!detail.fill && size > budget) break
    const section = detailsSection(c, detail)
    const sectionSize = measure(section.join('\n'), unit) + 1
    if (detail.fill && size + sectionSize > budget) continue
    chosen.set(c, section)
    size += sectionSize
  }
  if (chosen.size === 0) return { lines: [], shown: 0, of: withExamples.length }
  const lines = ['### Changed answers', '']
  for (const c of withExamples) lines.push(...(chosen.get(c) ?? []))
  return { lines, shown: chosen.size, of: withExamples.length }
}

function omittedExamplesNote(examples: ExamplesRender, detail: Detail, full: number): string[] {
  if (examples.of === 0) return []
  let what: string
  if (examples.shown === 0) what = 'Changed answers omitted'
  else if (examples.shown < examples.of) {
    what = `Changed answers shown for ${formatCount(examples.shown)} of ${counted(examples.of, 'comparison', 'comparisons', formatCount)} (failing and inconclusive first, ${counted(detail.examples, 'answer', 'answers', formatCount)} each)`
  } else if (detail.examples < full)
    what = `Only ${counted(detail.examples, 'changed answer', 'changed answers', formatCount)} per comparison shown`
  else return []
  return [`_${what} to fit the size limit; ${OMISSION_NOTICE}._`, '']
}

function renderAtLevel(report: Report, options: MarkdownOptions, detail: Detail, full: number): { text: string; keepLines: number } {
  const sections = new Set(options.sections ?? ALL_SECTIONS)
  const lines: string[] = []
  if (options.marker !== undefined) lines.push(markerLine(options.marker))
  if (sections.has('headline')) lines.push(...headlineBlock(report))
  const keepLines = lines.length
  if (sections.has('headline')) lines.push('', ...sidesBlock(report))
  if (sections.has('links')) {
    const links = linksBlock(options.links)
    if (links.length) lines.push('', ...links)
  }
  lines.push('')
  if (sections.has('issues')) lines.push(...issuesBlock(report, detail.listed))
  const gateFileChange = options.gateFileChange ?? null
  if (sections.has('gate-file') && gateFileChange !== null) lines.push(gateFileNotice(), '')

  const shown = report.comparisons.filter(c => rowIncluded(c, detail.rows))
  const omitted = report.comparisons.filter(c => !rowIncluded(c, detail.rows))
  if (sections.has('table')) lines.push(...tableBlock(shown, omitted, report.comparisons.length))
  if (sections.has('forest')) lines.push(...forestBlock(shown))
  if (sections.has('table')) lines.push(...renderLoadMarkdown(report.load))
  if (sections.has('table')) lines.push(...renderAnswerLengthMarkdown(report.answer_lengths))
  if (sections.has('table')) lines.push(...renderCalibrationMarkdown(report.calibrations))
  if (sections.has('table')) lines.push(...renderSequentialMarkdown(report.comparisons))
  if (sections.has('table')) lines.push(...renderPartsMarkdown(report.parts))
  if (sections.has('table')) lines.push(...renderGridMarkdown(report.holistic))
  if (sections.has('inconclusive')) lines.push(...inconclusiveBlock(report, detail))
  if (sections.has('efficiency')) lines.push(...efficiencyBlock(report, detail))
  if (sections.has('examples')) {
    const examples = examplesBlock(report, detail, detail.exampleBudget ?? options.maxLength, options.lengthUnit ?? 'utf16')
    lines.push(...omittedExamplesNote(examples, detail, full), ...examples.lines)
  }
  if (sections.has('gate-file') && gateFileChange !== null) {
    if (detail.diff) lines.push(...gateFileDiff(gateFileChange))
    else lines.push(`_The gate file diff is omitted to fit the size limit; ${OMISSION_NOTICE}._`, '')
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  while (keepLines === 0 && lines.length > 0 && lines[0] === '') lines.shift()
  return { text: `${lines.join('\n')}\n`, keepLines }
}

export function renderMarkdown(report: Report, options: MarkdownOptions): string {
  if (!Number.isFinite(options.maxLength) || options.maxLength <= 0) {
    throw new UsageError('report.invalid_max_length', 'The size limit must be a positive number', {
      field: 'maxLength',
      value: options.maxLength
    })
  }
  const unit = options.lengthUnit ?? 'utf16'
  const full = Math.max(0, Math.floor(options.examplesPerComparison ?? 3))
  let last: { text: string; keepLines: number } | null = null
  const all = levels(full)
  for (const [index, level] of all.entries()) {
    let detail = level
    if (level.fill) {
      // The room the next level (the same without examples) leaves, less a line for the note.
      const without = renderAtLevel(report, options, all[index + 1], full)
      const room = options.maxLength - measure(without.text, unit) - 400
      if (room <= 0) continue
      detail = { ...level, exampleBudget: room }
    }
    last = renderAtLevel(report, options, detail, full)
    if (measure(last.text, unit) <= options.maxLength) return last.text
  }
  const smallest = last as { text: string; keepLines: number }
  return cutAtLineBoundary(smallest.text, options.maxLength, unit, TRUNCATION_NOTICE, smallest.keepLines)
}
