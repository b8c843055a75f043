/**
 * The bundled CLI (dist/cli.js) on two real lm-eval output folders, with the example gate file
 * examples/lm-eval/gate.yml: the exit codes a pipeline reads, the report files, and one clear
 * message for a folder that is neither kind of output.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LM_EVAL_BASELINE, LM_EVAL_DEGRADED, LM_EVAL_EQUIVALENT } from '../lmeval/fixtures.js'
import { run } from '../support/spawn.js'

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))
const EXAMPLE = fileURLToPath(new URL('../../examples/lm-eval/gate.yml', import.meta.url))
const helmGate = (...args: string[]) => run(process.execPath, [CLI, ...args])
const made: string[] = []
const tmp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-cli-lmeval-'))
  made.push(dir)
  return dir
}
afterAll(() => made.forEach(dir => rmSync(dir, { recursive: true, force: true })))

describe('helm-gate compare on lm-eval output (bundled CLI, examples/lm-eval/gate.yml)', () => {
  it('exits 0 for the equivalent candidate and writes the JSON report', async () => {
    const dir = tmp()
    const r = await helmGate('compare', LM_EVAL_BASELINE, LM_EVAL_EQUIVALENT, '--config', EXAMPLE, '--json', join(dir, 'r.json'), '--quiet')
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))
    expect(report.verdict).toBe('pass')
    expect(report.comparisons.map((c: { entry: string; split: string }) => [c.entry, c.split])).toEqual([
      ['gate_arith', 'strict-match'],
      ['zero-shot', 'flexible-extract']
    ])
  })

  it('exits 1 for the degraded candidate, the changed answers in the markdown', async () => {
    const dir = tmp()
    const r = await helmGate('compare', LM_EVAL_BASELINE, LM_EVAL_DEGRADED, '--config', EXAMPLE, '--markdown', join(dir, 'r.md'))
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('FAIL')
    const markdown = readFileSync(join(dir, 'r.md'), 'utf8')
    expect(markdown).toContain('Question: What is')
    expect(markdown).toContain('none of these')
  })

  it('exits 2 with one clear line, no stack trace, for a folder that is neither HELM nor lm-eval output', async () => {
    const r = await helmGate('compare', LM_EVAL_BASELINE, tmp(), '--config', EXAMPLE)
    expect(r.code).toBe(2)
    expect(`${r.stdout}${r.stderr}`).toContain('is neither HELM output')
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at /)
  })
})
