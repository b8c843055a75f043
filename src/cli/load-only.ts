/**
 * `load` and `run --only load`: the performance half alone, from the CLI's options. A gate that
 * launches its servers has them started, load-tested while up and stopped (src/launch/load-only.ts).
 */
import { join } from 'node:path'
import type { GateConfig } from '../config/types.js'
import { launchedLoadFor } from '../launch/load-only.js'
import { loadOnlyReport } from '../load/combine.js'
import { runLoadHalf } from '../load/run-half.js'
import type { CancelGuard } from '../launch/registry.js'
import { exitCode } from '../model/publication.js'
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
  cancel: CancelGuard
): Promise<number> {
  const baseRef = args.options.get('baseline-ref') ?? null
  const measured = launchedLoadFor(config, {
    outDir,
    cwd: io.cwd,
    env: io.env,
    progress: say,
    baseRef,
    sequential: args.flags.has('sequential')
  })
  const outcome = await runLoadHalf(config, outDir, { env: io.env, progress: say, gateSetOutput: null, measured })
  const report = loadOnlyReport(config, outcome.report)
  await cancel.settle()
  await writeReportOutputs(report, {
    json: join(outDir, 'report.json'),
    markdown: join(outDir, 'report.md'),
    quiet: args.flags.has('quiet'),
    io
  })
  return exitCode(report.verdict)
}
