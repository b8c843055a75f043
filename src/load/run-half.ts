/** The load half with its timings written into the output folder: for the CLI and the action. */
import { join } from 'node:path'
import type { GateConfig } from '../config/types.js'
import { ConfigError } from '../errors.js'
import type { SideEndpoint } from '../plan/run-plan.js'
import type { Side } from '../model/verdict.js'
import { runLoad } from './run-load.js'
import type { LoadOutcome } from './load-run.js'
import { TIMINGS_FILE, writeTimings } from './timings-file.js'

/** Runs the load half and writes its timings (load-timings.jsonl) into `outDir`. */
export async function runLoadHalf(
  config: GateConfig,
  outDir: string,
  options: {
    env: Record<string, string | undefined>
    progress: (line: string) => void
    gateSetOutput: string | null
    /** Each side's endpoint and key from the run plan (src/plan/run-plan.ts). */
    endpoints?: Record<Side, SideEndpoint | null>
    /** The outcome measured already, while launched servers were up (src/launch/load-while-up.ts). */
    measured?: () => Promise<LoadOutcome>
  }
): Promise<LoadOutcome> {
  if (!config.load) {
    throw new ConfigError('config.missing', 'the gate file has no load: section (the performance half)', {
      file: config.source,
      field: 'load'
    })
  }
  const outcome = options.measured ? await options.measured() : await runLoad(config, options)
  if (outcome.timings.length > 0) {
    await writeTimings(join(outDir, TIMINGS_FILE), outcome.timings)
    outcome.report.timings_file = TIMINGS_FILE
  }
  return outcome
}
