/**
 * What a runner command with lm-eval output must leave (verifyLmEvalSideOutput), checked on the
 * real lm-eval fixtures and their fault corpus: one finished run, samples for every task, a task
 * for every entry; anything else is a named error of the side.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { GatedRun } from '../../src/config/types.js'
import { verifyLmEvalSideOutput } from '../../src/runner/verify.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/lm-eval-0.4.13', import.meta.url))
const entry = (name: string, match: string | null = null): GatedRun => ({
  entry: name,
  match,
  metric: 'exact_match',
  split: 'strict-match',
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
})

const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map(dir => rm(dir, { recursive: true, force: true })))
})

describe('verifyLmEvalSideOutput', () => {
  it('accepts a finished run with samples for every task and a task for every entry (by name or match)', async () => {
    const { errors } = await verifyLmEvalSideOutput('baseline', join(FIXTURES, 'baseline'), [
      entry('gate_arith'),
      entry('zero-shot', '*_zeroshot')
    ])
    expect(errors).toEqual([])
  })

  it('names an entry the run has no task for', async () => {
    const { errors } = await verifyLmEvalSideOutput('candidate', join(FIXTURES, 'equivalent'), [entry('gate_arith'), entry('gsm8k')])
    expect(errors.map(e => [e.code, e.location.value])).toEqual([['runner.run_missing', 'gsm8k']])
    expect(errors[0].message).toBe('candidate: the lm-eval run has no task for entry gsm8k (it ran gate_arith, gate_arith_zeroshot)')
  })

  it.each([
    ['no-samples-file', /no samples_gate_arith_2026.*run lm_eval with --log_samples/],
    ['no-results', /no results_<date>\.json/]
  ])('fails closed on %s, with the reader’s error as the side’s', async (name, message) => {
    const { errors } = await verifyLmEvalSideOutput('candidate', join(FIXTURES, 'bad', name), [entry('gate_arith')])
    expect(errors.map(e => e.code)).toEqual(['runner.lmeval_output'])
    expect(errors[0].message).toMatch(/^candidate: the runner command did not leave a complete lm-eval run/)
    expect(errors[0].message).toMatch(message)
  })

  it('says nothing ran when the folder holds no lm-eval output at all', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-verify-'))
    dirs.push(dir)
    const { errors } = await verifyLmEvalSideOutput('baseline', dir, [entry('gate_arith')])
    expect(errors.map(e => [e.code, e.location.file])).toEqual([['runner.nothing_ran', dir]])
  })
})
