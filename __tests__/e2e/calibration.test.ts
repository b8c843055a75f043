/**
 * Paired calibration on real HELM output: `helm-gate run` with the pinned crfm-helm against fake
 * servers that answer simple_mcqa (multiple_choice_joint, completions API) with the same answers,
 * the same accuracy, and a known confidence: HELM's `max_prob` of the one-token answer is
 * exp(answerLogprob). The candidate is as accurate but over-confident, so accuracy passes and the
 * calibration check fails; a candidate with the baseline's confidence passes both. A candidate
 * with another seed answers other instances right at the same accuracy: its answers move both
 * ways, and the direction of the change (information only) says churn, with the counts the
 * fake's controls decide and the split by the baseline's max_prob, checked against HELM's files.
 */
import { describe, expect, it } from '@jest/globals'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import { expectedCalibrationError } from '../../src/holistic/calibration.js'
import { SURE_PROB } from '../../src/holistic/direction.js'
import { mcnemarExactPValue } from '../../src/stats/binomial.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable } from '../../test-support/fake-openai/harness.js'
// @ts-expect-error: a plain ESM module of the test support, without types
import { unitHash as untypedUnitHash } from '../../test-support/fake-openai/answers.mjs'
import { freshDir, useFakeServers, writeGateFile } from './gate-fixture.js'

const ENTRY = 'simple_mcqa'
const unitHash = untypedUnitHash as (seed: number, text: string) => number
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('paired calibration end to end (real helm-run, fake servers)', () => {
  const server = useFakeServers([ENTRY])

  async function gate(
    baselineProb: number,
    candidateProb: number,
    candidateSeed = 5
  ): Promise<{ report: Report; md: string; code: number; out: string }> {
    const baseline = await server({ accuracy: 0.7, seed: 5 })
    const candidate = await server({ accuracy: 0.7, seed: candidateSeed })
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
    return { report, md: await readFile(join(out, 'report.md'), 'utf8'), code, out }
  }

  interface Stat {
    name: { name: string; split: string; perturbation?: unknown }
    sum: number
    count: number
  }
  interface Manifest {
    sides: Record<'baseline' | 'candidate', { output_path: string; suite: string }>
  }

  /** One side's simple_mcqa run directory, as the manifest names it. */
  async function runDir(out: string, side: 'baseline' | 'candidate'): Promise<string> {
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Manifest
    const suite = join(out, manifest.sides[side].output_path, 'runs', manifest.sides[side].suite)
    const runs = (await readdir(suite)).filter(name => name.startsWith(ENTRY))
    expect(runs).toHaveLength(1)
    return join(suite, runs[0])
  }

  /** The clean values of `metric` by instance, read straight from HELM's per_instance_stats.json. */
  async function cleanValues(dir: string, metric: string): Promise<Map<string, number>> {
    const entries = JSON.parse(await readFile(join(dir, 'per_instance_stats.json'), 'utf8')) as { instance_id: string; stats: Stat[] }[]
    const out = new Map<string, number>()
    for (const e of entries) {
      const stat = e.stats.find(s => s.name.name === metric && s.name.perturbation === undefined && s.count > 0)
      if (stat) out.set(e.instance_id, stat.sum / stat.count)
    }
    return out
  }

  /** Each instance's input text, from HELM's scenario_state.json: what the fake's draw is keyed by. */
  async function inputs(dir: string): Promise<Map<string, string>> {
    const state = JSON.parse(await readFile(join(dir, 'scenario_state.json'), 'utf8')) as {
      request_states: { instance: { id: string; input: { text: string } } }[]
    }
    return new Map(state.request_states.map(r => [r.instance.id, r.instance.input.text]))
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
    // The same seed answers alike: nothing moved, and max_prob 0.7 is below the sure line.
    const cmp = report.comparisons.find(c => c.gated)!
    expect(cmp.change_direction).toMatchObject({
      kind: 'none',
      won: 0,
      lost: 0,
      margin: { sure: { won: 0, lost: 0 }, unsure: { won: 0, lost: 0 } }
    })
  }, 300_000)

  it('a candidate that answers other instances right at the same accuracy shows churn, counted as HELM scored it', async () => {
    // The baseline is sure of every answer (max_prob 0.9 >= SURE_PROB), so every flip falls on the sure side.
    const { report, md, out } = await gate(0.9, 0.9, 6)
    expect(0.9).toBeGreaterThanOrEqual(SURE_PROB)
    expect(report.errors).toEqual([])
    const cmp = report.comparisons.find(c => c.gated)!
    const d = cmp.change_direction
    if (!d || d.kind === 'absent') throw new Error('no direction on exact_match')

    // The fake's controls decide each answer: right when unitHash(seed, input) < accuracy.
    const [bDir, cDir] = [await runDir(out, 'baseline'), await runDir(out, 'candidate')]
    const texts = await inputs(bDir)
    const controls = { won: 0, lost: 0 }
    for (const text of texts.values()) {
      const b = unitHash(5, text) < 0.7
      const c = unitHash(6, text) < 0.7
      if (b !== c) controls[c ? 'won' : 'lost']++
    }
    // And counted again from HELM's scores.
    const [b, c, prob] = [
      await cleanValues(bDir, 'exact_match'),
      await cleanValues(cDir, 'exact_match'),
      await cleanValues(bDir, 'max_prob')
    ]
    const files = { won: 0, lost: 0 }
    for (const [id, bv] of b) {
      const cv = c.get(id)
      if (cv !== undefined && cv !== bv) files[cv > bv ? 'won' : 'lost']++
    }
    expect(files).toEqual(controls)
    expect(files.won).toBeGreaterThan(5)
    expect(files.lost).toBeGreaterThan(5)
    expect([...prob.values()].every(p => Math.abs(p - 0.9) < 1e-9)).toBe(true)

    expect(d).toMatchObject({
      kind: 'churn',
      won: files.won,
      lost: files.lost,
      margin: { by: 'max_prob', sure: files, unsure: { won: 0, lost: 0 } },
      margin_reason: null
    })
    expect(d.p_value).toBeCloseTo(mcnemarExactPValue(files.won, files.lost), 12)
    expect(d.p_value).toBeGreaterThanOrEqual(0.05)
    // Beside the delta in the comment, and its sentence under the table.
    expect(md).toContain(`+${files.won} / -${files.lost}<br>(p ${d.p_value.toFixed(2)})`)
    expect(md).toContain(`moved ${files.won + files.lost} answers: ${files.won} won, ${files.lost} lost`)
  }, 300_000)
})
