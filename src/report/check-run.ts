/**
 * The check run's output. GitHub shows `summary` on the check's page and `text` below it, and
 * limits each to 65,535 characters, so the decision (headline, errors, table, what would
 * resolve an inconclusive result) goes in the summary and the supporting detail (forest plot,
 * changed answers) in the text; each is budgeted on its own.
 */
import { sanitizeText, truncateText } from './escape.js'
import { formatCount, VERDICT_WORD } from './format.js'
import { renderMarkdown, type MarkdownOptions, type MarkdownSection } from './markdown.js'
import type { Report } from './model.js'

export type CheckRunConclusion = 'success' | 'failure' | 'neutral'

export interface CheckRunOptions {
  /** What an inconclusive verdict becomes. It blocks a merge like a failure unless chosen otherwise. */
  inconclusive?: 'failure' | 'neutral'
  links?: MarkdownOptions['links']
  gateFileChange?: string | null
  /** Per field (summary, text); GitHub's limit is 65,535. */
  maxLength?: number
}

export interface CheckRunOutput {
  title: string
  summary: string
  text: string
  conclusion: CheckRunConclusion
}

export const CHECK_RUN_OUTPUT_LIMIT = 65_535
/** GitHub does not document a title limit; the checks UI shows about one line. */
const TITLE_LIMIT = 255

const SUMMARY_SECTIONS: readonly MarkdownSection[] = ['headline', 'links', 'issues', 'gate-file', 'table', 'inconclusive', 'efficiency']
const TEXT_SECTIONS: readonly MarkdownSection[] = ['forest', 'examples']

export function checkRunConclusion(verdict: Report['verdict'], inconclusive: 'failure' | 'neutral' = 'failure'): CheckRunConclusion {
  if (verdict === 'pass') return 'success'
  if (verdict === 'inconclusive') return inconclusive
  return 'failure'
}

function title(report: Report): string {
  const gated = report.comparisons.filter(c => c.gated)
  const count = (verdict: string): number => gated.filter(c => c.verdict === verdict).length
  const parts = [`${VERDICT_WORD[report.verdict]}`]
  if (report.errors.length > 0) parts.push(`${formatCount(report.errors.length)} error${report.errors.length === 1 ? '' : 's'}`)
  if (gated.length > 0) {
    parts.push(
      `${formatCount(count('pass'))}/${formatCount(gated.length)} gated passed` +
        (count('fail') > 0 ? `, ${formatCount(count('fail'))} failed` : '') +
        (count('inconclusive') > 0 ? `, ${formatCount(count('inconclusive'))} inconclusive` : '')
    )
  }
  // Plain text (GitHub does not render markdown in the title), one line.
  return truncateText(sanitizeText(parts.join(': ')).replace(/\s+/g, ' '), TITLE_LIMIT)
}

export function renderCheckRun(report: Report, options: CheckRunOptions = {}): CheckRunOutput {
  const maxLength = Math.min(options.maxLength ?? CHECK_RUN_OUTPUT_LIMIT, CHECK_RUN_OUTPUT_LIMIT)
  const shared = { maxLength, links: options.links, gateFileChange: options.gateFileChange ?? null }
  const summary = renderMarkdown(report, { ...shared, sections: SUMMARY_SECTIONS })
  const hasDetail = report.comparisons.length > 0
  const text = hasDetail ? renderMarkdown(report, { ...shared, sections: TEXT_SECTIONS }) : ''
  return {
    title: title(report),
    summary,
    text,
    conclusion: checkRunConclusion(report.verdict, options.inconclusive)
  }
}
