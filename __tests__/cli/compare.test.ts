/**
 * The bundled CLI (dist/cli.js) spawned as a user runs it: exit codes, files written, and one
 * clear message (never a stack trace) for every kind of bad input.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compareOutputs } from '../../src/gate/compare.js'
import { renderJson } from '../../src/report/json.js'
import { cliConfig } from '../gate/compare-helpers.js'
import {
  ALTERED_SUITE,
  BASELINE_SUITE,
  FLEX_BASELINE_SUITE,
  FLEX_DEGRADED_SUITE,
  FLEX_EQUIVALENT_SUITE,
  REASONING_RUN
} from '../helm/read/fixtures.js'
import { copyToTemp } from '../support/fixture-copy.js'
import { run } from '../support/spawn.js'

// The same files on both sides are refused (sides.same_file): the candidate reads a copy.
const BASELINE_COPY = copyToTemp(BASELINE_SUITE)

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))
const helmGate = (...args: string[]) => run(process.execPath, [CLI, ...args])
const tmp = () => mkdtempSync(join(tmpdir(), 'helm-gate-cli-'))

describe('helm-gate compare (bundled CLI)', () => {
  it('takes its efficiency and answer-length intervals from worker threads, equal to the in-process figures', async () => {
    // dist/cli.js has dist/ratio-worker.js beside it and computes them there; the sources have
    // no worker file and compute them in process.
    const dir = tmp()
    const r = await helmGate(
      'compare',
      BASELINE_SUITE,
      ALTERED_SUITE,
      '--metric',
      'exact_match',
      '--max-drop',
      '0.5',
      '--json',
      join(dir, 'r.json')
    )
    expect(r.stderr).toBe('')
    const bundled = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))
    const defaults = {
      metric: 'exact_match',
      split: null,
      maxDrop: 0.5,
      maxRelativeDrop: null,
      direction: 'higher',
      perturbations: 'report'
    } as const
    const inProcess = JSON.parse(renderJson(await compareOutputs(BASELINE_SUITE, ALTERED_SUITE, cliConfig(10_000), { defaults })))
    expect(bundled.efficiency.length).toBeGreaterThan(0)
    expect(bundled.efficiency).toEqual(inProcess.efficiency)
    // The answer-length intervals come from the other statistics worker.
    expect(bundled.answer_lengths.length).toBeGreaterThan(0)
    expect(bundled.answer_lengths).toEqual(inProcess.answer_lengths)
  })

  it('exits 0 on pass and writes JSON and markdown', async () => {
    const dir = tmp()
    const r = await helmGate(
      'compare',
      BASELINE_SUITE,
      BASELINE_COPY,
      '--metric',
      'exact_match',
      '--max-drop',
      '0.5',
      '--json',
      join(dir, 'r.json'),
      '--markdown',
      join(dir, 'r.md')
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Overall: PASS/i)
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))
    expect(report.verdict).toBe('pass')
    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toMatch(/Pass/)
  })

  it('--html writes report.html with every changed answer, report.json keeps the first ones', async () => {
    const dir = tmp()
    const r = await helmGate(
      'compare',
      BASELINE_SUITE,
      ALTERED_SUITE,
      '--metric',
      'exact_match',
      '--max-drop',
      '0.05',
      '--examples',
      '1',
      '--quiet',
      '--json',
      join(dir, 'r.json'),
      '--html',
      join(dir, 'r.html')
    )
    expect(r.stderr).toBe('')
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))
    const html = readFileSync(join(dir, 'r.html'), 'utf8')
    const block = /<script type="application\/json" id="helm-gate-data">([^<]*)<\/script>/.exec(html)
    expect(block).not.toBeNull()
    const data = JSON.parse(block![1])
    expect(data.report.verdict).toBe(report.verdict)
    for (const c of report.comparisons) {
      expect(c.examples.length).toBeLessThanOrEqual(1)
      if (c.perturbation !== 'worst') expect(data.changed[c.id]).toHaveLength(c.wins + c.losses)
    }
    expect(html).toContain("script-src 'sha256-")
  })

  it('exits 1 on a regression and 1 on an inconclusive result', async () => {
    const fail = await helmGate('compare', ALTERED_SUITE, BASELINE_SUITE, '--metric', 'exact_match', '--max-drop', '0.05', '--quiet')
    expect(fail.code).toBe(1)
    expect(fail.stdout).toBe('')
    const inconclusive = await helmGate('compare', BASELINE_SUITE, BASELINE_COPY, '--metric', 'exact_match', '--max-drop', '0.01')
    expect(inconclusive.code).toBe(1)
    expect(inconclusive.stdout).toMatch(/inconclusive/i)
  })

  it('exits 2 on a failed guard and still writes the error report', async () => {
    const dir = tmp()
    const r = await helmGate(
      'compare',
      BASELINE_SUITE,
      BASELINE_COPY,
      '--metric',
      'no_such_metric',
      '--max-drop',
      '0.1',
      '--json',
      join(dir, 'r.json')
    )
    expect(r.code).toBe(2)
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))
    expect(report.verdict).toBe('error')
    expect(report.errors[0].code).toBe('guard.metric_missing')
    // --quiet drops the summary, never the reason for an exit status of 2.
    const quiet = await helmGate('compare', BASELINE_SUITE, BASELINE_COPY, '--metric', 'no_such_metric', '--max-drop', '0.1', '--quiet')
    expect(quiet.code).toBe(2)
    expect(quiet.stdout).toBe('')
    expect(quiet.stderr).toMatch(/^helm-gate: error: .*\[guard\.metric_missing\]$/m)
  })

  const empty = tmp()
  mkdirSync(join(empty, 'runs', 'suite', 'broken_run'), { recursive: true })
  const badGate = join(tmp(), 'gate.yml')
  writeFileSync(badGate, 'runs:\n  - entry: simple_mcqa\n    metric: exact_match\n    max_dorp: 0.1\n')

  it.each([
    ['no paths', ['compare'], /needs <baseline> and <candidate>/],
    ['an unknown option', ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '1', '--fast'], /unknown option --fast/],
    ['a non-numeric drop', ['compare', 'a', 'b', '--metric', 'm', '--max-drop', 'abc'], /--max-drop must be a number >= 0.*abc/],
    ['no tolerated drop', ['compare', 'a', 'b', '--metric', 'm'], /tolerated drop/],
    ['both drops', ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '0.1', '--max-relative-drop', '0.1'], /not both/],
    [
      'an impossible confidence',
      ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '0.1', '--confidence', '95'],
      /--confidence must be a level/
    ],
    ['an unknown interval', ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '0.1', '--interval', 'wald'], /--interval must be/],
    ['too few resamples', ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '0.1', '--resamples', '5'], /--resamples/],
    [
      'a missing gate file',
      ['compare', 'a', 'b', '--config', '/nonexistent/gate.yml'],
      /cannot read the gate file.*\/nonexistent\/gate.yml/
    ],
    ['a gate file with a typo', ['compare', 'a', 'b', '--config', badGate], /unknown key runs\[0\]\.max_dorp/],
    ['--metric with --config', ['compare', 'a', 'b', '--config', badGate, '--metric', 'x'], /cannot be combined with --config/],
    ['an unknown command', ['comapre'], /unknown command "comapre"/]
  ])('exits 2 with one clear message for %s', async (_what, args, message) => {
    const r = await helmGate(...(args as string[]))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message as RegExp)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it.each([
    ['a path that does not exist', '/nonexistent/benchmark_output', /input.not_found|does not exist/],
    ['an empty run directory', empty, /no run_spec\.json/]
  ])('exits 2 for %s, naming it', async (_what, path, message) => {
    const r = await helmGate('compare', BASELINE_SUITE, path as string, '--metric', 'exact_match', '--max-drop', '0.1')
    expect(r.code).toBe(2)
    expect(r.stdout + r.stderr).toMatch(message as RegExp)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('prints usage with --help and the version with --version', async () => {
    expect((await helmGate('--help')).stdout).toMatch(/^ {2}compare {3}/m)
    expect((await helmGate('compare', '--help')).stdout).toMatch(/^usage: helm-gate compare <baseline> <candidate>/)
    expect((await helmGate('--version')).stdout.trim()).toBe(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version
    )
  })
  it('compares real crfm-helm 0.2.1 runs (FlexLLMGen layout): 0 for the equivalent, 1 for the degraded, 2 against 0.5.16', async () => {
    const args = ['--metric', 'exact_match', '--split', 'test', '--max-drop', '0.1']
    const equivalent = await helmGate('compare', FLEX_BASELINE_SUITE, FLEX_EQUIVALENT_SUITE, ...args)
    expect(equivalent.code).toBe(0)
    expect(equivalent.stdout).toContain('helm_0_2.cache_unverified')
    const degraded = await helmGate('compare', FLEX_BASELINE_SUITE, FLEX_DEGRADED_SUITE, ...args)
    expect(degraded.code).toBe(1)
    expect(degraded.stdout).toMatch(/Overall: FAIL/)
    const drift = await helmGate('compare', join(BASELINE_SUITE, REASONING_RUN), FLEX_EQUIVALENT_SUITE, ...args)
    expect(drift.code).toBe(2)
    expect(drift.stdout + drift.stderr).toContain('guard.helm_version_drift')
  })
})
