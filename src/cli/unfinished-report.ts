/**
 * Every way `helm-gate run` / `load` can end leaves an output folder that says what happened, once
 * the folder holds anything of the run (a server's log, a side's folder).
 *
 * Ctrl-C (SIGINT) or SIGTERM: the signal handler (src/process/registry.ts) first stops every
 * helm-run and launched server and removes the temporary files; then the hook below writes an
 * error report saying the run was cancelled next to the logs written so far (named by their place
 * in the output folder, as everywhere in the report), so the folder never reads as a gate that is still
 * running or that silently ended, and the exit status is 128 + the signal's number.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { StatisticsSettings } from '../config/types.js'
import { GateError } from '../errors.js'
import { guardOnCancel, type CancelGuard } from '../process/registry.js'
import { errorReport, issueFrom } from '../model/error-report.js'
import type { Report } from '../model/report.js'
import type { CliIo } from './io.js'
import { writeReportOutputs } from './output.js'

export function reportOnCancel(outDir: string, statistics: StatisticsSettings, io: CliIo, html: boolean): CancelGuard {
  return guardOnCancel(async signal => {
    const cancelled = new GateError(
      'run.cancelled',
      `helm-gate received ${signal} before the gate finished: every helm-run and launched server was stopped and the temporary files (prod_env, the base commit's worktree) removed; nothing was compared, and the logs written until then are in logs/ of the output folder`
    )
    const report = errorReport(`Cancelled: helm-gate received ${signal} before the gate finished.`, [cancelled], statistics)
    // The summary of a cancelled run is its one error: printed as --quiet prints errors.
    await writeInto(outDir, report, io, html, true)
    io.stderr(`helm-gate: cancelled; ${join(outDir, 'report.json')} says so\n`)
  })
}

/**
 * An error that stopped the run (a launch refused because something already answers at the
 * address, a side that could not start): report.json, report.md and report.html (for `run`) hold
 * it next to the logs. Only into a folder the run has started to fill and has not yet reported
 * in: a refusal before that (a usage error) leaves no folder behind. The error is printed once,
 * by the command line's top level.
 */
export async function reportFailure(
  outDir: string,
  error: unknown,
  statistics: StatisticsSettings,
  io: CliIo,
  html: boolean
): Promise<void> {
  const entries = await readdir(outDir).catch(() => [] as string[])
  // A report already written (the run finished; a later copy, --json FILE, failed) is the
  // evidence of what was measured: it is never replaced by the error of its copy.
  if (entries.length === 0 || entries.includes('report.json')) return
  const report = errorReport(`Error: the gate stopped before comparing: ${issueFrom(error).message}`, [error], statistics)
  try {
    await writeInto(outDir, report, io, html, false)
  } catch {
    // The error being reported is the one that matters; the top level prints it either way.
  }
}

/**
 * Runs a command's work with both guards: the cancelled report on a signal, the error report on
 * an error (which is still thrown, for the top level to print). `work` calls `cancel.settle()`
 * before writing its own reports.
 */
export async function reportingUnfinished(
  outDir: string,
  statistics: StatisticsSettings,
  io: CliIo,
  html: boolean,
  work: (cancel: CancelGuard) => Promise<number>
): Promise<number> {
  const cancel = reportOnCancel(outDir, statistics, io, html)
  try {
    return await work(cancel)
  } catch (error) {
    // Unless helm-gate is being cancelled: then the cancelled report is the one written, and
    // settle() waits for the signal handler to exit.
    await cancel.settle()
    await reportFailure(outDir, error, statistics, io, html)
    throw error
  }
}

function writeInto(outDir: string, report: Report, io: CliIo, html: boolean, printErrors: boolean): Promise<void> {
  return writeReportOutputs(report, {
    json: join(outDir, 'report.json'),
    markdown: join(outDir, 'report.md'),
    html: html ? join(outDir, 'report.html') : null,
    quiet: true,
    print: printErrors,
    io
  })
}
