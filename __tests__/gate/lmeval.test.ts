/**
 * compareOutputs on two real lm-eval 0.4.13 output folders (__tests__/fixtures/lm-eval-0.4.13):
 * the same paired statistics and verdicts as HELM runs, and its guards in lm-eval's terms.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GateConfig } from '../../src/config/types.js'
import type { ChangedExample } from '../../src/model/report.js'
import { compareOutputs } from '../../src/gate/compare.js'
import { BASELINE_SUITE } from '../helm/read/fixtures.js'
import { LM_EVAL_BAD, LM_EVAL_BASELINE, LM_EVAL_DEGRADED, LM_EVAL_EQUIVALENT, LM_EVAL_MC } from '../lmeval/fixtures.js'
import { cliConfig, comparer, errorCodes } from './compare-helpers.js'

const config = cliConfig(2000)
const compare = comparer(config, {
  metric: 'exact_match',
  split: 'strict-match',
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
})

const made: string[] = []
const tmp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-lmeval-'))
  made.push(dir)
  return dir
}
afterAll(() => made.forEach(dir => rmSync(dir, { recursive: true, force: true })))

describe('compare on real lm-eval output', () => {
  it('passes an equivalent candidate, pairing every document of both tasks with the paired-proportions interval', async () => {
    const report = await compare(LM_EVAL_BASELINE, LM_EVAL_EQUIVALENT)
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(report.comparisons.map(c => [c.run, c.metric, c.split, c.n, c.binary])).toEqual([
      ['gate_arith', 'exact_match', 'strict-match', 120, true],
      ['gate_arith_zeroshot', 'exact_match', 'strict-match', 120, true]
    ])
    for (const c of report.comparisons) {
      expect(c.ci.method).toMatch(/tango/i)
      expect(c.losses).toBe(0)
      expect(c.wins).toBeGreaterThan(0)
    }
    expect(report.baseline.deployment).toBe('gate-model')
    expect(report.baseline.runs).toEqual(['gate_arith', 'gate_arith_zeroshot'])
  })

  it('fails a degraded candidate, with its changed answers: question, target and both responses', async () => {
    const report = await compare(LM_EVAL_BASELINE, LM_EVAL_DEGRADED, { split: 'flexible-extract' })
    expect(report.verdict).toBe('fail')
    const [arith] = report.comparisons
    expect(arith.verdict).toBe('fail')
    expect(arith.wins).toBe(0)
    expect(arith.losses).toBe(20)
    expect(arith.ci.high).toBeLessThan(-0.05)
    const example = arith.examples[0]
    expect(example.baseline_value).toBe(1)
    expect(example.candidate_value).toBe(0)
    expect(example.input).toMatch(/^Question: What is \d+ plus \d+\?/)
    expect(example.baseline_output).toBe(example.reference)
    expect(example.candidate_output).toBe('none of these → [invalid]')
  })

  it('gates acc of a multiple-choice task as a 0/1 metric: equivalent passes, degraded fails', async () => {
    const equivalent = await compare(join(LM_EVAL_MC, 'baseline'), join(LM_EVAL_MC, 'equivalent'), { metric: 'acc', split: null })
    expect(equivalent.errors).toEqual([])
    expect(equivalent.verdict).toBe('pass')
    expect(equivalent.comparisons[0]).toMatchObject({ run: 'gate_arith_mc', metric: 'acc', split: 'none', n: 120, binary: true, losses: 0 })
    expect(equivalent.comparisons[0].ci.method).toMatch(/tango/i)
    const degraded = await compare(join(LM_EVAL_MC, 'baseline'), join(LM_EVAL_MC, 'degraded'), { metric: 'acc_norm', split: null })
    expect(degraded.verdict).toBe('fail')
    const [cmp] = degraded.comparisons
    expect(cmp.wins).toBe(0)
    expect(cmp.losses).toBeGreaterThan(15)
    expect(cmp.examples[0].baseline_output).toBe(cmp.examples[0].reference)
    expect(cmp.examples[0].candidate_output).not.toBe(cmp.examples[0].reference)
  })

  it('hands every changed answer to report.html and keeps `examples` in the report', async () => {
    const changed = new Map<string, ChangedExample[]>()
    const report = await compareOutputs(LM_EVAL_BASELINE, LM_EVAL_DEGRADED, config, {
      defaults: {
        metric: 'exact_match',
        split: 'strict-match',
        maxDrop: 0.05,
        maxRelativeDrop: null,
        direction: 'higher',
        perturbations: 'report'
      },
      examples: 2,
      changedAnswers: changed
    })
    expect(report.comparisons[0].examples).toHaveLength(2)
    expect(changed.get(report.comparisons[0].id)).toHaveLength(20)
  })

  it('asks for a filter when the task has several, as for a HELM metric in several splits', async () => {
    const report = await compare(LM_EVAL_BASELINE, LM_EVAL_EQUIVALENT, { split: null })
    expect(report.verdict).toBe('error')
    expect(errorCodes(report)).toContain('guard.split_ambiguous')
  })

  it('gates the tasks a gate file names, by task name or match glob', async () => {
    const gateFile: GateConfig = {
      ...config,
      runs: [
        {
          entry: 'gate_arith',
          match: null,
          metric: 'exact_match',
          split: 'strict-match',
          maxDrop: 0.05,
          maxRelativeDrop: null,
          direction: 'higher',
          perturbations: 'report'
        },
        {
          entry: 'zero-shot',
          match: '*_zeroshot',
          metric: 'exact_match',
          split: 'flexible-extract',
          maxDrop: 0.05,
          maxRelativeDrop: null,
          direction: 'higher',
          perturbations: 'report'
        }
      ]
    }
    const report = await compareOutputs(LM_EVAL_BASELINE, LM_EVAL_DEGRADED, gateFile)
    expect(report.comparisons.map(c => [c.run, c.entry, c.split, c.verdict])).toEqual([
      ['gate_arith', 'gate_arith', 'strict-match', 'fail'],
      ['gate_arith_zeroshot', 'zero-shot', 'flexible-extract', 'fail']
    ])
    const missing = await compareOutputs(LM_EVAL_BASELINE, LM_EVAL_EQUIVALENT, {
      ...gateFile,
      runs: [{ ...gateFile.runs[0], entry: 'mmlu' }]
    })
    expect(missing.verdict).toBe('error')
    expect(errorCodes(missing)).toEqual(['runs.missing'])
  })

  it('refuses the same files on both sides, even through a symlink', async () => {
    const link = join(tmp(), 'candidate')
    symlinkSync(LM_EVAL_BASELINE, link)
    const report = await compare(LM_EVAL_BASELINE, link)
    expect(report.verdict).toBe('error')
    expect(errorCodes(report)).toContain('sides.same_file')
  })

  it('warns, and still compares, when both samples files hold the same bytes', async () => {
    const copy = join(tmp(), 'copy')
    cpSync(LM_EVAL_BASELINE, copy, { recursive: true })
    const report = await compare(LM_EVAL_BASELINE, copy)
    expect(report.verdict).toBe('pass')
    expect(report.warnings.map(w => w.code)).toContain('sides.same_content')
  })

  it('refuses a metric that lm-eval logs as corpus-level inputs rather than a per-sample score', async () => {
    const copy = join(tmp(), 'corpus')
    cpSync(LM_EVAL_EQUIVALENT, copy, { recursive: true })
    const dir = join(copy, 'gate-model')
    for (const name of readdirSync(dir).filter(n => n.startsWith('samples_'))) {
      const lines = readFileSync(join(dir, name), 'utf8').trimEnd().split('\n')
      const edited = lines.map(line => {
        const row = JSON.parse(line) as Record<string, unknown>
        row['exact_match'] = [row['target'], 'answer']
        return JSON.stringify(row)
      })
      writeFileSync(join(dir, name), `${edited.join('\n')}\n`)
    }
    const report = await compare(LM_EVAL_BASELINE, copy)
    expect(report.verdict).toBe('error')
    expect(errorCodes(report)).toContain('lmeval.metric_not_per_sample')
  })

  it('refuses to compare lm-eval output with HELM output, and names a folder that is neither', async () => {
    const mixed = await compare(LM_EVAL_BASELINE, BASELINE_SUITE)
    expect(mixed.verdict).toBe('error')
    expect(mixed.errors[0]).toMatchObject({ code: 'sides.different_kinds' })
    const empty = tmp()
    const neither = await compare(LM_EVAL_BASELINE, empty)
    expect(neither.verdict).toBe('error')
    expect(neither.errors[0].code).toBe('input.no_runs')
    expect(neither.errors[0].message).toContain('is neither HELM output')
    expect(neither.errors[0].message).toContain('nor lm-eval output')
  })
})

interface Expected {
  error: string
  fault: string
}

const cases = readdirSync(LM_EVAL_BAD)
  .filter(name => name !== 'clean')
  .sort()

/** A copy of the fault corpus's clean folder with `edit` applied to every gate_arith sample line. */
function editedClean(edit: (sample: Record<string, unknown>) => void): string {
  const copy = join(tmp(), 'edited')
  cpSync(join(LM_EVAL_BAD, 'clean'), copy, { recursive: true })
  const model = join(copy, readdirSync(copy)[0])
  const file = join(
    model,
    readdirSync(model).find(f => f.startsWith('samples_gate_arith_2'))!
  )
  const lines = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map(line => JSON.parse(line) as Record<string, unknown>)
  lines.forEach(edit)
  writeFileSync(file, lines.map(line => JSON.stringify(line)).join('\n') + '\n')
  return copy
}

describe("answer-key drift (issue 28: a changed target is not the model's change)", () => {
  it('refuses a document whose target changed on one side instead of counting the new score as a loss', async () => {
    const drifted = join(LM_EVAL_BAD, 'drifted-answer-key')
    const report = await compare(join(LM_EVAL_BAD, 'clean'), drifted)
    expect(report.verdict).toBe('error')
    expect(report.comparisons.map(c => c.run)).not.toContain('gate_arith')
    const issue = report.errors.find(e => e.code === 'lmeval.answer_key_drift')!
    expect(issue.message).toContain('task gate_arith: 1 document has a different answer key')
    expect(issue.message).toContain('doc_id 4')
    expect(issue.message).toMatch(/target baseline "591", candidate "592"; doc_hash baseline [0-9a-f]{16}/)
    expect(issue.file).toContain('drifted-answer-key')
    expect(issue.field).toMatch(/^line \d+: target$/)
    // The other way round names the same document.
    const reversed = await compare(drifted, join(LM_EVAL_BAD, 'clean'))
    expect(reversed.errors.find(e => e.code === 'lmeval.answer_key_drift')?.message).toContain('doc_id 4')
  })

  it('refuses a doc_hash or target_hash that differs while the target text is the same', async () => {
    for (const field of ['doc_hash', 'target_hash']) {
      const copy = editedClean(sample => {
        if (sample.doc_id === 9) sample[field] = '0'.repeat(64)
      })
      const report = await compare(join(LM_EVAL_BAD, 'clean'), copy)
      expect(report.verdict).toBe('error')
      const issue = report.errors.find(e => e.code === 'lmeval.answer_key_drift')!
      expect(issue.message).toContain('doc_id 9')
      expect(issue.field).toMatch(new RegExp(`: ${field}$`))
    }
  })

  it('compares a hash only where both sides logged it (an older lm-eval writes none)', async () => {
    const copy = editedClean(sample => {
      delete sample.doc_hash
      delete sample.target_hash
    })
    const report = await compare(join(LM_EVAL_BAD, 'clean'), copy)
    expect(report.errors.map(e => e.code)).not.toContain('lmeval.answer_key_drift')
  })
})

describe('lm-eval fault corpus (__tests__/fixtures/lm-eval-0.4.13/bad)', () => {
  it('has its cases, and its clean copy compares with itself without an error', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(15)
    const copy = join(tmp(), 'clean')
    cpSync(join(LM_EVAL_BAD, 'clean'), copy, { recursive: true })
    const report = await compare(join(LM_EVAL_BAD, 'clean'), copy)
    expect(report.errors).toEqual([])
    // 30 documents, none changed: too few to pass a 0.05 margin, but a sound comparison.
    expect(report.verdict).toBe('inconclusive')
    expect(report.comparisons.every(c => c.wins + c.losses === 0)).toBe(true)
  })

  it.each(cases)('%s fails closed', async name => {
    const expected = JSON.parse(readFileSync(join(LM_EVAL_BAD, name, 'expected.json'), 'utf8')) as Expected
    const report = await compare(join(LM_EVAL_BAD, 'clean'), join(LM_EVAL_BAD, name))
    expect(report.verdict).toBe('error')
    expect(errorCodes(report)).toContain(expected.error)
    const issue = report.errors.find(e => e.code === expected.error)!
    expect(issue.file).toBeTruthy()
    // The faulted side on the baseline side fails closed too.
    const reversed = await compare(join(LM_EVAL_BAD, name), join(LM_EVAL_BAD, 'clean'))
    expect(reversed.verdict).toBe('error')
  })
})
