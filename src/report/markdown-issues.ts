/**
 * The markdown report's errors and warnings, and the gate-file notice and diff (docs/report.md).
 * Pure: issues in, lines out; every message, file, field and value goes through `escape.ts`.
 */
import { codeBlock, codeSpan, escapeInline, sanitizeText, truncateText } from './escape.js'
import { formatCount } from './format.js'
import type { Report, ReportIssue } from '../model/report.js'

const MAX_DIFF_LINES = 200
const MAX_DIFF_LINE = 300
export const MAX_ISSUE_MESSAGE = 600

export const OMISSION_NOTICE = 'see the job summary or the report artifact for everything'

function issueLine(issue: ReportIssue, icon: string): string {
  const where: string[] = []
  if (issue.file) where.push(`file ${codeSpan(issue.file, { maxLength: 200 })}`)
  if (issue.field) where.push(`field ${codeSpan(issue.field, { maxLength: 120 })}`)
  if (issue.value !== undefined && issue.value !== '') where.push(`value ${codeSpan(issue.value, { maxLength: 120 })}`)
  const location = where.length ? ` (${where.join(', ')})` : ''
  return `- ${icon} ${codeSpan(issue.code, { maxLength: 80 })} ${escapeInline(issue.message, MAX_ISSUE_MESSAGE)}${location}`
}

export function issuesBlock(report: Report, listed: number): string[] {
  const lines: string[] = []
  const list = (title: string, issues: ReportIssue[], icon: string): void => {
    if (issues.length === 0) return
    lines.push(`### ${icon} ${title} (${formatCount(issues.length)})`, '')
    for (const issue of issues.slice(0, listed)) lines.push(issueLine(issue, icon))
    if (issues.length > listed) lines.push(`- … and ${formatCount(issues.length - listed)} more; ${OMISSION_NOTICE}.`)
    lines.push('')
  }
  list('Errors', report.errors, '⛔')
  list('Warnings', report.warnings, '⚠️')
  return lines
}

export function gateFileNotice(): string {
  return '> [!NOTE]\n> ⚙️ The gate file changed in this pull request. The change takes effect after merge: this run used the gate file from the base branch.'
}

export function gateFileDiff(diff: string): string[] {
  const lines = sanitizeText(diff).split('\n')
  const shown = lines.slice(0, MAX_DIFF_LINES).map(line => truncateText(line, MAX_DIFF_LINE))
  if (lines.length > MAX_DIFF_LINES) shown.push(`… ${formatCount(lines.length - MAX_DIFF_LINES)} more lines`)
  return ['### ⚙️ Gate file change (takes effect after merge)', '', codeBlock(shown.join('\n'), 'diff'), '']
}
