/**
 * `helm-gate load --config FILE --out DIR`: the performance half alone (docs/load.md). Probes
 * both deployments, runs the load blocks A B B A ..., writes report.json, report.md and the raw
 * per-request timings (load-timings.jsonl) to the output folder.
 * Exit 0 pass, 1 fail or inconclusive, 2 error.
 */
import { join, resolve } from 'node:path'
import { loadGateConfig } from '../../config/load.js'
import { gateSections } from '../../pipeline/measurement-definitions.js'
import { UsageError } from '../../errors.js'
import { runLoadOnly } from '../load-only.js'
import { parseArgs, requiredConfig } from '../args.js'
import type { CliIo } from '../io.js'
import { assertFreshOutputFolder } from '../out-folder.js'
import { reportingUnfinished } from '../unfinished-report.js'
import { LOAD_USAGE } from '../usage.js'
import { progressSink } from '../progress-line.js'

const SPECS = {
  config: { value: true },
  out: { value: true },
  sequential: { value: false },
  'baseline-ref': { value: true },
  quiet: { value: false },
  debug: { value: false },
  help: { value: false }
}

export async function loadCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, SPECS)
  if (args.flags.has('help')) {
    io.stdout(LOAD_USAGE)
    return 0
  }
  if (args.positionals.length > 0) {
    throw new UsageError('usage.positionals', `load takes no positional arguments\n\n${LOAD_USAGE}`, { value: args.positionals.join(' ') })
  }
  const config = await loadGateConfig(resolve(io.cwd, requiredConfig(args, LOAD_USAGE)), { sections: gateSections() })
  const outDir = resolve(io.cwd, args.options.get('out') ?? join('helm-gate-runs', new Date().toISOString().replace(/[:.]/g, '-')))
  await assertFreshOutputFolder(outDir)
  const quiet = args.flags.has('quiet')
  const say = quiet ? () => {} : progressSink(io)
  say(`helm-gate: load test, baseline vs candidate, output in ${outDir}`)
  return reportingUnfinished(outDir, config.statistics, io, false, cancel => runLoadOnly(config, outDir, args, io, say, cancel))
}
