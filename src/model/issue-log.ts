/** Collects the errors and warnings of one comparison run into report issues. */
import { GateError, showValue } from '../errors.js'
import type { ReportIssue } from './report.js'

export class IssueLog {
  readonly errors: ReportIssue[] = []
  readonly warnings: ReportIssue[] = []

  error(code: string, message: string, where: { file?: string; field?: string; value?: unknown } = {}): void {
    this.errors.push(issue(code, message, where))
  }

  warn(code: string, message: string, where: { file?: string; field?: string; value?: unknown } = {}): void {
    this.warnings.push(issue(code, message, where))
  }

  fromError(error: GateError): void {
    this.errors.push(issue(error.code, error.message, error.location))
  }
}

function issue(code: string, message: string, where: { file?: string; field?: string; value?: unknown }): ReportIssue {
  const out: ReportIssue = { code, message }
  if (where.file !== undefined) out.file = where.file
  if (where.field !== undefined) out.field = where.field
  if (where.value !== undefined) out.value = showValue(where.value)
  return out
}
