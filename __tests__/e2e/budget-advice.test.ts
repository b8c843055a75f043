/**
 * The instance advice of `helm-gate run` (dist/cli.js) on a real run whose splits are uneven: the
 * pinned helm-run draws max_eval_instances = 60 from synthetic_reasoning's valid and test splits
 * together, and fewer than 60 land in `test`. Both servers answer alike, so the comparison is
 * inconclusive for want of instances, and the advice must raise the budget by the split's share.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { freshDir, useFakeServers, writeGateFile } from './gate-fixture.js'

const ENTRY = 'synthetic_reasoning:mode=pattern_match'
const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('instance advice on a run with uneven splits (real helm-run)', () => {
  const server = useFakeServers([ENTRY])

  it('names a budget above the current one, scaled by the share of instances that fell in test', async () => {
    const baseline = await server({ accuracy: 0.7, seed: 3 })
    const candidate = await server({ accuracy: 0.7, seed: 3 })
    const dir = await freshDir('advice')
    const config = await writeGateFile(dir, {
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      runs: [{ entry: ENTRY, metric: 'exact_match', split: 'test', max_drop: 0.05 }],
      maxEvalInstances: 60
    })
    const outDir = join(dir, 'out')
    const finished = await run(process.execPath, [CLI, 'run', '--config', config, '--out', outDir], { cwd: dir, timeoutMs: 240_000 })
    const trace = `exit ${finished.code}\n--- stdout\n${finished.stdout}\n--- stderr\n${finished.stderr.slice(-3000)}`
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
    const [c] = report.comparisons
    expect([c.verdict, trace]).toEqual(['inconclusive', trace])
    // Uneven: HELM's draw put some of the 60 in valid, and not exactly half in test.
    expect(c.n).toBeLessThan(60)
    expect(c.n).not.toBe(30)
    expect(c.n_needed).toBeGreaterThan(c.n)
    const target = Math.max(Math.ceil((60 * (c.n_needed as number)) / c.n), 61)
    expect(finished.stdout).toContain(
      `about ${c.n_needed} instances needed in test (now ${c.n}); HELM spreads helm.max_eval_instances over all evaluation splits and ${c.n} of 60 fell in test, so raise it from 60 to about ${target}`
    )
    expect(target).toBeGreaterThan(60)
    expect(finished.stdout).not.toMatch(/to at least \d+/)
  }, 300_000)
})
