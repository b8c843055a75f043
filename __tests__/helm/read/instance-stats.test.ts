import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readRunDirectory } from '../../../src/helm/read/discover.js'
import { findSeries, instanceStatKey, perturbationKey, readPerInstanceStats, seriesKey } from '../../../src/helm/read/instance-stats.js'
import type { PerInstanceStatsTable } from '../../../src/helm/types.js'
import { ALTERED_SUITE, BASELINE_SUITE, LEGACY_SUITE, MCQA_RUN, REASONING_RUN, ROBUSTNESS_RUN, TRIALS_SUITE } from './fixtures.js'

interface RawEntry {
  instance_id: string
  train_trial_index: number
  perturbation?: { name: string }
  stats: { name: { name: string; split?: string; perturbation?: { name: string } }; count: number; sum: number }[]
}

/** An independent reading of the file with JSON.parse, for comparison. */
async function rawEntries(run: string): Promise<RawEntry[]> {
  return JSON.parse(await readFile(join(run, 'per_instance_stats.json'), 'utf8')) as RawEntry[]
}

async function read(suite: string, name: string): Promise<PerInstanceStatsTable> {
  return readPerInstanceStats(await readRunDirectory(join(suite, name)))
}

describe('readPerInstanceStats on real 0.5.16 runs', () => {
  it('has one value per instance for each stat, equal to the file', async () => {
    const table = await read(BASELINE_SUITE, MCQA_RUN)
    const raw = await rawEntries(join(BASELINE_SUITE, MCQA_RUN))
    expect(table.layout).toBe('0.4+')
    expect(table.entries).toBe(raw.length)
    expect(table.instanceKeys).toBe(raw.length)
    let statCount = 0
    for (const entry of raw) {
      for (const stat of entry.stats) {
        statCount++
        const series = table.series.get(seriesKey(stat.name.name, stat.name.split ?? null, null))!
        expect(series.values.get(instanceStatKey(entry.instance_id, entry.train_trial_index))).toEqual({
          instanceId: entry.instance_id,
          trainTrialIndex: entry.train_trial_index,
          subSplit: null,
          count: stat.count,
          sum: stat.sum,
          occurrences: 1
        })
      }
    }
    const total = [...table.series.values()].reduce((n, s) => n + s.values.size, 0)
    expect(total).toBe(statCount)
  })

  it('keeps count-0 stats so the gate can count them', async () => {
    const table = await read(BASELINE_SUITE, MCQA_RUN)
    const co2 = table.series.get(seriesKey('training_co2_cost', 'test', null))!
    expect(co2.values.size).toBe(10)
    expect([...co2.values.values()].every(v => v.count === 0)).toBe(true)
  })

  it('pairs the same instances across baseline and altered runs, with the altered values', async () => {
    const baseline = findSeries(await read(BASELINE_SUITE, MCQA_RUN), 'exact_match', 'test', null)[0]
    const altered = findSeries(await read(ALTERED_SUITE, MCQA_RUN), 'exact_match', 'test', null)[0]
    expect([...altered.values.keys()].sort()).toEqual([...baseline.values.keys()].sort())
    expect(baseline.values.get(instanceStatKey('id38', 0))!.sum).toBe(0)
    expect(altered.values.get(instanceStatKey('id38', 0))!.sum).toBe(1)
    // id60: 60 is a multiple of 5, so alter_run.py leaves it wrong.
    expect(altered.values.get(instanceStatKey('id60', 0))!.sum).toBe(0)
  })

  it('keeps perturbed copies apart from the clean instances that share their id', async () => {
    const table = await read(BASELINE_SUITE, ROBUSTNESS_RUN)
    expect(table.entries).toBe(20)
    expect(table.instanceKeys).toBe(20)
    const clean = findSeries(table, 'exact_match', 'test', null)
    const perturbed = findSeries(table, 'exact_match', 'test', 'mild_mix')
    expect(clean).toHaveLength(1)
    expect(perturbed).toHaveLength(1)
    expect(perturbed[0]).toMatchObject({ perturbationName: 'mild_mix', computedOn: 'perturbed' })
    expect([...perturbed[0].values.keys()].sort()).toEqual([...clean[0].values.keys()].sort())
    expect(perturbed[0].values.size).toBe(10)
  })

  it('keeps train trials apart', async () => {
    const table = await read(TRIALS_SUITE, MCQA_RUN)
    const raw = await rawEntries(join(TRIALS_SUITE, MCQA_RUN))
    expect(table.entries).toBe(raw.length)
    const series = findSeries(table, 'exact_match', 'test', null)[0]
    expect(series.values.size).toBe(raw.length)
    const trials = new Set([...series.values.values()].map(v => v.trainTrialIndex))
    expect([...trials].sort()).toEqual([0, 1, 2])
    const first = raw[0]
    for (const t of [0, 1, 2]) expect(series.values.has(instanceStatKey(first.instance_id, t))).toBe(true)
  })

  it('takes the split from each stat name (valid and test) and pools them on request', async () => {
    const table = await read(BASELINE_SUITE, REASONING_RUN)
    const raw = await rawEntries(join(BASELINE_SUITE, REASONING_RUN))
    const splits = new Set(raw.map(e => e.stats[0].name.split))
    expect([...splits].sort()).toEqual(['test', 'valid'])
    const valid = findSeries(table, 'quasi_exact_match', 'valid', null)[0]
    const test = findSeries(table, 'quasi_exact_match', 'test', null)[0]
    expect(valid.values.size + test.values.size).toBe(raw.length)
    const pooled = findSeries(table, 'quasi_exact_match', null, null)
    expect(pooled.map(s => s.split).sort()).toEqual(['test', 'valid'])
    expect(findSeries(table, 'no_such_metric', null, null)).toEqual([])
  })
})

describe('merging and perturbation keys', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'instance-stats-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const stat = (name: string, sum: number, extra: Record<string, unknown> = {}) => ({
    name: { name, split: 'test', ...extra },
    count: 1,
    sum
  })

  it('merges several entries per key (one per metric class) and adds duplicated stats', async () => {
    const file = join(dir, 'merge.json')
    await writeFile(
      file,
      JSON.stringify([
        { instance_id: 'id1', train_trial_index: 0, stats: [stat('exact_match', 1), stat('num_prompt_tokens', 10)] },
        { instance_id: 'id2', train_trial_index: 0, stats: [stat('exact_match', 0)] },
        { instance_id: 'id1', train_trial_index: 0, stats: [stat('f1_score', 0.5), stat('num_prompt_tokens', 12)] }
      ])
    )
    const table = await readPerInstanceStats(file, { chunkSize: 16 })
    expect(table.entries).toBe(3)
    expect(table.instanceKeys).toBe(2)
    const key = instanceStatKey('id1', 0)
    expect(table.series.get(seriesKey('f1_score', 'test', null))!.values.get(key)!.sum).toBe(0.5)
    expect(table.series.get(seriesKey('exact_match', 'test', null))!.values.size).toBe(2)
    expect(table.series.get(seriesKey('num_prompt_tokens', 'test', null))!.values.get(key)).toMatchObject({
      count: 2,
      sum: 22,
      occurrences: 2
    })
  })

  it('keys perturbations by name, seed and computed_on, never by local paths', async () => {
    const dialect = (path: string, seed?: number) => ({
      name: 'dialect',
      robustness: false,
      fairness: true,
      computed_on: 'perturbed',
      prob: 1,
      mapping_file_path: path,
      ...(seed === undefined ? {} : { seed })
    })
    expect(perturbationKey(dialect('/home/a/map.json'))).toBe(perturbationKey(dialect('/runner/work/map.json')))
    expect(perturbationKey(dialect('/a', 1))).toBe('dialect#1')
    expect(perturbationKey({ name: 'robustness', computed_on: 'worst' })).toBe('robustness@worst')
    expect(perturbationKey(undefined)).toBeNull()

    const file = join(dir, 'dialect.json')
    const entry = (path: string, seed?: number) => ({
      instance_id: 'id5',
      perturbation: dialect(path, seed),
      train_trial_index: 0,
      stats: [stat('exact_match', 1, { perturbation: dialect(path, seed) })]
    })
    await writeFile(file, JSON.stringify([entry('/home/a/map.json'), entry('/home/a/map.json', 1)]))
    const table = await readPerInstanceStats(file)
    expect(table.instanceKeys).toBe(2)
    expect(findSeries(table, 'exact_match', 'test', 'dialect')[0].values.size).toBe(1)
    expect(findSeries(table, 'exact_match', 'test', 'dialect#1')[0].values.size).toBe(1)
  })

  it('refuses a run directory without the file', async () => {
    const run = await readRunDirectory(join(BASELINE_SUITE, MCQA_RUN))
    await expect(readPerInstanceStats({ ...run, files: { ...run.files, perInstanceStats: false } })).rejects.toThrow(
      /has no per_instance_stats.json/
    )
  })
})

describe('0.2.x layout', () => {
  it('reads NaN and Infinity sums, three trials and perturbations', async () => {
    const mmlu = await read(LEGACY_SUITE, 'mmlu_subject=abstract_algebra,model=huggingface_opt-1.3b')
    expect(mmlu.layout).toBe('0.2')
    expect(mmlu.entries).toBe(9)
    expect(findSeries(mmlu, 'exact_match', 'test', null)[0].values.size).toBe(9)
    const logprob = findSeries(mmlu, 'logprob', 'test', null)[0]
    expect(logprob.values.get(instanceStatKey('id31', 1))!.sum).toBeNaN()

    const boolq = await read(LEGACY_SUITE, 'boolq_model=huggingface_opt-1.3b,data_augmentation=robustness')
    expect(boolq.instanceKeys).toBe(4)
    expect(findSeries(boolq, 'exact_match', 'valid', 'mild_mix')[0].values.get(instanceStatKey('id9', 0))!.sum).toBe(0)
    expect(findSeries(boolq, 'inference_runtime', 'valid', null)[0].values.get(instanceStatKey('id9', 0))!.sum).toBe(Infinity)
  })
})
