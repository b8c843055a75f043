/**
 * The report of a run whose sides did not all complete. Nothing is compared: each failed side's
 * error already names its root cause (see root-cause.ts), and reading the sides' output would
 * only repeat it as symptoms ("no runs", "incomplete run"), or blame a healthy side that never
 * started because the other was down.
 */
import type { StatisticsSettings } from '../config/types.js'
import type { GateError } from '../errors.js'
import { errorReport } from '../model/error-report.js'
import type { Report } from '../model/report.js'

export function sidesFailedReport(
  errors: GateError[],
  statistics: StatisticsSettings,
  baselinePath: string,
  candidatePath: string
): Report {
  const report = errorReport(
    `The gate could not run both sides (${errors.length} error${errors.length === 1 ? '' : 's'}); nothing was compared, nothing passes.`,
    errors,
    statistics
  )
  report.baseline.path = baselinePath
  report.candidate.path = candidatePath
  return report
}
