/**
 * `load` and `run --only load`: the performance half alone (runLoadOnlyGate, src/pipeline/), from
 * the CLI's options; the report goes to the output folder.
 */
import { join } from 'node:path'
import type { GateConfig } from '../config/types.js'
import { runLoadOnlyGate } from '../pipeline/run-gate.js'
import type { CancelGuard } from '../process/registry.js'
import { exitCode } from '../model/publication.js'
import type { Report } from '../model/report.js'
import type { ParsedArgs } from './args.js'
import type { CliIo } from './io.js'
import { writeReportOutputs } from './output.js'

/** Runs the load half into `outDir` and writes its report; returns the exit status. */
export async function runLoadOnly(
  config: GateConfig,
  outDir: string,
  args: ParsedArgs,
  io: CliIo,
  say: (line: string) => void,
  cancel: CancelGuard,
  /** `run --only load`'s --json/--markdown/--html copies, once the folder's report is written. */
  extraReports?: (report: Report) => Promise<void>
): Promise<number> {
  const report = await runLoadOnlyGate(config, {
    outDir,
    cwd: io.cwd,
    env: io.env,
    progress: say,
    baseRef: args.options.get('baseline-ref') ?? null,
    sequential: args.flags.has('sequential')
  })
  await cancel.settle()
  await writeReportOutputs(report, {
    json: join(outDir, 'report.json'),
    markdown: join(outDir, 'report.md'),
    quiet: args.flags.has('quiet'),
    io
  })
  await extraReports?.(report)
  return exitCode(report.verdict)
}
