/**
 * `helm-gate power --config FILE [--pilot DIR | --discordance R]`: for each gated comparison,
 * the smallest max_eval_instances whose interval would be narrower than its tolerated drop.
 * Normal approximation for paired differences (see stats/power.ts).
 */
import { readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { loadGateConfig } from '../../config/load.js'
import { gateSections } from '../../pipeline/measurement-definitions.js'
import { InputError, UsageError } from '../../errors.js'
import type { Comparison, Report } from '../../model/report.js'
import { binarySd, instancesNeeded } from '../../stats/power.js'
import { normalQuantile } from '../../stats/normal.js'
import { numberOption, parseArgs, requiredConfig } from '../args.js'
import type { CliIo } from '../io.js'
import { POWER_USAGE } from '../usage.js'

const SPECS = {
  config: { value: true },
  pilot: { value: true },
  discordance: { value: true },
  debug: { value: false },
  help: { value: false }
}

export interface PowerRow {
  entry: string
  metric: string
  perturbation: string | null
  maxDrop: number | null
  sd: number | null
  delta: number
  needed: number | null
  note: string
}

export async function powerCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, SPECS)
  if (args.flags.has('help')) {
    io.stdout(POWER_USAGE)
    return 0
  }
  const configPath = requiredConfig(args, POWER_USAGE)
  const discordance = numberOption(args, 'discordance', n => n > 0 && n <= 1, 'a rate in (0, 1]')
  const pilotPath = args.options.get('pilot')
  if ((discordance === undefined) === (pilotPath === undefined)) {
    throw new UsageError('usage.missing', `give exactly one of --pilot DIR or --discordance R\n\n${POWER_USAGE}`)
  }
  const config = await loadGateConfig(resolve(io.cwd, configPath), { sections: gateSections() })
  const confidence = config.statistics.confidence
  const rows: PowerRow[] = []
  if (discordance !== undefined) {
    for (const run of config.runs) {
      const sd = binarySd(discordance)
      rows.push({
        entry: run.entry,
        metric: run.metric,
        perturbation: null,
        maxDrop: run.maxDrop,
        sd,
        delta: 0,
        needed: run.maxDrop === null ? null : instancesNeeded({ sd, delta: 0, margin: run.maxDrop, confidence }),
        note: run.maxDrop === null ? 'relative drop: needs a pilot for the baseline mean' : `assumed discordance ${discordance}`
      })
    }
  } else {
    const report = await readPilot(resolve(io.cwd, pilotPath as string))
    for (const c of report.comparisons.filter(c => c.gated)) rows.push(pilotRow(c, confidence))
  }
  io.stdout(renderPower(rows, config.helm?.maxEvalInstances ?? null, confidence))
  return 0
}

/** sd of the paired difference recovered from a pilot comparison. */
export function pilotRow(c: Comparison, confidence: number): PowerRow {
  let sd: number | null
  if (c.binary && c.pairs > 0) {
    sd = binarySd((c.wins + c.losses) / c.pairs, c.delta)
  } else if (c.n > 0) {
    // Continuous metrics: invert the interval's half-width, hw = z * sd / sqrt(n).
    const z = normalQuantile(1 - (1 - confidence) / 2)
    sd = (((c.ci.high - c.ci.low) / 2) * Math.sqrt(c.n)) / z
  } else {
    sd = null
  }
  const margin = c.max_drop
  // For lower-is-better metrics a drop is an increase: mirror delta.
  const delta = c.direction === 'lower' ? -c.delta : c.delta
  const needed = sd === null ? null : instancesNeeded({ sd, delta, margin, confidence })
  return {
    entry: c.entry ?? c.run,
    metric: c.metric,
    perturbation: c.perturbation,
    maxDrop: c.max_drop,
    sd,
    delta: c.delta,
    needed,
    note:
      sd === null
        ? 'no paired data in the pilot'
        : needed === null
          ? `the pilot's delta ${c.delta.toFixed(4)} is already beyond the tolerated drop: no sample size passes`
          : `pilot n=${c.n}, ${c.wins + c.losses} changed`
  }
}

async function readPilot(path: string): Promise<Report> {
  let file = path
  try {
    if ((await stat(path)).isDirectory()) file = join(path, 'report.json')
  } catch {
    throw new InputError('input.missing', 'the pilot folder or report does not exist', { file: path })
  }
  try {
    const report = JSON.parse(await readFile(file, 'utf8')) as Report
    if (report.schema_version !== 1 || !Array.isArray(report.comparisons)) throw new Error('not a helm-gate report')
    return report
  } catch (error) {
    throw new InputError('input.pilot', `cannot read the pilot report: ${(error as Error).message}`, { file })
  }
}

export function renderPower(rows: PowerRow[], current: number | null, confidence: number): string {
  const lines = [
    `Instances needed for a decisive ${Math.round(confidence * 100)}% interval (normal approximation, paired differences)`,
    current === null ? '' : `current max_eval_instances: ${current}`,
    ''
  ]
  for (const row of rows) {
    const name = `${row.entry} ${row.metric}${row.perturbation ? ` [${row.perturbation}]` : ''}`
    const needed = row.needed === null ? 'not reachable' : String(row.needed)
    const enough = row.needed !== null && current !== null ? (row.needed <= current ? ' (enough)' : ' (raise max_eval_instances)') : ''
    lines.push(
      `  ${name}: max_drop ${row.maxDrop ?? 'relative'}, sd ${row.sd === null ? '-' : row.sd.toFixed(4)} -> ${needed}${enough}; ${row.note}`
    )
  }
  return `${lines.filter((line, i) => line !== '' || i === 2).join('\n')}\n`
}
