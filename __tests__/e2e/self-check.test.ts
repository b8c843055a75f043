/**
 * `helm-gate run --self-check`: the baseline deployment run against itself by two concurrent
 * real helm-run processes. The flip rate it prints must equal a hand count of changed answers
 * from the two sides' per_instance_stats.json, and the candidate deployment must not be touched.
 * The fake server's --noise redraws an answer at random per request (not per prompt), so two
 * identical runs disagree on some instances; without noise they must agree on all of them.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable, type FakeServer } from '../../test-support/fake-openai/harness.js'
import { freshDir, useFakeServers, writeGateFile } from './gate-fixture.js'

const ENTRIES = ['simple_mcqa', 'dyck_language:num_parenthesis_pairs=3']
const describeHelm = helmAvailable() ? describe : describe.skip

interface InstanceStats {
  instance_id: string
  train_trial_index: number
  perturbation?: { name: string }
  stats: Array<{ name: { name: string; split?: string; perturbation?: unknown }; count: number; mean?: number }>
}

interface SelfCheck {
  code: number
  stdout: string
  report: Report
  manifest: {
    self_check: boolean
    sides: Record<'baseline' | 'candidate', { output_path: string; suite: string; deployment: { base_url: string }; complete: boolean }>
  }
  outDir: string
}

/** The clean exact_match value of every (instance, trial) in one side's only run directory. */
async function exactMatchByInstance(outDir: string, side: { output_path: string; suite: string }): Promise<Map<string, number>> {
  const suiteDir = join(outDir, side.output_path, 'runs', side.suite)
  const runDirs = (await readdir(suiteDir)).filter(name => name.startsWith('simple_mcqa'))
  expect(runDirs).toHaveLength(1)
  const records = JSON.parse(await readFile(join(suiteDir, runDirs[0], 'per_instance_stats.json'), 'utf8')) as InstanceStats[]
  const values = new Map<string, number>()
  for (const record of records) {
    if (record.perturbation) continue
    const stat = record.stats.find(s => s.name.name === 'exact_match' && !s.name.perturbation && s.count > 0)
    if (stat?.mean === undefined) continue
    values.set(`${record.instance_id}#${record.train_trial_index}`, stat.mean)
  }
  return values
}

/** Changed answers between the two sides, counted by hand from HELM's files. */
async function handCount(result: SelfCheck): Promise<{ changed: number; pairs: number }> {
  const baseline = await exactMatchByInstance(result.outDir, result.manifest.sides.baseline)
  const candidate = await exactMatchByInstance(result.outDir, result.manifest.sides.candidate)
  let changed = 0
  let pairs = 0
  for (const [id, value] of baseline) {
    const other = candidate.get(id)
    if (other === undefined) continue
    pairs += 1
    if (other !== value) changed += 1
  }
  return { changed, pairs }
}

describeHelm('helm-gate run --self-check (real helm-run, fake server)', () => {
  const server = useFakeServers(ENTRIES)

  async function selfCheck(baseline: FakeServer, candidate: FakeServer, maxEvalInstances: number): Promise<SelfCheck> {
    const dir = await freshDir('self-check')
    const config = await writeGateFile(dir, {
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl, api: 'completions' },
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }],
      maxEvalInstances
    })
    const outDir = join(dir, 'out')
    let stdout = ''
    const io: CliIo = { stdout: s => (stdout += s), stderr: () => {}, env: process.env, cwd: dir }
    const code = await runCommand(['--config', config, '--out', outDir, '--self-check'], io)
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
    const manifest = JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as SelfCheck['manifest']
    return { code, stdout, report, manifest, outDir }
  }

  it('reports the flip rate of a noisy server, equal to a hand count of changed answers', async () => {
    // Per request, 40% of answers are redrawn at random with accuracy 0.5: about a third of the
    // instances differ between two runs, so none differing is practically impossible.
    const noisy = await server({ accuracy: 0.5, noise: 0.4, seed: 2 })
    const untouched = await server({ accuracy: 1 })
    const result = await selfCheck(noisy, untouched, 60)

    expect(result.manifest.self_check).toBe(true)
    expect(result.manifest.sides.candidate.deployment.base_url).toBe(noisy.baseUrl)
    expect(result.manifest.sides.baseline.complete && result.manifest.sides.candidate.complete).toBe(true)
    expect((await noisy.state()).counters.chat).toBe(120)
    const other = (await untouched.state()).counters
    expect(other.chat + other.completions).toBe(0)

    const counted = await handCount(result)
    expect(counted.pairs).toBe(60)
    expect(counted.changed).toBeGreaterThan(0)
    const clean = result.report.comparisons.filter(c => c.perturbation === null)
    expect(clean).toHaveLength(1)
    expect(clean[0].pairs).toBe(counted.pairs)
    expect(clean[0].wins + clean[0].losses).toBe(counted.changed)

    const rate = ((counted.changed / counted.pairs) * 100).toFixed(1)
    expect(result.stdout).toContain('Self-check: the baseline against itself')
    expect(result.stdout).toContain(
      `${counted.changed}/${counted.pairs} changed, ${rate}% of answers flip between identical runs; tolerated drop 0.05`
    )
    // Every flip rate above a few percent exceeds the 0.05 tolerance: the gate cannot resolve it.
    if (counted.changed / counted.pairs >= 0.05) expect(result.stdout).toContain('the flip rate is at least the tolerated drop')
    // The written report records what was measured, not only the console.
    expect(result.report.notes[0]).toMatch(/^Self-check: both sides ran the baseline deployment/)
    expect(result.report.notes).toContain(
      `Flip rate ${clean[0].run} exact_match: ${counted.changed}/${counted.pairs} answers changed between identical runs (${rate}%).`
    )
    expect(await readFile(join(result.outDir, 'report.md'), 'utf8')).toContain(
      `${counted.changed}/${counted.pairs} answers changed between identical runs`
    )
    expect(result.report.verdict).not.toBe('error')
    // A self-check measures, it does not gate: any verdict but error exits 0.
    expect(result.code).toBe(0)
  }, 180_000)

  it('reports a deterministic server as such: no answer changes', async () => {
    const steady = await server({ accuracy: 0.7, seed: 8 })
    const untouched = await server({ accuracy: 1 })
    const result = await selfCheck(steady, untouched, 40)

    const counted = await handCount(result)
    expect(counted).toEqual({ changed: 0, pairs: 40 })
    const [comparison] = result.report.comparisons
    expect(comparison.wins + comparison.losses).toBe(0)
    expect(comparison.baseline_mean).toBe(comparison.candidate_mean)
    expect(comparison.baseline_mean).toBeGreaterThan(0)
    expect(comparison.baseline_mean).toBeLessThan(1)
    expect(result.stdout).toContain('0/40 changed, deterministic; tolerated drop 0.05')
    expect(result.stdout).not.toContain('the flip rate is at least the tolerated drop')
    expect(result.report.notes).toContain(`Flip rate ${comparison.run} exact_match: 0/40 answers changed between identical runs (0.0%).`)
    expect((await steady.state()).counters.chat).toBe(80)
  }, 180_000)
})
