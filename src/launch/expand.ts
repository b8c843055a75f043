/**
 * `${NAME}` in a launch command or env value, filled from the environment. No shell is involved:
 * the result is one argument whatever the value holds (spaces, quotes, `;`), so a variable can
 * never add arguments or commands. `$$` is a literal `$`; any other `$` is kept as written.
 */
import { ConfigError } from '../errors.js'

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
