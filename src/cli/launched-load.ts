/** `load` and `run --only load`: the launched load half (src/launch/load-only.ts) from the CLI's options. */
import type { GateConfig } from '../config/types.js'
import { launchedLoadFor } from '../launch/load-only.js'
import type { LoadOutcome } from '../load/run-load.js'
import type { ParsedArgs } from './args.js'
import type { CliIo } from './io.js'

export function launchedLoadFromArgs(
  config: GateConfig,
  outDir: string,
  args: ParsedArgs,
  io: CliIo,
  say: (line: string) => void
): (() => Promise<LoadOutcome>) | undefined {
  const baseRef = args.options.get('baseline-ref') ?? null
  return launchedLoadFor(config, { outDir, cwd: io.cwd, env: io.env, progress: say, baseRef, sequential: args.flags.has('sequential') })
}
