/**
 * Expected failures. Each carries what a user needs to fix the problem: the file, the field and
 * the offending value. They are caught once at the top (src/cli/main.ts, src/action/run.ts) and
 * never shown as a stack trace unless --debug is given.
 */
// The one redactor: an error value is judged as everything else helm-gate prints or stores is.
import { redactString, redactText } from './secrets/redact.js'

export interface ErrorLocation {
  /** The file (or directory) the problem was found in. */
  file?: string
  /** The key path inside it, e.g. `runs[2].max_drop` or `request_states[14].result.cached`. */
  field?: string
  /** The offending value, shown with JSON.stringify (truncated). */
  value?: unknown
}

export class GateError extends Error {
  /** A stable, machine-readable code, e.g. `config.unknown_key`, `guard.cached`. */
  readonly code: string
  readonly location: ErrorLocation

  constructor(code: string, message: string, location: ErrorLocation = {}) {
    super(message)
    this.name = new.target.name
    this.code = code
    this.location = location
  }

  /** One line for a human: `message (file: f, field: x, value: v)`. */
  describe(): string {
    const parts: string[] = []
    if (this.location.file) parts.push(`file: ${this.location.file}`)
    if (this.location.field) parts.push(`field: ${this.location.field}`)
    if (this.location.value !== undefined) parts.push(`value: ${showValue(this.location.value)}`)
    // The message itself may quote a value (a URL, a server's answer, a log line): redacted too.
    return redactText(parts.length ? `${this.message} (${parts.join(', ')})` : this.message)
  }
}

/** Bad command-line usage or action inputs. */
export class UsageError extends GateError {}
/** The gate file is invalid. */
export class ConfigError extends GateError {}
/** A HELM output file or directory is missing, unreadable or malformed. */
export class InputError extends GateError {}
/** The two sides cannot be compared fairly (cache, drift, overlap, missing metric). */
export class GuardError extends GateError {}
/** helm-run failed, hung or left incomplete output. */
export class HelmRunError extends GateError {}
/** A deployment's server did not become ready. */
export class ServerNotReadyError extends GateError {}
/** A GitHub write was refused (fork or Dependabot pull requests have a read-only token). */
export class PermissionDeniedError extends GateError {}

/** Starting, readying or stopping a launched deployment failed, or a git step launching needs (src/launch, src/identity). */
export class LaunchError extends GateError {}

/**
 * A value for a one-line message: JSON-like, cut at `max` characters. Never walks more than a few
 * levels or a few hundred characters of the value (a 100,000-deep array from a hostile file must
 * not exhaust the stack here), and never shows a string that looks like a credential.
 */
export function showValue(value: unknown, max = 120): string {
  const text = boundedJson(value, 6, max + 1)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

function boundedJson(value: unknown, depth: number, budget: number): string {
  if (typeof value === 'string') {
    // Redacted before it is cut, so a credential cut in half is still recognised.
    const redacted = redactString(value)
    return JSON.stringify(redacted.length > budget ? redacted.slice(0, budget) : redacted)
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value)
  if (typeof value !== 'object') return String(value)
  if (depth <= 0) return Array.isArray(value) ? '[…]' : '{…}'
  const parts: string[] = []
  let used = 2
  const entries: [string | null, unknown][] = Array.isArray(value)
    ? value.map(item => [null, item])
    : Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined)
  for (const [key, item] of entries) {
    if (used > budget) {
      parts.push('…')
      break
    }
    const shown = boundedJson(item, depth - 1, budget - used)
    const part = key === null ? shown : `${JSON.stringify(key)}:${shown}`
    parts.push(part)
    used += part.length + 1
  }
  return Array.isArray(value) ? `[${parts.join(',')}]` : `{${parts.join(',')}}`
}
