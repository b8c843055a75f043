/**
 * A small, strict argument parser: `--name value`, `--name=value`, boolean flags and
 * positionals (and `-h` for --help). Unknown options are usage errors (exit 2), never ignored: a mistyped
 * `--max-drop` must not leave the gate on a default.
 */
import { UsageError } from '../errors.js'

export interface OptionSpec {
  /** Takes a value (`--name v`) or is a boolean flag. */
  value: boolean
}

export interface ParsedArgs {
  positionals: string[]
  options: Map<string, string>
  flags: Set<string>
}

export function parseArgs(argv: string[], specs: Record<string, OptionSpec>): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], options: new Map(), flags: new Set() }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      parsed.positionals.push(...argv.slice(i + 1))
      break
    }
    // `-h` is the one short option: every command reads it as --help, as people expect.
    if (arg === '-h' && specs.help && !specs.help.value) {
      parsed.flags.add('help')
      continue
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg.startsWith('-') && arg !== '-') throw new UsageError('usage.option', `unknown option ${arg}`, { value: arg })
      parsed.positionals.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = arg.slice(2, eq < 0 ? undefined : eq)
    const spec = specs[name]
    if (!spec) throw new UsageError('usage.option', `unknown option --${name}`, { value: arg })
    if (!spec.value) {
      if (eq >= 0) throw new UsageError('usage.option', `--${name} takes no value`, { value: arg })
      parsed.flags.add(name)
      continue
    }
    let value: string | undefined
    if (eq >= 0) value = arg.slice(eq + 1)
    else value = argv[++i]
    if (value === undefined || (eq < 0 && value.startsWith('--'))) {
      throw new UsageError('usage.option', `--${name} needs a value`)
    }
    if (parsed.options.has(name)) throw new UsageError('usage.option', `--${name} is given twice`, { value })
    parsed.options.set(name, value)
  }
  return parsed
}

/** A number option checked against a predicate, or the fallback when absent. */
export function numberOption(args: ParsedArgs, name: string, check: (n: number) => boolean, expect: string): number | undefined {
  const raw = args.options.get(name)
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) {
    throw new UsageError('usage.value', `--${name} must be ${expect}`, { field: `--${name}`, value: raw })
  }
  return n
}

/** The gate file every command but compare needs; its absence is a usage error with the usage. */
export function requiredConfig(args: ParsedArgs, usage: string): string {
  const path = args.options.get('config')
  if (!path) throw new UsageError('usage.missing', `give the gate file with --config FILE\n\n${usage}`)
  return path
}
