/**
 * The check run's output. GitHub shows `summary` on the check's page and `text` below it, and
 * limits each to 65,535 characters, so the decision (headline, errors, table, what would
 * resolve an inconclusive result) goes in the summary and the supporting detail (forest plot,
 * changed answers) in the text; each is budgeted on its own.
 */
import { sanitizeText, truncateText } from './escape.js'
import { decide } from './decision.js'
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

/** What decided, with the figure (report/decision.ts): plain text, one line, GitHub's 255 characters. */
function title(report: Report): string {
  return truncateText(sanitizeText(decide(report).line), LIMITS.checkTitle)
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
