/**
 * Classes of damaged evidence that once reached a verdict (issue "fail closed everywhere"). Each
 * class is tried with several inputs, on either side, on clean and perturbed rows, with one
 * trial and with several: every one must end in an error (or, for the worst-case bound, never
 * in a pass). The starting pairs reach a verdict without error, so each test measures only its
 * damage.
 */
import { describe, expect, it } from '@jest/globals'
import { linkSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RunDefaults } from '../../src/model/harness.js'
import type { Report } from '../../src/model/report.js'
import { ALTERED_SUITE, BASELINE_SUITE, HELM_0516, MCQA_RUN, REASONING_RUN, ROBUSTNESS_RUN } from '../helm/read/fixtures.js'
import { copyToTemp, editJson } from '../support/fixture-copy.js'
import { cliConfig, comparer, errorCodes } from './compare-helpers.js'

const TRIALS_ALTERED = join(HELM_0516, 'trials-altered', 'runs', 'gate')
const TRIALS = join(HELM_0516, 'trials', 'runs', 'gate')

const cli = cliConfig(1000)
const defaults: RunDefaults = {
  metric: 'exact_match',
  split: null,
  maxDrop: 0.9,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'gate'
}
const compare = comparer(cli, defaults)
const lenient = { ...cli, statistics: { ...cli.statistics, minOverlap: 0.5 } }

interface Stat {
  name: { name: string; split?: string; perturbation?: unknown }
  count: number
  sum: number
}
interface Row {
  instance_id: string
  train_trial_index: number
  perturbation?: { name: string }
  stats: Stat[]
}
interface State {
  instance: { id: string; perturbation?: unknown }
  train_trial_index: number
  request: Record<string, unknown>
  result: { completions: { text?: string }[] } | null
}

type Side = 'baseline' | 'candidate'
type Fixture = { baseline: string; candidate: string; run: string; label: string }

/** Passing pairs: an improvement (simple_model1 -> altered), clean+perturbed, and three trials. */
const PAIRS: Fixture[] = [
  { label: 'one trial, clean', baseline: BASELINE_SUITE, candidate: ALTERED_SUITE, run: MCQA_RUN },
  { label: 'one trial, perturbed', baseline: BASELINE_SUITE, candidate: ALTERED_SUITE, run: ROBUSTNESS_RUN },
  { label: 'three trials', baseline: TRIALS, candidate: TRIALS_ALTERED, run: MCQA_RUN }
]
const SIDES: Side[] = ['baseline', 'candidate']

function fresh(pair: Fixture): { baseline: string; candidate: string } {
  return { baseline: copyToTemp(pair.baseline, 'baseline'), candidate: copyToTemp(pair.candidate, 'candidate') }
}

const statsFile = (dir: string, run: string): string => join(dir, run, 'per_instance_stats.json')
const stateFile = (dir: string, run: string): string => join(dir, run, 'scenario_state.json')

/** Sets the gated metric's value of the `which`-th row (counting rows that hold it) whose perturbation matches. */
function setValue(dir: string, run: string, value: number | string, which = 0, perturbed = false, metric = 'exact_match'): void {
  editJson<Row[]>(statsFile(dir, run), rows => {
    const holders = rows.filter(r => Boolean(r.perturbation) === perturbed && r.stats.some(s => s.name.name === metric))
    const row = holders[which % holders.length]
    for (const stat of row.stats) if (stat.name.name === metric) stat.sum = value as number
  })
}

async function verdictOf(dirs: { baseline: string; candidate: string }, extra: Partial<RunDefaults> = {}, config = cli): Promise<Report> {
  return compare(dirs.baseline, dirs.candidate, extra, config)
}

describe('the starting pairs reach a verdict undamaged', () => {
  it.each(PAIRS)('$label', async pair => {
    const report = await verdictOf(fresh(pair))
    expect(report.errors).toEqual([])
    // Eight instances with three trials use the bootstrap, which never passes below 20 instances.
    expect(report.verdict).toBe(pair.label === 'three trials' ? 'inconclusive' : 'pass')
  })
})

describe('1. values whose magnitude overflows the sums', () => {
  const cases = PAIRS.flatMap(pair => SIDES.flatMap(side => [1e308, -1e308, 1e200].map(value => ({ pair, side, value }))))
  it.each(cases)('$pair.label, $side side, $value on a continuous metric', async ({ pair, side, value }) => {
    const dirs = fresh(pair)
    setValue(dirs[side], pair.run, value, 3, pair.run === ROBUSTNESS_RUN, 'num_output_tokens')
    const report = await verdictOf(dirs, { metric: 'num_output_tokens', maxDrop: 1000 })
    expect(report.verdict).toBe('error')
    const error = report.errors.find(e => e.code === 'guard.huge_value')!
    expect(error.message).toContain('num_output_tokens')
    expect(error.value).toMatch(/instance id\d+, trial \d/)
  })

  it.each(SIDES)('1e308 in ten 0/1 values on the %s side is refused, not an infinite interval', async side => {
    const pair = PAIRS[0]
    const dirs = fresh(pair)
    for (let i = 0; i < 10; i++) setValue(dirs[side], pair.run, 1e308, i)
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    expect(errorCodes(report)).toContain('guard.out_of_range')
    expect(JSON.stringify(report)).not.toContain('Infinity')
  })
})

describe('2. values outside a metric range', () => {
  const values = [4, -1, 1.5, 'Infinity with a count']
  const cases = PAIRS.flatMap(pair => SIDES.flatMap(side => values.map(value => ({ pair, side, value }))))
  it.each(cases)('$pair.label, $side side, exact_match = $value', async ({ pair, side, value }) => {
    const dirs = fresh(pair)
    if (value === 'Infinity with a count') {
      // A non-finite value with a count is not "not measured": for a 0/1 metric it is out of range.
      editJson<Row[]>(statsFile(dirs[side], pair.run), rows => {
        const row = rows.find(r => Boolean(r.perturbation) === (pair.run === ROBUSTNESS_RUN))!
        for (const stat of row.stats) if (stat.name.name === 'exact_match') (stat as { sum: unknown }).sum = '__INFINITY__'
      })
      // HELM writes json.dumps' bare Infinity token; JSON.stringify cannot.
      const file = statsFile(dirs[side], pair.run)
      writeFileSync(file, readFileSync(file, 'utf8').replace('"__INFINITY__"', 'Infinity'))
    } else {
      setValue(dirs[side], pair.run, value, 2, pair.run === ROBUSTNESS_RUN)
    }
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    const error = report.errors.find(e => e.code === 'guard.out_of_range')!
    expect(error.message).toContain(`${side} side`)
    expect(error.value).toMatch(/^"instance id\d+, trial \d+(, perturbation [^:]+)?: /)
  })

  it.each(SIDES)('a metric that is 0/1 on one side must stay in [0, 1] on the other (%s damaged)', async side => {
    const pair = PAIRS[0]
    const dirs = fresh(pair)
    for (const dir of [dirs.baseline, dirs.candidate]) {
      editJson<Row[]>(statsFile(dir, pair.run), rows => {
        for (const row of rows) for (const stat of row.stats) if (stat.name.name === 'exact_match') stat.name.name = 'custom_match'
      })
    }
    // The altered side holds 0 and 1; the damaged value 4 would otherwise make it "continuous".
    const other: Side = side === 'baseline' ? 'candidate' : 'baseline'
    const altered = pair.candidate === ALTERED_SUITE ? 'candidate' : 'baseline'
    setValue(dirs[altered === side ? other : side], pair.run, 4, 0, false, 'custom_match')
    const report = await verdictOf(dirs, { metric: 'custom_match' })
    expect(report.verdict).toBe('error')
    expect(report.errors.find(e => e.code === 'guard.out_of_range')?.message).toContain('is 0/1 on the')
  })
})

describe('3. scoring failures and the worst-case bound', () => {
  const cases = PAIRS.flatMap(pair => SIDES.map(side => ({ pair, side })))
  it.each(cases)(
    '$pair.label: a $side instance with a request state but no score is an error at min_overlap 0.5',
    async ({ pair, side }) => {
      const dirs = fresh(pair)
      editJson<Row[]>(statsFile(dirs[side], pair.run), rows => {
        const perturbed = pair.run === ROBUSTNESS_RUN
        const row = rows.find(r => Boolean(r.perturbation) === perturbed)!
        row.stats = row.stats.filter(s => s.name.name !== 'exact_match')
      })
      const report = await verdictOf(dirs, {}, lenient)
      expect(report.verdict).toBe('error')
      const error = report.errors.find(e => e.code === 'guard.scoring_failure')!
      expect(error.message).toContain(`1 ${side} instance was requested but has no exact_match score`)
    }
  )

  /** Removes instances from one side completely (scores and request states): truly missing. */
  function removeInstances(dir: string, run: string, ids: string[]): void {
    editJson<Row[]>(statsFile(dir, run), rows => rows.filter(r => !ids.includes(r.instance_id)))
    editJson<{ request_states: State[] }>(stateFile(dir, run), s => {
      s.request_states = s.request_states.filter(r => !ids.includes(r.instance.id))
    })
  }

  it.each([
    { label: 'one trial', base: ALTERED_SUITE, ids: ['id38', 'id41'] },
    { label: 'three trials', base: TRIALS_ALTERED, ids: [] as string[] }
  ])('$label: a candidate that lost its correct answers does not pass on the rest', async ({ base, ids }) => {
    const baseline = copyToTemp(base, 'baseline')
    const candidate = copyToTemp(base, 'candidate')
    let lost = ids
    if (lost.length === 0) {
      editJson<Row[]>(statsFile(candidate, MCQA_RUN), rows => {
        lost = [
          ...new Set(rows.filter(r => r.stats.some(s => s.name.name === 'exact_match' && s.sum === 1)).map(r => r.instance_id))
        ].slice(0, 2)
      })
    }
    removeInstances(candidate, MCQA_RUN, lost)
    const margin = { maxDrop: 0.45, perturbations: 'report' as const }
    const plain = await compare(baseline, candidate, margin, lenient)
    const mcqa = plain.comparisons.find(c => c.run === 'simple_mcqa' && c.perturbation === null)!
    expect(mcqa.unmatched.baseline).toBeGreaterThan(0)
    expect(mcqa.worst_case!.imputed.candidate).toBe(mcqa.unmatched.baseline)
    expect(mcqa.worst_case!.low!).toBeLessThan(mcqa.ci.low)
    expect(mcqa.verdict).not.toBe('pass')
    expect(plain.verdict).not.toBe('pass')
  })

  it.each(SIDES)('an unbounded metric with an unmatched instance on the %s side never passes', async side => {
    const dirs = { baseline: copyToTemp(ALTERED_SUITE, 'baseline'), candidate: copyToTemp(ALTERED_SUITE, 'candidate') }
    removeInstances(dirs[side], MCQA_RUN, ['id60'])
    const report = await compare(
      dirs.baseline,
      dirs.candidate,
      { metric: 'num_output_tokens', maxDrop: 1000, perturbations: 'report' },
      lenient
    )
    const mcqa = report.comparisons.find(c => c.run === 'simple_mcqa' && c.perturbation === null)!
    expect(mcqa.worst_case).toMatchObject({ low: null, high: null, verdict: 'inconclusive' })
    expect(mcqa.verdict).toBe('inconclusive')
    expect(mcqa.reason).toContain('no known range')
  })

  it('reports the plain bound itself as the worst case when nothing is unmatched', async () => {
    const report = await verdictOf(fresh(PAIRS[0]))
    for (const c of report.comparisons) {
      expect(c.worst_case).toEqual({
        imputed: { baseline: 0, candidate: 0 },
        low: c.ci.low,
        high: c.ci.high,
        method: c.ci.method,
        verdict: c.verdict
      })
    }
  })
})

describe('4. requests that never ran', () => {
  const damages: [string, (s: State) => void][] = [
    ['result null', s => void (s.result = null)],
    ['no completions', s => void (s.result!.completions = [])],
    ['a completion without text', s => void delete s.result!.completions[0].text]
  ]
  const cases = PAIRS.flatMap(pair => SIDES.flatMap(side => damages.map(([what, damage]) => ({ pair, side, what, damage }))))
  it.each(cases)('$pair.label, $side side: $what', async ({ pair, side, damage }) => {
    const dirs = fresh(pair)
    editJson<{ request_states: State[] }>(stateFile(dirs[side], pair.run), file => {
      const perturbed = pair.run === ROBUSTNESS_RUN
      damage(file.request_states.filter(s => Boolean(s.instance.perturbation) === perturbed)[1])
    })
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    const error = report.errors.find(e => e.code === 'guard.request_not_run')!
    // One damaged request: the message counts it in the singular.
    expect(error.message).toContain(`1 ${side} request that has a score never produced an answer`)
    expect(error.message).toContain("so its score is not the model's answer")
  })
})

describe('5. request-level decoding drift', () => {
  const drifts: [string, unknown][] = [
    ['temperature', 0.9],
    ['max_tokens', 50],
    ['stop_sequences', ['###']],
    ['top_p', 0.5],
    ['num_completions', 3],
    ['echo_prompt', true]
  ]
  const cases = PAIRS.flatMap(pair => SIDES.flatMap(side => drifts.map(([field, value]) => ({ pair, side, field, value }))))
  it.each(cases)('$pair.label, $side side: every request with $field = $value', async ({ pair, side, field, value }) => {
    const dirs = fresh(pair)
    editJson<{ request_states: State[] }>(stateFile(dirs[side], pair.run), file => {
      for (const s of file.request_states) s.request[field] = value
    })
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    const error = report.errors.find(e => e.code === 'guard.decoding_drift')!
    expect(error.field).toBe(`request.${field}`)
    expect(error.value).toContain(JSON.stringify(value))
  })

  it.each(SIDES)('one request drifting on the %s side, between the sides only (stop sequences of a joint adapter)', async side => {
    const dirs = fresh(PAIRS[0])
    editJson<{ request_states: State[] }>(stateFile(dirs[side], MCQA_RUN), file => {
      file.request_states[4].request.stop_sequences = ['\n\n']
    })
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    const error = report.errors.find(e => e.code === 'guard.decoding_drift')!
    expect(error.message).toContain('different stop_sequences')
    expect(error.value).toContain(side === 'baseline' ? '"baseline":["\\n\\n"]' : '"candidate":["\\n\\n"]')
  })
})

describe('6. the same evidence on both sides', () => {
  const files = ['per_instance_stats.json', 'scenario_state.json', 'stats.json', 'run_spec.json']
  const links = ['symlink', 'hard link'] as const
  const cases = PAIRS.flatMap(pair => files.flatMap(file => links.map(link => ({ pair, file, link }))))
  it.each(cases)('$pair.label: the candidate $file is a $link to the baseline one', async ({ pair, file, link }) => {
    const dirs = fresh(pair)
    const target = join(dirs.baseline, pair.run, file)
    const path = join(dirs.candidate, pair.run, file)
    unlinkSync(path)
    if (link === 'symlink') symlinkSync(target, path)
    else linkSync(target, path)
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    expect(report.errors.find(e => e.code === 'sides.same_file')?.message).toContain(file)
  })

  it.each(PAIRS.flatMap(pair => SIDES.map(side => ({ pair, side }))))(
    "$pair.label: the $side side holds a copy of the other side's per_instance_stats.json",
    async ({ pair, side }) => {
      const dirs = fresh(pair)
      const other = side === 'baseline' ? 'candidate' : 'baseline'
      writeFileSync(statsFile(dirs[side], pair.run), readFileSync(statsFile(dirs[other], pair.run)))
      const report = await verdictOf(dirs)
      expect(report.verdict).toBe('error')
      expect(report.errors.find(e => e.code === 'sides.same_scores')?.message).toContain('scores are not the candidate')
    }
  )

  it('the same directory given twice is an error, not a warning', async () => {
    const report = await compare(BASELINE_SUITE, BASELINE_SUITE)
    expect(report.verdict).toBe('error')
    expect(errorCodes(report)).toContain('sides.same_file')
  })

  it('identical scenario_state.json content from two copies is a warning naming it', async () => {
    const report = await compare(copyToTemp(BASELINE_SUITE), copyToTemp(BASELINE_SUITE))
    const warning = report.warnings.find(w => w.code === 'sides.same_content')!
    expect(warning.file).toContain('scenario_state.json')
    expect(warning.message).toMatch(/sha256 [0-9a-f]{16}/)
  })
})

describe('7. an empty or unparsable stats.json is an incomplete run', () => {
  const contents: [string, string | null][] = [
    ['empty', ''],
    ['truncated', '[{"name": {"name": "exact_match"'],
    ['an object', '{}'],
    ['an empty list', '[]'],
    ['a list of numbers', '[1, 2]'],
    ['missing', null]
  ]
  const cases = PAIRS.flatMap(pair => SIDES.flatMap(side => contents.map(([what, text]) => ({ pair, side, what, text }))))
  it.each(cases)('$pair.label, $side side: $what', async ({ pair, side, text }) => {
    const dirs = fresh(pair)
    const file = join(dirs[side], pair.run, 'stats.json')
    if (text === null) rmSync(file)
    else writeFileSync(file, text)
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    const error = report.errors.find(e => e.code === 'input.incomplete_run')!
    expect(error.file).toBe(file)
  })
})

describe('11. deep nesting is a named error, never a stack overflow', () => {
  const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`
  const targets: [string, string, (text: string) => string][] = [
    ['run_spec.json', 'run_spec.json', text => text.replace('"args": {', `"args": {"deep": ${deep(100_000)},`)],
    [
      'per_instance_stats.json',
      'per_instance_stats.json',
      text => text.replace('"instance_id"', `"deep": ${deep(100_000)}, "instance_id"`)
    ],
    ['scenario_state.json', 'scenario_state.json', text => text.replace('"instance": {', `"instance": {"deep": ${deep(100_000)},`)],
    ['a modest 300 levels', 'run_spec.json', text => text.replace('"args": {', `"args": {"deep": ${deep(300)},`)]
  ]
  const cases = SIDES.flatMap(side => targets.map(([label, file, edit]) => ({ side, label, file, edit })))
  it.each(cases)('$side side: $label', async ({ side, file, edit }) => {
    const dirs = fresh(PAIRS[0])
    const path = join(dirs[side], MCQA_RUN, file)
    writeFileSync(path, edit(readFileSync(path, 'utf8')))
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    const error = report.errors.find(e => e.code === 'input.too_deep')!
    expect(error.file).toBe(path)
    expect(error.message).toContain('more than 256 levels deep')
  })
})

describe('robustness runs: damage to perturbed rows reaches the perturbed and worst-case comparisons', () => {
  it.each(SIDES)('a %s perturbed row of 4 is out of range even when perturbations are only reported', async side => {
    const dirs = fresh(PAIRS[1])
    setValue(dirs[side], ROBUSTNESS_RUN, 4, 5, true)
    const report = await verdictOf(dirs, { perturbations: 'report' })
    expect(report.verdict).toBe('error')
    expect(errorCodes(report)).toContain('guard.out_of_range')
  })

  it('a synthetic reasoning run (generation adapter) refuses drift against its adapter spec', async () => {
    const dirs = fresh(PAIRS[0])
    editJson<{ request_states: State[] }>(stateFile(dirs.candidate, REASONING_RUN), file => {
      for (const s of file.request_states) s.request.max_tokens = 1
    })
    const report = await verdictOf(dirs)
    expect(report.verdict).toBe('error')
    expect(report.errors.find(e => e.code === 'guard.decoding_drift')?.message).toContain('adapter spec says')
  })
})
