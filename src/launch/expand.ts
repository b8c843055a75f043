/**
 * `${NAME}` in a launch command or env value, filled from the environment. No shell is involved:
 * the result is one argument whatever the value holds (spaces, quotes, `;`), so a variable can
 * never add arguments or commands. `$$` is a literal `$`; any other `$` is kept as written.
 */
import type { LaunchSpec } from '../config/launch.js'
import { ConfigError } from '../errors.js'
import { masker, secretValues } from '../secrets/mask.js'

export interface Expanded {
  text: string
  /** The variables it used, so their values can be masked when they look secret. */
  used: string[]
}

/**
 * @param at the key path for messages, e.g. `deployments.baseline.launch.command[5]`
 * @param source the gate file, for messages
 */
export function expandTemplate(text: string, env: NodeJS.ProcessEnv, at: string, source: string): Expanded {
  let out = ''
  const used: string[] = []
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char !== '$') {
      out += char
      continue
    }
    if (text[i + 1] === '$') {
      out += '$'
      i++
      continue
    }
    if (text[i + 1] !== '{') {
      out += char
      continue
    }
    const end = text.indexOf('}', i + 2)
    const name = end < 0 ? '' : text.slice(i + 2, end)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new ConfigError('launch.template', `${at} has a malformed variable reference; write \${NAME} (or $$ for a literal $)`, {
        file: source,
        field: at,
        value: text
      })
    }
    const value = env[name]
    if (value === undefined) {
      throw new ConfigError('launch.variable_missing', `${at} uses \${${name}}, which is not set in the environment`, {
        file: source,
        field: at,
        value: name
      })
    }
    out += value
    used.push(name)
    i = end
  }
  return { text: out, used }
}

/** A side's launch with every `${NAME}` filled in: what is spawned, and how its output is masked. */
export interface ExpandedLaunch {
  command: string[]
  /** The gate file's `env`, expanded (added to the server's environment). */
  extraEnv: Record<string, string>
  stopCommand: string[] | null
  /** Hides the secrets this launch can see (the API keys, secret-named variables). */
  mask: (line: string) => string
}

/**
 * Expands a side's launch. Throws the first missing or malformed variable (a ConfigError naming
 * its key path). `secrets`: the deployments' API keys and URL credentials.
 */
export function expandLaunch(spec: LaunchSpec, env: NodeJS.ProcessEnv, source: string, secrets: string[] = []): ExpandedLaunch {
  const expand = (text: string, at: string): string => expandTemplate(text, env, at, source).text
  const extraEnv = Object.fromEntries(Object.entries(spec.env).map(([name, value]) => [name, expand(value, `${spec.field}.env.${name}`)]))
  return {
    command: spec.command.map((arg, i) => expand(arg, `${spec.field}.command[${i}]`)),
    extraEnv,
    stopCommand: spec.stopCommand?.map((arg, i) => expand(arg, `${spec.field}.stop_command[${i}]`)) ?? null,
    mask: masker(secretValues({ ...env, ...extraEnv }, secrets))
  }
}
