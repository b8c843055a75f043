/**
 * Type checks for one element of a HELM array file (a per_instance_stats entry, a request
 * state). A wrong type is an InputError naming the file, the full key path and the value, so a
 * hand-edited or truncated file is reported exactly where it is wrong.
 */
import { InputError } from '../../errors.js'
import { describeJsonType } from './json-stream.js'

export abstract class ElementChecker {
  constructor(protected readonly file: string) {}

  /** The full key path of `field` (dotted, relative to the element) inside the file. */
  protected abstract pathOf(field: string): string

  fail(field: string, expected: string, value: unknown): never {
    const path = this.pathOf(field)
    throw new InputError(
      'input.wrong_type',
      `${path} in ${this.file} must be ${expected}, found ${value === undefined ? 'nothing' : describeJsonType(value)}`,
      { file: this.file, field: path, value }
    )
  }

  object(value: unknown, field: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(field, 'an object', value)
    return value as Record<string, unknown>
  }

  string(value: unknown, field: string): string {
    if (typeof value !== 'string') this.fail(field, 'a string', value)
    return value
  }

  /** Counts and indices: non-negative integers. */
  natural(value: unknown, field: string): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) this.fail(field, 'a non-negative integer', value)
    return value
  }
}
