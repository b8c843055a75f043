import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { InputError } from '../../../src/errors.js'
import { discoverRuns, readRunDirectory, scanRuns } from '../../../src/helm/read/discover.js'
import { BASELINE_SUITE, HELM_0516, LEGACY_SUITE, MCQA_RUN, REASONING_RUN, ROBUSTNESS_RUN } from './fixtures.js'

async function errorOf(promise: Promise<unknown>): Promise<InputError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return error as InputError
  }
  throw new Error('expected an InputError')
}

describe('discoverRuns on real 0.5.16 output', () => {
  const expectedNames = [MCQA_RUN, ROBUSTNESS_RUN, REASONING_RUN].sort()

  it('finds the runs of an output path, sorted, skipping eval_cache', async () => {
    const runs = await discoverRuns(join(HELM_0516, 'baseline'))
    expect(runs.map(run => basename(run.path))).toEqual(expectedNames)
    const mcqa = runs.find(run => basename(run.path) === MCQA_RUN)!
    expect(mcqa.runSpec.name).toBe('simple_mcqa:model=simple_model1')
    expect(mcqa.runSpec.adapter_spec.model_deployment).toBe('simple/model1')
    expect(mcqa.scenarioName).toBe('simple_mcqa')
    expect(mcqa.layout).toBe('0.4+')
    expect(mcqa.files).toEqual({ runSpec: true, scenario: true, scenarioState: true, stats: true, perInstanceStats: true })
  })

  it('gives the same runs from the runs/ directory, the suite directory and each run directory', async () => {
    const fromOutput = await discoverRuns(join(HELM_0516, 'baseline'))
    expect(await discoverRuns(join(HELM_0516, 'baseline', 'runs'))).toEqual(fromOutput)
    expect(await discoverRuns(BASELINE_SUITE)).toEqual(fromOutput)
    for (const run of fromOutput) expect(await discoverRuns(run.path)).toEqual([run])
  })

  it('reads the 0.2.x suite, whose run directories hold eval_cache', async () => {
    const scan = await scanRuns(LEGACY_SUITE)
    expect(scan.incomplete).toEqual([])
    expect(scan.runs).toHaveLength(2)
    expect(scan.runs.every(run => run.layout === '0.2')).toBe(true)
  })
})

describe('discoverRuns on edge cases', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'discover-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('rejects an output path with several suites, naming them', async () => {
    await cp(join(HELM_0516, 'baseline', 'runs', 'gate'), join(dir, 'runs', 'pr-12'), { recursive: true })
    await cp(join(HELM_0516, 'trials', 'runs', 'gate'), join(dir, 'runs', 'nightly'), { recursive: true })
    const error = await errorOf(discoverRuns(dir))
    expect(error.code).toBe('input.ambiguous_suites')
    expect(error.message).toContain('nightly, pr-12')
    expect((await discoverRuns(join(dir, 'runs', 'pr-12'))).map(r => basename(r.path))).toHaveLength(3)
  })

  it("takes FlexLLMGen's working folder (runs/<run>/, no suite level) for one suite of all its runs", async () => {
    // FlexLLMGen's HELM script writes each run to --run-path (runs/) directly.
    for (const run of (await scanRuns(LEGACY_SUITE)).runs) await cp(run.path, join(dir, 'runs', basename(run.path)), { recursive: true })
    await mkdir(join(dir, 'runs', 'mmlu_failed_run'))
    const scan = await scanRuns(dir)
    expect(scan.root).toBe(join(dir, 'runs'))
    expect(scan.runs.map(r => basename(r.path))).toEqual((await scanRuns(LEGACY_SUITE)).runs.map(r => basename(r.path)))
    expect(scan.runs).toHaveLength(2)
    // An empty run directory is still reported, never dropped.
    expect(scan.incomplete.map(r => basename(r.path))).toEqual(['mmlu_failed_run'])
    expect((await errorOf(discoverRuns(join(dir, 'runs')))).code).toBe('input.incomplete_run')
  })

  it('refuses a runs/ folder holding runs beside suites, naming the folder to pass', async () => {
    for (const run of (await scanRuns(LEGACY_SUITE)).runs) await cp(run.path, join(dir, 'runs', basename(run.path)), { recursive: true })
    await cp(join(HELM_0516, 'baseline', 'runs', 'gate'), join(dir, 'runs', 'pr-12'), { recursive: true })
    const error = await errorOf(scanRuns(dir))
    expect(error.code).toBe('input.ambiguous_suites')
    expect(error.message).toContain(
      `pass ${join(dir, 'runs')} for its own runs, or one suite directory, e.g. ${join(dir, 'runs', 'pr-12')}`
    )
  })

  it('reports a truly empty run directory (a failed helm-run) instead of skipping it', async () => {
    const suite = join(dir, 'runs', 'gate')
    await cp(join(BASELINE_SUITE, MCQA_RUN), join(suite, 'simple_mcqa:model=ci_baseline'), { recursive: true })
    await mkdir(join(suite, 'simple_mcqa:model=ci_candidate'))
    await mkdir(join(suite, 'eval_cache'))
    await mkdir(join(suite, 'groups'))
    await writeFile(join(suite, 'runs.json'), '[]')

    const scan = await scanRuns(dir)
    expect(scan.root).toBe(suite)
    expect(scan.runs.map(r => basename(r.path))).toEqual(['simple_mcqa:model=ci_baseline'])
    expect(scan.incomplete).toEqual([
      {
        path: join(suite, 'simple_mcqa:model=ci_candidate'),
        files: { runSpec: false, scenario: false, scenarioState: false, stats: false, perInstanceStats: false }
      }
    ])
    const error = await errorOf(discoverRuns(dir))
    expect(error.code).toBe('input.incomplete_run')
    expect(error.message).toContain('simple_mcqa:model=ci_candidate')
  })

  it('reports which files a partial run directory lacks', async () => {
    const run = join(dir, 'run')
    await cp(join(BASELINE_SUITE, MCQA_RUN), run, { recursive: true })
    await rm(join(run, 'per_instance_stats.json'))
    await rm(join(run, 'scenario.json'))
    const found = await readRunDirectory(run)
    expect(found.files).toEqual({ runSpec: true, scenario: false, scenarioState: true, stats: true, perInstanceStats: false })
    expect(found.scenarioName).toBeNull()
  })

  it('names the path when nothing is found, missing or not a directory', async () => {
    await mkdir(join(dir, 'runs', 'empty-suite'), { recursive: true })
    expect((await errorOf(discoverRuns(join(dir, 'runs', 'empty-suite')))).code).toBe('input.no_runs')
    const emptySuite = await errorOf(discoverRuns(dir))
    expect(emptySuite.code).toBe('input.no_runs')
    expect(emptySuite.message).toContain(dir)
    await mkdir(join(dir, 'other', 'runs'), { recursive: true })
    const noSuites = await errorOf(discoverRuns(join(dir, 'other')))
    expect(noSuites.code).toBe('input.no_runs')
    expect(noSuites.location.file).toBe(join(dir, 'other', 'runs'))

    const missing = await errorOf(discoverRuns(join(dir, 'absent')))
    expect(missing.code).toBe('input.not_found')
    expect(missing.message).toContain(join(dir, 'absent'))

    await writeFile(join(dir, 'file.json'), '{}')
    expect((await errorOf(discoverRuns(join(dir, 'file.json')))).code).toBe('input.not_a_directory')
  })

  it('rejects a run_spec.json with a wrong type, naming the field', async () => {
    const run = join(dir, 'run')
    await mkdir(run)
    await writeFile(
      join(run, 'run_spec.json'),
      JSON.stringify({ name: 'x', scenario_spec: { class_name: 'c', args: {} }, adapter_spec: {}, metric_specs: [{ class_name: 3 }] })
    )
    const error = await errorOf(discoverRuns(run))
    expect(error.code).toBe('input.wrong_type')
    expect(error.location).toMatchObject({ file: join(run, 'run_spec.json'), field: 'metric_specs[0].class_name', value: 3 })
  })

  it('rejects a sampling field of another type: the report header shows them as what the requests sent', async () => {
    const run = join(dir, 'run')
    await mkdir(run)
    const spec = (adapter: Record<string, unknown>): string =>
      JSON.stringify({ name: 'x', scenario_spec: { class_name: 'c', args: {} }, adapter_spec: adapter, metric_specs: [] })
    for (const [field, value] of [
      ['temperature', '0'],
      ['max_tokens', 2.5],
      ['num_outputs', -1],
      ['stop_sequences', ['\n', 3]]
    ] as const) {
      await writeFile(join(run, 'run_spec.json'), spec({ [field]: value }))
      const error = await errorOf(discoverRuns(run))
      expect(error.code).toBe('input.wrong_type')
      expect(error.location).toMatchObject({ file: join(run, 'run_spec.json'), field: `adapter_spec.${field}`, value })
    }
    // Absent is tolerated (a hand-written file).
    await writeFile(join(run, 'run_spec.json'), spec({}))
    expect((await discoverRuns(run)).map(r => r.runSpec.name)).toEqual(['x'])
  })
})
