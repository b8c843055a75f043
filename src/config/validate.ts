/**
 * A tiny strict reader for YAML-decoded objects. Every accessor records the key path so that
 * errors name exactly what is wrong (`runs[2].max_drop`), and `done()` rejects unknown keys,
 * which in a gate file are almost always typos that would otherwise silently loosen the gate.
 */
import { ConfigError } from '../errors.js'
import { HIDDEN, shownValue } from '../secrets/redact.js'

/** A value for an error message: never the value of a credential-like key or a key-looking value. */
function shown(path: string, value: unknown): unknown {
  const out = shownValue(path, value)
  return out === HIDDEN ? `${HIDDEN}: the value of ${path || 'the gate file'} looks like a credential and is never printed` : out
}

export class Fields {
  private readonly seen = new Set<string>()

  constructor(
    readonly source: string,
    readonly path: string,
    private readonly obj: Record<string, unknown>
  ) {}

  static of(source: string, path: string, value: unknown): Fields {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ConfigError('config.type', `${path || 'the gate file'} must be a mapping`, {
        file: source,
        field: path || undefined,
        value: shown(path, value)
      })
    }
    return new Fields(source, path, value as Record<string, unknown>)
  }

  at(key: string): string {
    return this.path ? `${this.path}.${key}` : key
  }

  /** The keys present, for maps whose keys are data (e.g. environment variable names). */
  keys(): string[] {
    return Object.keys(this.obj)
  }

  has(key: string): boolean {
    return this.obj[key] !== undefined && this.obj[key] !== null
  }

  raw(key: string): unknown {
    this.seen.add(key)
    return this.obj[key]
  }

  fail(key: string, message: string, value?: unknown): never {
    throw new ConfigError('config.invalid', message, {
      file: this.source,
      field: this.at(key),
      value: shown(this.at(key), value === undefined ? this.obj[key] : value)
    })
  }

  private missing(key: string): never {
    throw new ConfigError('config.missing', `${this.at(key)} is required`, {
      file: this.source,
      field: this.at(key)
    })
  }

  string(key: string): string
  string(key: string, fallback: string | null): string | null
  string(key: string, fallback?: string | null): string | null {
    const value = this.raw(key)
    if (value === undefined || value === null) {
      if (fallback === undefined) this.missing(key)
      return fallback
    }
    if (typeof value !== 'string' || value.trim() === '') {
      this.fail(key, `${this.at(key)} must be a non-empty string`)
    }
    return value
  }

  number(key: string, fallback: number | undefined, check: (n: number) => boolean, expect: string): number {
    const value = this.raw(key)
    if (value === undefined || value === null) {
      if (fallback === undefined) this.missing(key)
      return fallback
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || !check(value)) {
      this.fail(key, `${this.at(key)} must be ${expect}`)
    }
    return value
  }

  optionalNumber(key: string, check: (n: number) => boolean, expect: string): number | null {
    if (!this.has(key)) {
      this.raw(key)
      return null
    }
    return this.number(key, undefined, check, expect)
  }

  integer(key: string, fallback: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number {
    return this.number(
      key,
      fallback,
      n => Number.isInteger(n) && n >= min && n <= max,
      max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`
    )
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.raw(key)
    if (value === undefined || value === null) return fallback
    if (typeof value !== 'boolean') this.fail(key, `${this.at(key)} must be true or false`)
    return value
  }

  choice<T extends string>(key: string, choices: readonly T[], fallback: T | undefined): T {
    const value = this.raw(key)
    if (value === undefined || value === null) {
      if (fallback === undefined) this.missing(key)
      return fallback
    }
    if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
      this.fail(key, `${this.at(key)} must be one of ${choices.join(', ')}`)
    }
    return value as T
  }

  object(key: string): Fields | null {
    const value = this.raw(key)
    if (value === undefined || value === null) return null
    return Fields.of(this.source, this.at(key), value)
  }

  list(key: string): unknown[] | null {
    const value = this.raw(key)
    if (value === undefined || value === null) return null
    if (!Array.isArray(value)) this.fail(key, `${this.at(key)} must be a list`)
    return value
  }

  /**
   * Rejects unknown keys before any value is read, so a typo is reported as the typo and not as
   * the missing key it was meant to be.
   */
  allow(keys: readonly string[]): this {
    for (const key of Object.keys(this.obj)) {
      if (!keys.includes(key)) {
        throw new ConfigError('config.unknown_key', `unknown key ${this.at(key)}; expected one of ${keys.join(', ')}`, {
          file: this.source,
          field: this.at(key),
          value: shown(this.at(key), this.obj[key])
        })
      }
    }
    return this
  }

  /** Rejects keys that were never read: a typo must not silently drop a threshold. */
  done(): void {
    for (const key of Object.keys(this.obj)) {
      if (!this.seen.has(key)) {
        throw new ConfigError('config.unknown_key', `unknown key ${this.at(key)}`, {
          file: this.source,
          field: this.at(key),
          value: shown(this.at(key), this.obj[key])
        })
      }
    }
  }
}
