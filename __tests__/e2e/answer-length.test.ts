/**
 * The answer-length check on real HELM output: `helm-gate run` with the pinned crfm-helm against
 * fake servers, the candidate appending words to every answer (an end-of-sequence or chat template
 * change that lets the model run on). HELM's own num_output_tokens shows it; the band gates it.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable } from '../../test-support/fake-openai/harness.js'
import { freshDir, useFakeServers, writeGateFile } from './gate-fixture.js'

const ENTRY = 'dyck_language:num_parenthesis_pairs=3'
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('answer length end to end (real helm-run, fake servers)', () => {
  const server = useFakeServers([ENTRY])

  it('fails a candidate that answers longer on the answer_length_ratio band, and the comment shows it', async () => {
    const baseline = await server({ accuracy: 1, seed: 3 })
    const candidate = await server({ accuracy: 1, seed: 3, answerPad: 6 })
    const dir = await freshDir('length')
    const config = await writeGateFile(dir, {
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      runs: [{ entry: ENTRY, metric: 'exact_match_indicator', max_drop: 1, answer_length_ratio: { min: 0.8, max: 1.25 } }],
      maxEvalInstances: 30
    })
    const out = join(dir, 'out')
    const io: CliIo = { stdout: () => {}, stderr: () => {}, env: process.env, cwd: dir }
    const code = await runCommand(['--config', config, '--out', out], io)
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    expect(report.errors).toEqual([])
    const [row] = report.answer_lengths ?? []
    // HELM's chat clients keep no tokens (num_output_tokens is 0): the stated fallback counts characters.
    expect(row.unit).toMatch(/^characters \(HELM recorded no output tokens/)
    expect(row).toMatchObject({ source: 'helm', gated: true, n: 30, verdict: 'fail' })
    expect(row.candidate_mean - row.baseline_mean).toBe(' and so on and so on'.length)
    expect(row.ratio.low).toBeGreaterThan(1.25)
    // The padded answers also break exact match; the length row is counted among the gated rows.
    expect(report.headline).toMatch(/of 2 gated comparisons/)
    expect(report.verdict).toBe('fail')
    expect(code).not.toBe(0)
    const md = await readFile(join(out, 'report.md'), 'utf8')
    expect(md).toMatch(/### Answer length[\s\S]*\| ❌ fail \| dyck\\_language[^|]*<br>helm \| \*\*/)
  }, 240_000)
})
