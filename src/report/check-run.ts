/**
 * The check run's output. GitHub shows `summary` on the check's page and `text` below it, and
 * limits each to 65,535 characters, so the decision (headline, errors, table, what would
 * resolve an inconclusive result) goes in the summary and the supporting detail (forest plot,
 * changed answers) in the text; each is budgeted on its own.
 */
import { sanitizeText, truncateText } from './escape.js'
import { formatCount, VERDICT_WORD } from './format.js'
import { renderMarkdown, type MarkdownOptions, type MarkdownSection } from './markdown.js'
import { LIMITS } from '../model/publication.js'
import type { Report } from '../model/report.js'

/** The conclusion is not the renderer's business: see model/publication.ts. */
export interface CheckRunOptions {
  links?: MarkdownOptions['links']
  gateFileChange?: string | null
  /** Per field (summary, text); GitHub's limit is 65,535. */
  maxLength?: number
}

export interface CheckRunOutput {
  title: string
  summary: string
  text: string
}

const SUMMARY_SECTIONS: readonly MarkdownSection[] = ['headline', 'links', 'issues', 'gate-file', 'table', 'inconclusive', 'efficiency']
const TEXT_SECTIONS: readonly MarkdownSection[] = ['forest', 'examples']

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
  return truncateText(sanitizeText(parts.join(': ')).replace(/\s+/g, ' '), LIMITS.checkTitle)
}

export function renderCheckRun(report: Report, options: CheckRunOptions = {}): CheckRunOutput {
  const maxLength = Math.min(options.maxLength ?? LIMITS.checkOutput, LIMITS.checkOutput)
  const shared = { maxLength, links: options.links, gateFileChange: options.gateFileChange ?? null }
  const summary = renderMarkdown(report, { ...shared, sections: SUMMARY_SECTIONS })
  const hasDetail = report.comparisons.length > 0
  const text = hasDetail ? renderMarkdown(report, { ...shared, sections: TEXT_SECTIONS }) : ''
  return {
    title: title(report),
    summary,
    text
  }
}
