/**
 * `helm-gate traffic build LOG... --out FILE --count N`: a frozen traffic set from request logs
 * (docs/traffic.md, "Building a set"). Reads the logs, writes the set and its summary beside it
 * (`<name>.summary.json`), and prints the summary for review.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { InputError, UsageError } from '../../errors.js'
import { buildTrafficSet, renderSummary, type LogFile } from '../../traffic/build.js'
import { numberOption, parseArgs } from '../args.js'
import type { CliIo } from '../io.js'
import { TRAFFIC_USAGE } from '../usage.js'

const SPECS = {
  out: { value: true },
  count: { value: true },
  seed: { value: true },
  'tag-field': { value: true },
  'drop-field': { value: true },
  'skip-non-chat': { value: false },
  quiet: { value: false },
  debug: { value: false },
  help: { value: false }
}

export async function trafficCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(TRAFFIC_USAGE)
    return 0
  }
  if (sub !== 'build') {
    throw new UsageError(
      'usage.command',
      `${sub === undefined ? 'give a traffic command' : `unknown traffic command ${JSON.stringify(sub)}`}\n\n${TRAFFIC_USAGE}`,
      sub === undefined ? {} : { value: sub }
    )
  }
  const args = parseArgs(rest, SPECS)
  if (args.flags.has('help')) {
    io.stdout(TRAFFIC_USAGE)
    return 0
  }
  const out = args.options.get('out')
  if (!out) throw new UsageError('usage.missing', `give the set to write with --out FILE\n\n${TRAFFIC_USAGE}`)
  if (!out.endsWith('.jsonl')) throw new UsageError('usage.value', '--out must name a .jsonl file', { field: '--out', value: out })
  const count = numberOption(args, 'count', n => Number.isInteger(n) && n >= 1 && n <= 1_000_000, 'an integer from 1 to 1000000')
  if (count === undefined) throw new UsageError('usage.missing', `give how many requests to sample with --count N\n\n${TRAFFIC_USAGE}`)
  const seed = numberOption(args, 'seed', n => Number.isInteger(n) && n >= 0 && n < 2 ** 32, 'an integer from 0 to 2^32-1') ?? 0
  const tagField = args.options.get('tag-field') ?? 'tag'
  if (tagField.trim() === '') throw new UsageError('usage.value', '--tag-field must name a key', { field: '--tag-field', value: tagField })
  const dropFields = (args.options.get('drop-field') ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)
  if (args.positionals.length === 0) throw new UsageError('usage.missing', `give at least one log file\n\n${TRAFFIC_USAGE}`)

  const files: LogFile[] = []
  for (const name of args.positionals) {
    const path = resolve(io.cwd, name)
    try {
      files.push({ name, text: await readFile(path, 'utf8') })
    } catch (error) {
      throw new InputError('input.missing', `cannot read the log: ${(error as Error).message}`, { file: name })
    }
  }
  const { instances, summary } = buildTrafficSet(files, { count, seed, tagField, dropFields, skipNonChat: args.flags.has('skip-non-chat') })
  const outPath = resolve(io.cwd, out)
  const summaryName = `${out.slice(0, -'.jsonl'.length)}.summary.json`
  await write(outPath, instances.map(i => `${JSON.stringify(i)}\n`).join(''))
  await write(resolve(io.cwd, summaryName), `${JSON.stringify(summary, null, 2)}\n`)
  if (!args.flags.has('quiet')) io.stdout(renderSummary(summary, out, summaryName))
  return 0
}

async function write(file: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, text)
  } catch (error) {
    throw new InputError('output.unwritable', `cannot write ${file}: ${(error as Error).message}`, { file })
  }
}
