/**
 * A report for a gate that could not compare at all (the gate file is invalid, helm-run could
 * not start, the shards are incomplete). It has the error verdict, so it blocks like a failure,
 * and it still goes through the renderers, so the PR comment says what went wrong.
 */
import { GateError } from '../errors.js'
import { newReport, type Report, type ReportIssue, type Side } from './report.js'
import { DEFAULT_STATISTICS, type StatisticsSettings } from '../config/types.js'

export function issueFrom(error: unknown): ReportIssue {
  if (error instanceof GateError) {
    const issue: ReportIssue = { code: error.code, message: error.message }
    if (error.location.file) issue.file = error.location.file
    if (error.location.field) issue.field = error.location.field
    if (error.location.value !== undefined) issue.value = String(error.location.value)
    return issue
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) }
}

export function errorReport(headline: string, errors: readonly unknown[], statistics: StatisticsSettings = DEFAULT_STATISTICS): Report {
  return emptyReport('error', headline, errors, statistics)
}

/**
 * The report of a run that compares nothing (a shard, an archived baseline): pass only means
 * every side ran to completion, which is what mode run's `verdict` output promises.
 */
export function runReport(sides: readonly Side[], complete: boolean, errors: readonly unknown[], statistics: StatisticsSettings): Report {
  const headline = complete
    ? `The ${sides.join(' and ')} ran to completion; nothing was compared here.`
    : `The ${sides.join(' and ')} did not run to completion: ${errors.map(e => issueFrom(e).message).join('; ') || 'see the logs'}`
  return emptyReport(complete ? 'pass' : 'error', headline, errors, statistics)
}

function emptyReport(verdict: Report['verdict'], headline: string, errors: readonly unknown[], statistics: StatisticsSettings): Report {
  return newReport(statistics, { verdict, headline, errors: errors.map(issueFrom) })
}
