/**
 * The shipped command line (dist/cli.js, as `npx helm-gate` runs it) with the real pinned
 * helm-run against fake OpenAI servers on loopback: exit status, report.json verdict and the
 * evidence left in --out. gate-verdicts.test.ts covers the same cases through runCommand();
 * this proves the bundle itself (plugin lookup from dist/, argv, process exit code).
 */
import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { freshDir, type GateSpec, useFakeServers, writeGateFile } from './gate-fixture.js'
import { processesMentioning } from './launch-fixture.js'

// The same entries as gate-verdicts.test.ts, so both files share one cached answer key.
const ENTRIES = ['simple_mcqa', 'dyck_language:num_parenthesis_pairs=3']
const DYCK = 'dyck_language:num_parenthesis_pairs=3'
const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const describeHelm = helmAvailable() ? describe : describe.skip

interface CliRun {
  code: number | null
  stdout: string
  stderr: string
  outDir: string
  report: Report
}

describeHelm('dist/cli.js run end to end (real helm-run, fake servers)', () => {
  const server = useFakeServers(ENTRIES)

  async function bundledRun(spec: GateSpec, extra: string[] = []): Promise<CliRun> {
    const dir = await freshDir('cli')
    const config = await writeGateFile(dir, spec)
    const outDir = join(dir, 'out')
    const finished = await run(process.execPath, [CLI, 'run', '--config', config, '--out', outDir, ...extra], {
      cwd: dir,
      timeoutMs: 150_000
    })
    let report: Report
    try {
      report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
    } catch (error) {
      throw new Error(
        `no report.json (exit ${finished.code}): ${(error as Error).message}\n--- stdout\n${finished.stdout}\n--- stderr\n${finished.stderr}`,
        { cause: error }
      )
    }
    return { ...finished, outDir, report }
  }

  it('exits 0 with a pass verdict for an equivalent candidate and keeps the run directories and logs', async () => {
    const baseline = await server({ accuracy: 0.9, seed: 11 })
    const candidate = await server({ accuracy: 0.9, seed: 11 })
    const result = await bundledRun({
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      runs: [{ entry: DYCK, metric: 'exact_match_indicator', max_drop: 0.05 }],
      maxEvalInstances: 60,
      // With no discordant pair the score intervals stay wider than 0.05 at n = 60; the
      // bootstrap's is [0, 0], which keeps the budget (and the test) small.
      statistics: { interval: 'bootstrap' }
    })
    expect(result.report.verdict).toBe('pass')
    expect(result.code).toBe(0)
    const [comparison] = result.report.comparisons
    expect(comparison.n).toBe(60)
    expect(comparison.wins + comparison.losses).toBe(0)
    expect((await baseline.state()).counters.chat).toBe(60)
    expect((await candidate.state()).counters.chat).toBe(60)

    expect(await readdir(result.outDir)).toEqual(
      expect.arrayContaining(['baseline', 'candidate', 'logs', 'report.json', 'report.md', 'manifest.json'])
    )
    expect((await readdir(join(result.outDir, 'logs'))).sort()).toEqual(['baseline.log', 'candidate.log'])
    const manifest = JSON.parse(await readFile(join(result.outDir, 'manifest.json'), 'utf8'))
    for (const side of ['baseline', 'candidate'] as const) {
      const described = manifest.sides[side]
      expect(described.complete).toBe(true)
      const runDirs = await readdir(join(result.outDir, described.output_path, 'runs', described.suite))
      const runDir = runDirs.find(name => name.startsWith('dyck_language'))
      expect(runDir).toBeDefined()
      expect(await readdir(join(result.outDir, described.output_path, 'runs', described.suite, runDir as string))).toEqual(
        expect.arrayContaining(['run_spec.json', 'scenario_state.json', 'per_instance_stats.json', 'stats.json'])
      )
    }
    // The console report goes to stdout, the progress lines to stderr.
    expect(result.stdout).toMatch(/pass/i)
    expect(result.stderr).toContain('[candidate] server ready')
  }, 180_000)

  it('exits 1 with a fail verdict for a candidate that loses about 15% of the answers (--json -: the report on stdout)', async () => {
    const baseline = await server({ accuracy: 1, seed: 4 })
    const candidate = await server({ accuracy: 0.85, seed: 4 })
    const result = await bundledRun(
      {
        baseline: { baseUrl: baseline.baseUrl },
        candidate: { baseUrl: candidate.baseUrl, api: 'completions' },
        runs: [{ entry: DYCK, metric: 'exact_match_indicator', max_drop: 0.05 }],
        maxEvalInstances: 100
      },
      ['--json', '-']
    )
    // Standard output is the JSON report alone (the folder's copy); the summary is on stderr.
    expect(JSON.parse(result.stdout)).toEqual(result.report)
    expect(result.stderr).toContain('run directories, logs (logs/)')
    const [comparison] = result.report.comparisons
    expect(comparison.baseline_mean).toBe(1)
    expect(comparison.wins).toBe(0)
    expect(comparison.losses).toBe((await candidate.state()).counters.wrong)
    expect(comparison.losses).toBeGreaterThan(8)
    expect(result.report.verdict).toBe('fail')
    expect(result.code).toBe(1)
    expect((await candidate.state()).counters.completions).toBe(100)
  }, 180_000)

  it('refuses a gated metric no run spec declares before any server is asked anything (exit 2, did you mean)', async () => {
    const baseline = await server({ accuracy: 1 })
    const candidate = await server({ accuracy: 1 })
    // dyck_language writes exact_match_indicator, never exact_match.
    const result = await bundledRun({
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      runs: [{ entry: DYCK, metric: 'exact_match', max_drop: 0.05 }],
      maxEvalInstances: 10
    })
    expect(result.code).toBe(2)
    expect(result.report.verdict).toBe('error')
    expect(result.report.errors.map(e => e.code)).toEqual(['config.metric_unknown'])
    expect(result.stderr).toContain('did you mean exact_match_indicator?')
    // Nothing was spent: not even the readiness probe reached a server.
    for (const side of [baseline, candidate]) {
      const { counters } = await side.state()
      expect({ models: counters.models, chat: counters.chat, completions: counters.completions }).toEqual({
        models: 0,
        chat: 0,
        completions: 0
      })
    }
  }, 120_000)

  it('Ctrl-C (SIGINT) mid-run stops both helm-runs and leaves a cancelled report in --out, exit 130', async () => {
    // Slow answers keep helm-run busy long enough to be interrupted in the middle.
    const baseline = await server({ accuracy: 1, latencyMs: 300 })
    const candidate = await server({ accuracy: 1, latencyMs: 300 })
    const dir = await freshDir('cli-cancel')
    const config = await writeGateFile(dir, {
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl },
      runs: [{ entry: DYCK, metric: 'exact_match_indicator', max_drop: 0.05 }],
      maxEvalInstances: 60
    })
    const outDir = join(dir, 'out')
    const child = spawn(process.execPath, [CLI, 'run', '--config', config, '--out', outDir], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)))
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`helm-run never sent a request\n${stderr}`)), 120_000)
      child.stderr.on('data', chunk => {
        stderr += chunk
        if (/\[baseline\] (\d+ requests done|run 1\/1)/.test(stderr)) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
    child.kill('SIGINT')
    expect(await exited).toBe(130)
    expect(stderr).toContain('SIGINT received; stopping')
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
    expect(report.verdict).toBe('error')
    expect(report.comparisons).toEqual([])
    expect(report.errors.map(e => e.code)).toEqual(['run.cancelled'])
    expect(report.errors[0].message).toContain(`received SIGINT before the gate finished`)
    expect(await readFile(join(outDir, 'report.md'), 'utf8')).toContain('Cancelled: helm-gate received SIGINT')
    expect(await readFile(join(outDir, 'report.html'), 'utf8')).toContain('run.cancelled')
    expect(stderr).toContain(`cancelled; ${join(outDir, 'report.json')} says so`)
    // helm-run's logs are kept and no helm-run survived: the servers stop receiving requests.
    expect(await readFile(join(outDir, 'logs', 'baseline.log'), 'utf8')).not.toBe('')
    expect(processesMentioning(outDir)).toEqual([])
    const after = (await baseline.state()).counters.chat
    await new Promise(resolve => setTimeout(resolve, 1_500))
    expect((await baseline.state()).counters.chat).toBe(after)
    expect(after).toBeLessThan(60)
  }, 180_000)
})
