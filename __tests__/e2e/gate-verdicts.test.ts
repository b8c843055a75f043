/**
 * The end-to-end proof: `helm-gate run` with the real pinned crfm-helm against fake
 * OpenAI-compatible servers on loopback, from gate file to verdict and exit status.
 * Each test starts two helm-run processes (~4-10 s each); instance budgets are small.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable } from '../../test-support/fake-openai/harness.js'
import { freshDir, type GateSpec, useFakeServers, writeGateFile } from './gate-fixture.js'

const ENTRIES = ['simple_mcqa', 'dyck_language:num_parenthesis_pairs=3']
const describeHelm = helmAvailable() ? describe : describe.skip

interface GateRun {
  code: number
  stdout: string
  stderr: string
  report: Report
  outDir: string
}

describeHelm('helm-gate run end to end (real helm-run, fake servers)', () => {
  const server = useFakeServers(ENTRIES)

  async function gate(spec: GateSpec, extraArgs: string[] = [], outDir?: string): Promise<GateRun> {
    const dir = await freshDir('run')
    const config = await writeGateFile(dir, spec)
    const out = outDir ?? join(dir, 'out')
    let stdout = ''
    let stderr = ''
    const io: CliIo = { stdout: s => (stdout += s), stderr: s => (stderr += s), env: process.env, cwd: dir }
    const code = await runCommand(['--config', config, '--out', out, ...extraArgs], io)
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    return { code, stdout, stderr, report, outDir: out }
  }

  it('passes an equivalent candidate, with a chat baseline and a completions candidate', async () => {
    const baseline = await server({ accuracy: 0.9, seed: 7 })
    const candidate = await server({ accuracy: 0.9, seed: 7 })
    const result = await gate({
      baseline: { baseUrl: baseline.baseUrl, api: 'chat' },
      candidate: { baseUrl: candidate.baseUrl, api: 'completions' },
      runs: [{ entry: 'dyck_language:num_parenthesis_pairs=3', metric: 'exact_match_indicator', max_drop: 0.05 }],
      maxEvalInstances: 60,
      statistics: { interval: 'bootstrap' }
    })
    expect(result.report.verdict).toBe('pass')
    expect(result.code).toBe(0)
    expect((await baseline.state()).counters.chat).toBe(60)
    expect((await candidate.state()).counters.completions).toBe(60)
    const [comparison] = result.report.comparisons
    expect(comparison.n).toBe(60)
    expect(comparison.wins + comparison.losses).toBe(0)
    expect(comparison.baseline_mean).toBeGreaterThan(0.75)
    expect(await readdir(result.outDir)).toEqual(
      expect.arrayContaining(['baseline', 'candidate', 'logs', 'report.json', 'report.md', 'manifest.json'])
    )
  }, 180_000)

  it('fails a candidate that loses about 15% of the answers', async () => {
    const baseline = await server({ accuracy: 1, seed: 3 })
    const candidate = await server({ accuracy: 0.85, seed: 3 })
    const result = await gate({
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      runs: [{ entry: 'dyck_language:num_parenthesis_pairs=3', metric: 'exact_match_indicator', max_drop: 0.05 }],
      maxEvalInstances: 100
    })
    const [comparison] = result.report.comparisons
    expect(comparison.baseline_mean).toBe(1)
    expect(comparison.wins).toBe(0)
    expect(comparison.losses).toBeGreaterThan(8)
    expect(comparison.verdict).toBe('fail')
    expect(result.report.verdict).toBe('fail')
    expect(result.code).toBe(1)
  }, 180_000)

  it('calls a tiny instance budget inconclusive and says how many instances are needed', async () => {
    const baseline = await server({ accuracy: 0.9, seed: 1 })
    const candidate = await server({ accuracy: 0.9, seed: 1 })
    const result = await gate({
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }],
      maxEvalInstances: 10,
      statistics: { interval: 'newcombe' }
    })
    const [comparison] = result.report.comparisons
    expect(comparison.n).toBe(10)
    expect(comparison.verdict).toBe('inconclusive')
    expect(comparison.n_needed).toBeGreaterThan(10)
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(`about ${comparison.n_needed} instances needed in test (now 10)`)
    // simple_mcqa puts every instance in the test split: the budget advice is the same number.
    expect(result.stdout).toContain(`raise helm.max_eval_instances from 10 to at least ${comparison.n_needed}`)
  }, 180_000)

  it('gives an error verdict naming the side when a server dies mid-run, and keeps the logs', async () => {
    const baseline = await server({ accuracy: 1 })
    const candidate = await server({ accuracy: 1, dieAfter: 4 })
    const result = await gate({
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl, requestTimeoutSeconds: 3 },
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
      maxEvalInstances: 20
    })
    expect(result.report.verdict).toBe('error')
    expect(result.code).toBe(2)
    const messages = result.report.errors.map(error => error.message).join('\n')
    expect(messages).toMatch(/candidate: helm-run exited with 1; failed runs: simple_mcqa/)
    const log = await readFile(join(result.outDir, 'logs', 'candidate.log'), 'utf8')
    expect(log).toContain('Failed runs')
  }, 180_000)

  it("never leaks one side's answers into the other: same names, different servers, different answers", async () => {
    // Same HELM deployment name and the same served model name on both sides; only the servers differ.
    const right = await server({ accuracy: 1, models: ['shared-name'] })
    const wrong = await server({ accuracy: 0, models: ['shared-name'] })
    const spec: GateSpec = {
      baseline: { baseUrl: right.baseUrl, model: 'shared-name' },
      candidate: { baseUrl: wrong.baseUrl, model: 'shared-name' },
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
      maxEvalInstances: 15
    }
    const first = await gate(spec)
    expect(first.report.comparisons[0].baseline_mean).toBe(1)
    expect(first.report.comparisons[0].candidate_mean).toBe(0)
    expect((await wrong.state()).counters.chat).toBe(15)

    // Swap the servers' behaviour and run again: a cache or reused suite would repeat the first answers.
    await right.control({ accuracy: 0 })
    await wrong.control({ accuracy: 1 })
    const second = await gate(spec)
    expect(second.report.comparisons[0].baseline_mean).toBe(0)
    expect(second.report.comparisons[0].candidate_mean).toBe(1)
    expect((await wrong.state()).counters.chat).toBe(30)

    // Reusing an output folder is refused rather than mixing old and new run directories.
    await expect(gate(spec, [], first.outDir)).rejects.toThrow(/not empty/)
  }, 240_000)

  it('compares a robustness run per perturbation', async () => {
    const baseline = await server({ accuracy: 1, perturbedAccuracy: 1, seed: 5 })
    const candidate = await server({ accuracy: 1, perturbedAccuracy: 0.6, seed: 5 })
    const result = await gate({
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      runs: [{ entry: 'simple_mcqa:data_augmentation=robustness', metric: 'exact_match', max_drop: 0.05, perturbations: 'gate' }],
      maxEvalInstances: 40
    })
    const clean = result.report.comparisons.find(c => c.perturbation === null)
    const mildMix = result.report.comparisons.find(c => c.perturbation === 'mild_mix')
    expect(clean?.delta).toBe(0)
    expect(mildMix).toBeDefined()
    expect(mildMix?.baseline_mean).toBe(1)
    expect(mildMix?.losses).toBeGreaterThan(5)
    expect(mildMix?.verdict).toBe('fail')
    expect(result.report.verdict).toBe('fail')
  }, 180_000)
})
