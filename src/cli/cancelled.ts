/**
 * Ctrl-C (SIGINT) or SIGTERM to `helm-gate run` / `load` still leaves an output folder that says
 * what happened. The signal handler (src/launch/registry.ts) first stops every helm-run and
 * launched server; then this hook writes an error report saying the run was cancelled next to
 * the logs written so far, so the folder never reads as a gate that is still running or that
 * silently ended, and the exit status is 128 + the signal's number.
 */
import { join } from 'node:path'
import type { StatisticsSettings } from '../config/types.js'
import { GateError } from '../errors.js'
import { guardOnCancel, type CancelGuard } from '../launch/registry.js'
import { errorReport } from '../pipeline/error-report.js'
import type { CliIo } from './io.js'
import { writeReportOutputs } from './output.js'

export function reportOnCancel(outDir: string, statistics: StatisticsSettings, io: CliIo, html: boolean): CancelGuard {
  return guardOnCancel(async signal => {
    const cancelled = new GateError(
      'run.cancelled',
      `helm-gate received ${signal} before the gate finished: every helm-run and launched server was stopped; nothing was compared, and the logs written until then are in ${join(outDir, 'logs')}`
    )
    const report = errorReport(`Cancelled: helm-gate received ${signal} before the gate finished.`, [cancelled], statistics)
    await writeReportOutputs(report, {
      json: join(outDir, 'report.json'),
      markdown: join(outDir, 'report.md'),
      html: html ? join(outDir, 'report.html') : null,
      // The summary of a cancelled run is its one error: printed as --quiet prints errors.
      quiet: true,
      io
    })
    io.stderr(`helm-gate: cancelled; ${join(outDir, 'report.json')} says so\n`)
  })
}
