/**
 * Copies fixture run directories into a temporary folder so a test can damage one side
 * (cached answers, drift, missing instances) without touching the committed fixtures.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function copyToTemp(source: string, name = 'side'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'helm-gate-test-')), name)
  cpSync(source, dir, { recursive: true })
  return dir
}

export function editJson<T = unknown>(file: string, edit: (value: T) => T | void): void {
  const value = JSON.parse(readFileSync(file, 'utf8')) as T
  const result = edit(value)
  writeFileSync(file, JSON.stringify(result === undefined ? value : result, null, 2))
}
