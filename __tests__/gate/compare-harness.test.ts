/**
 * compareOutputs treats every harness through the interface of src/model/harness.ts alone: a toy
 * third harness, written here against that interface and nothing in src/gate/, is recognised,
 * paired and compared, and the same per-instance values give the same rows whether they come
 * from lm-eval's real output or from the toy's own format.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compareOutputs } from '../../src/gate/compare.js'
import { HARNESSES } from '../../src/gate/harnesses.js'
import { readLmEvalOutput } from '../../src/lmeval/read.js'
import type { Harness, HarnessSide, MetricValue, PairedUnit, RunDefaults, UnitValues } from '../../src/model/harness.js'
import type { Comparison, Report } from '../../src/model/report.js'
import { BASELINE_SUITE } from '../helm/read/fixtures.js'
import { LM_EVAL_BASELINE, LM_EVAL_DEGRADED } from '../lmeval/fixtures.js'
import { cliConfig } from './compare-helpers.js'

/** The toy format: one `toy-scores.json` per side, per task a list of scored documents. */
interface ToyDoc {
  doc: number
  filter: string
  metrics: Record<string, number>
  question: string
  target: string
  answer: string
}
interface ToyOutput {
  model: string
  tasks: Record<string, ToyDoc[]>
}
const TOY_FILE = 'toy-scores.json'

class ToySide implements HarnessSide {
  constructor(
    readonly file: string,
    readonly output: ToyOutput
  ) {}

  info(path: string): Report['baseline'] {
    return { path, runs: Object.keys(this.output.tasks).sort(), deployment: this.output.model, helm_version: null }
  }
}

function toyValues(file: string, docs: ToyDoc[]): UnitValues {
  return {
    perInstanceStatsFile: file,
    scenarioStateFile: null,
    requestStates: null,
    metricNames: () => [...new Set(docs.flatMap(d => Object.keys(d.metrics)))].sort(),
    splits: metric => [...new Set(docs.filter(d => metric in d.metrics).map(d => d.filter))].sort(),
    values: (metric, split): MetricValue[] =>
      docs
        .filter(d => d.filter === split && metric in d.metrics)
        .map(d => ({
          instanceId: String(d.doc),
          trainTrialIndex: 0,
          perturbation: null,
          value: d.metrics[metric],
          raw: d.metrics[metric],
          occurrences: 1
        }))
  }
}

const toyHarness: Harness<ToySide> = {
  name: 'toy',
  expects: `toy output (no ${TOY_FILE})`,
  fallback: false,
  recognises: async path => existsSync(join(path, TOY_FILE)),
  read: async path => new ToySide(join(path, TOY_FILE), JSON.parse(await readFile(join(path, TOY_FILE), 'utf8')) as ToyOutput),
  pair: async (baseline, candidate, config, defaults, log): Promise<PairedUnit[]> => {
    const tasks = Object.keys(baseline.output.tasks).sort()
    for (const task of Object.keys(candidate.output.tasks)) {
      if (!(task in baseline.output.tasks))
        log.error('toy.one_sided', `task ${task} exists only on the candidate side`, { file: candidate.file })
    }
    if (!defaults) return []
    return tasks
      .filter(task => task in candidate.output.tasks)
      .map(task => {
        const b = baseline.output.tasks[task]
        const c = candidate.output.tasks[task]
        return {
          name: task,
          gated: { entry: task, match: null, ...defaults },
          open: async () => ({
            baseline: toyValues(baseline.file, b),
            candidate: toyValues(candidate.file, c),
            checkAfterRows: () => true,
            fillExamples: async (rows: Comparison[]) => {
              for (const row of rows) {
                for (const e of row.examples) {
                  const find = (docs: ToyDoc[]): ToyDoc | undefined =>
                    docs.find(d => String(d.doc) === e.instance_id && d.filter === row.split)
                  e.input = find(b)?.question ?? ''
                  e.reference = find(b)?.target ?? ''
                  e.baseline_output = find(b)?.answer ?? ''
                  e.candidate_output = find(c)?.answer ?? ''
                }
              }
            },
            answerLengths: () => null,
            efficiency: async () => null
          })
        }
      })
  }
}

const made: string[] = []
afterAll(() => made.forEach(dir => rmSync(dir, { recursive: true, force: true })))

/** A real lm-eval output folder written again in the toy format: the same documents, filters and values. */
async function asToy(lmEvalFolder: string): Promise<string> {
  const output = await readLmEvalOutput(lmEvalFolder)
  const tasks: Record<string, ToyDoc[]> = {}
  for (const task of output.tasks) {
    tasks[task.name] = task.samples.map(s => ({
      doc: s.docId,
      filter: s.filter,
      metrics: Object.fromEntries([...s.metrics].filter((m): m is [string, number] => m[1] !== null)),
      question: s.inputExcerpt,
      target: s.referenceExcerpt,
      answer: s.outputExcerpt
    }))
  }
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-toy-'))
  made.push(dir)
  writeFileSync(join(dir, TOY_FILE), JSON.stringify({ model: output.model, tasks }))
  return dir
}

const config = cliConfig(2000)
const defaults: RunDefaults = {
  metric: 'exact_match',
  split: 'flexible-extract',
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
}
const withToy = [...HARNESSES, toyHarness]

describe('a third harness through the interface alone', () => {
  it('gives the same rows as lm-eval for the same per-instance values', async () => {
    const fromLmEval = await compareOutputs(LM_EVAL_BASELINE, LM_EVAL_DEGRADED, config, { defaults })
    const fromToy = await compareOutputs(await asToy(LM_EVAL_BASELINE), await asToy(LM_EVAL_DEGRADED), config, {
      defaults,
      harnesses: withToy
    })
    expect(fromToy.errors).toEqual([])
    // The lm-eval data must make a real comparison, so that equal rows mean something.
    expect(fromLmEval.verdict).toBe('fail')
    expect(fromLmEval.comparisons.some(c => c.losses > 0)).toBe(true)
    expect(fromToy.comparisons).toEqual(fromLmEval.comparisons)
    expect(fromToy.verdict).toBe(fromLmEval.verdict)
    expect(fromToy.headline).toBe(fromLmEval.headline)
    expect(fromToy.baseline.runs).toEqual(fromLmEval.baseline.runs)
    expect(fromToy.baseline.deployment).toBe(fromLmEval.baseline.deployment)
  })

  it('is refused beside another harness, and named when a folder holds no harness output', async () => {
    const toy = await asToy(LM_EVAL_BASELINE)
    const mixed = await compareOutputs(BASELINE_SUITE, toy, config, { defaults, harnesses: withToy })
    expect(mixed.verdict).toBe('error')
    expect(mixed.errors.map(e => [e.code, e.file])).toEqual([['sides.different_kinds', toy]])
    expect(mixed.errors[0].message).toContain('the baseline is HELM output and the candidate toy output')

    const empty = mkdtempSync(join(tmpdir(), 'helm-gate-toy-empty-'))
    made.push(empty)
    const neither = await compareOutputs(empty, toy, config, { defaults, harnesses: withToy })
    expect(neither.errors.map(e => e.code)).toEqual(['input.no_runs'])
    expect(neither.errors[0].message).toContain(`nor toy output (no ${TOY_FILE})`)
  })

  it('is not recognised unless listed: the same folder is then read as HELM output and refused', async () => {
    const toy = await asToy(LM_EVAL_BASELINE)
    const report = await compareOutputs(toy, await asToy(LM_EVAL_DEGRADED), config, { defaults })
    expect(report.verdict).toBe('error')
    expect(report.errors.map(e => e.code)).toEqual(['input.no_runs'])
    expect(report.comparisons).toEqual([])
  })
})
