/**
 * Paired calibration on real HELM output: `helm-gate run` with the pinned crfm-helm against fake
 * servers that answer simple_mcqa (multiple_choice_joint, completions API) with the same answers,
 * the same accuracy, and a known confidence: HELM's `max_prob` of the one-token answer is
 * exp(answerLogprob). The candidate is as accurate but over-confident, so accuracy passes and the
 * calibration check fails; a candidate with the baseline's confidence passes both.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import { expectedCalibrationError } from '../../src/holistic/calibration.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable } from '../../test-support/fake-openai/harness.js'
import { freshDir, useFakeServers, writeGateFile } from './gate-fixture.js'

const ENTRY = 'simple_mcqa'
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('paired calibration end to end (real helm-run, fake servers)', () => {
  const server = useFakeServers([ENTRY])

  async function gate(baselineProb: number, candidateProb: number): Promise<{ report: Report; md: string; code: number }> {
    const baseline = await server({ accuracy: 0.7, seed: 5 })
    const candidate = await server({ accuracy: 0.7, seed: 5 })
    await baseline.control({ answerLogprob: Math.log(baselineProb) })
    await candidate.control({ answerLogprob: Math.log(candidateProb) })
    const dir = await freshDir('calibration')
    const config = await writeGateFile(dir, {
      baseline: { baseUrl: baseline.baseUrl, api: 'completions' },
      candidate: { baseUrl: candidate.baseUrl, api: 'completions' },
      runs: [{ entry: ENTRY, metric: 'exact_match', max_drop: 0.1, calibration: { metric: 'ece', max_increase: 0.05 } }],
      maxEvalInstances: 79
    })
    const out = join(dir, 'out')
    const io: CliIo = { stdout: () => {}, stderr: () => {}, env: process.env, cwd: dir }
    const code = await runCommand(['--config', config, '--out', out], io)
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    return { report, md: await readFile(join(out, 'report.md'), 'utf8'), code }
  }

  it('an equally accurate but over-confident candidate fails calibration while accuracy passes', async () => {
    const { report, md, code } = await gate(0.7, 0.99)
    expect(report.errors).toEqual([])
    expect(report.comparisons.filter(c => c.gated).map(c => [c.metric, c.verdict])).toEqual([['exact_match', 'pass']])
    const [row] = report.calibrations ?? []
    expect(row).toMatchObject({ metric: 'ece', gated: true, verdict: 'fail', max_increase: 0.05 })
    // The truth, independent of the gate's reader: every answer of a side has the same max_prob, so
    // its ECE is |p - accuracy| (one bin), and the two sides answer alike (same seed and accuracy).
    const accuracy = report.comparisons.find(c => c.gated)!.baseline_mean
    expect(row.baseline).toBeCloseTo(Math.abs(0.7 - accuracy), 6)
    expect(row.candidate).toBeCloseTo(Math.abs(0.99 - accuracy), 6)
    expect(row.baseline).toBeCloseTo(expectedCalibrationError(new Array(row.n).fill(0.7), new Array(row.n).fill(accuracy)), 6)
    expect(row.ci.low).toBeGreaterThan(0.05)
    expect(report.verdict).toBe('fail')
    expect(code).not.toBe(0)
    expect(md).toMatch(/### Calibration[\s\S]*\| ❌ fail \| simple\\_mcqa<br>ECE \(10 bins\) \| \*\*\+0\.\d{4}\*\*<br>\[\+0\./)
  }, 300_000)

  it('a candidate with the same confidence passes the calibration check', async () => {
    const { report } = await gate(0.7, 0.7)
    expect(report.errors).toEqual([])
    const [row] = report.calibrations ?? []
    expect(row).toMatchObject({ metric: 'ece', verdict: 'pass' })
    expect(row.delta).toBeCloseTo(0, 9)
    expect(report.verdict).toBe('pass')
  }, 300_000)
})
