/**
 * The fault corpus (cases.ts) through the shipped command line, dist/cli.js, spawned as a user
 * or the action would run it: for each case the exit status, the error code (in report.json or at
 * the end of the error line), no stack trace, and no secret or raw injection anywhere in what the
 * CLI printed or wrote.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { CASES, Workspace, type Outcome } from './cases.js'

const CLI = join(REPO_ROOT, 'dist', 'cli.js')

async function execute(args: string[], ws: Workspace): Promise<Outcome> {
  const finished = await run(process.execPath, [CLI, ...args], { cwd: ws.dir, env: { PATH: process.env.PATH ?? '' }, timeoutMs: 60_000 })
  const read = (file: string): string | null => (existsSync(file) ? readFileSync(file, 'utf8') : null)
  const json = read(ws.json)
  return { ...finished, report: json === null ? null : JSON.parse(json), markdown: read(ws.markdown) }
}

describe('fault corpus (bundled CLI)', () => {
  it('has at least 60 cases across every kind of input', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60)
    expect(new Set(CASES.map(c => c.kind)).size).toBe(5)
    expect(new Set(CASES.map(c => c.name)).size).toBe(CASES.length)
  })

  it.concurrent.each(CASES.map(c => [`${c.kind}: ${c.name}`, c] as const))('%s', async (_label, c) => {
    const ws = new Workspace()
    const outcome = await execute(c.args(ws), ws)
    const context = `exit ${outcome.code}\n--- stderr\n${outcome.stderr}\n--- errors\n${JSON.stringify(outcome.report?.errors ?? [])}`
    expect([c.exit, context]).toEqual([outcome.code, context])
    expect(outcome.stderr).not.toMatch(/internal error|\n\s+at /)
    if (c.error !== null) {
      const codes = [
        ...(outcome.report?.errors ?? []).map(e => e.code),
        ...[...outcome.stderr.matchAll(/\[([a-z_]+\.[a-z_.]+)\]$/gm)].map(m => m[1])
      ]
      expect([codes, context]).toEqual([expect.arrayContaining([c.error]), context])
    }
    if (c.exit !== 2 && outcome.report) expect(outcome.report.verdict).toBe(c.exit === 0 ? 'pass' : outcome.report.verdict)
    const everything = [outcome.stdout, outcome.stderr, JSON.stringify(outcome.report), outcome.markdown ?? ''].join('\n')
    for (const text of c.absent ?? []) expect(everything).not.toContain(text)
    c.check?.(outcome)
  })
})
