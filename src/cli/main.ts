/**
 * The command-line twin of the action: the same core, runnable on a workstation.
 * Expected failures (GateError) print one line naming the file, field and value and exit 2;
 * a stack trace is shown only with --debug.
 */
import { compareCommand } from './commands/compare.js'
import { powerCommand } from './commands/power.js'
import type { CliIo } from './io.js'
import { COMMAND_LINES } from './usage.js'
import { GateError } from '../errors.js'
import { HELM_GATE_VERSION } from '../version.js'
import { redactText } from '../secrets/redact.js'

const COLUMN = Math.max(...COMMAND_LINES.map(c => c.name.length)) + 3

/** The general help: every command in one line; `helm-gate <command> --help` gives its usage. */
const USAGE = `helm-gate ${HELM_GATE_VERSION}: is the candidate deployment meaningfully worse than the baseline?

usage: helm-gate <command> [options]      helm-gate <command> --help (or -h): its usage

${COMMAND_LINES.map(c => `  ${c.name.padEnd(COLUMN)}${c.summary}`).join('\n')}

exit status: 0 pass, 1 fail or inconclusive, 2 error (bad input, failed guard, failed run)
`

type Command = (argv: string[], io: CliIo) => Promise<number>

// The commands that start servers or load them are loaded when used: their HTTP client (undici)
// and launch code are most of the bundle's start-up, which `compare` does not need.
const COMMANDS: Record<string, Command> = {
  compare: compareCommand,
  run: async (argv, io) => (await import('./commands/run.js')).runCommand(argv, io),
  load: async (argv, io) => (await import('./commands/load.js')).loadCommand(argv, io),
  plan: async (argv, io) => (await import('./commands/plan.js')).planCommand(argv, io),
  power: powerCommand,
  traffic: async (argv, io) => (await import('./commands/traffic.js')).trafficCommand(argv, io)
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE)
    return name ? 0 : 2
  }
  if (name === '--version') {
    io.stdout(`${HELM_GATE_VERSION}\n`)
    return 0
  }
  const command = COMMANDS[name]
  if (!command) {
    io.stderr(`helm-gate: unknown command ${JSON.stringify(name)}; try helm-gate --help\n`)
    return 2
  }
  const debug = rest.includes('--debug')
  try {
    return await command(rest, io)
  } catch (error) {
    if (error instanceof GateError) {
      // The code last: scripts (and the fault corpus) match on it; people read the sentence.
      io.stderr(`helm-gate: error: ${error.describe()} [${error.code}]\n`)
      if (debug && error.stack) io.stderr(`${error.stack}\n`)
      return 2
    }
    // An unexpected error may quote a URL or a server's answer: redacted like every other message.
    io.stderr(`helm-gate: internal error: ${redactText((error as Error)?.message ?? String(error))}\n`)
    if (debug && (error as Error)?.stack) io.stderr(`${(error as Error).stack}\n`)
    else io.stderr('helm-gate: run again with --debug for a stack trace, and please report it\n')
    return 2
  }
}
