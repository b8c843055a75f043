/**
 * Sequential verdicts end to end: `helm-gate run` with the pinned crfm-helm against fake servers
 * that answer simple_mcqa (79 instances), a gate file with `sequential: { looks: [20, 40, 79] }`.
 * Equal sides clear a margin of 0.2 before the budget and pass; a candidate that answers wrong
 * fails at the first look; a look schedule that does not increase is refused by `plan`, naming
 * the file, the field and the value.
 */
import { describe, expect, it } from '@jest/globals'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { planCommand } from '../../src/cli/commands/plan.js'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable } from '../../test-support/fake-openai/harness.js'
import { freshDir, gateYaml, useFakeServers } from './gate-fixture.js'

const ENTRY = 'simple_mcqa'
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('sequential verdicts end to end (real helm-run, fake servers)', () => {
  const server = useFakeServers([ENTRY])

  async function gateFile(dir: string, candidateAccuracy: number, maxDrop: number, looks: string): Promise<string> {
    const baseline = await server({ accuracy: 0.8, seed: 1 })
    const candidate = await server({ accuracy: candidateAccuracy, seed: 1 })
    const text = gateYaml({
      baseline: { baseUrl: baseline.baseUrl, api: 'completions' },
      candidate: { baseUrl: candidate.baseUrl, api: 'completions' },
      runs: [{ entry: ENTRY, metric: 'exact_match', max_drop: maxDrop }],
      maxEvalInstances: 79
    })
    const file = join(dir, 'gate.yml')
    await writeFile(file, `${text}\nsequential:\n  looks: ${looks}\n`)
    return file
  }

  async function gate(name: string, candidateAccuracy: number, maxDrop: number) {
    const dir = await freshDir(name)
    const config = await gateFile(dir, candidateAccuracy, maxDrop, '[20, 40, 79]')
    const out = join(dir, 'out')
    const lines: string[] = []
    const io: CliIo = { stdout: line => lines.push(line), stderr: line => lines.push(line), env: process.env, cwd: dir }
    const code = await runCommand(['--config', config, '--out', out], io)
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    return { report, code, out, md: await readFile(join(out, 'report.md'), 'utf8'), lines }
  }

  it('passes equal sides early, the row from the last stage run, the spend beside the fixed design', async () => {
    const { report, code, out, md } = await gate('sequential-pass', 0.8, 0.2)
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(code).toBe(0)
    const row = report.comparisons.find(c => c.gated)!
    expect(row.sequential).toMatchObject({ stopped_at: 40, budget: 79, decision: 'pass', certain: true })
    expect(row.sequential!.looks.map(look => look.n)).toEqual([20, 40])
    expect(row.sequential!.requests_spent).toBe(2 * (20 + 40))
    expect(row.sequential!.requests_fixed).toBe(2 * 79)
    expect(row.n).toBe(40)
    expect(md).toContain('stopped early at n = 40 of 79 (certain)')
    expect(md).toContain('120 instance requests spent on both sides (the fixed design: 158)')
    // The stage that would have measured all 79 never ran.
    const stages = await readdir(join(out, 'stages', 'baseline', 'runs'))
    expect(stages.filter(name => name.includes('-stage'))).toHaveLength(2)
  }, 300_000)

  it('fails a candidate that answers wrong at the first look', async () => {
    const { report, code } = await gate('sequential-fail', 0, 0.05)
    expect(report.verdict).toBe('fail')
    expect(code).not.toBe(0)
    const row = report.comparisons.find(c => c.gated)!
    expect(row.verdict).toBe('fail')
    expect(row.sequential).toMatchObject({ stopped_at: 20, decision: 'fail', certain: true, requests_spent: 40 })
  }, 300_000)

  it('refuses a look schedule that does not increase at plan, naming the file, field and value', async () => {
    const dir = await freshDir('sequential-plan')
    const config = await gateFile(dir, 0.8, 0.2, '[40, 20]')
    const io: CliIo = { stdout: () => {}, stderr: () => {}, env: process.env, cwd: dir }
    // Thrown as a named error, which the command line's top prints once (exit 3).
    await expect(planCommand(['--config', config], io)).rejects.toMatchObject({
      code: 'sequential.looks_not_increasing',
      location: { file: config, field: 'sequential.looks[1]', value: 20 }
    })
    const lines: string[] = []
    const shown: CliIo = { ...io, stdout: text => lines.push(text) }
    expect(await planCommand(['--config', await gateFile(dir, 0.8, 0.2, '[20, 40]'), '--no-count'], shown)).toBe(0)
    expect(lines.join('')).toContain('# sequential: simple_mcqa looks 20, 40 (budget 40), alpha 0.05 two-sided')
  }, 60_000)
})
