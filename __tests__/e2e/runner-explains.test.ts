/**
 * The runner explains itself (real helm-run, fake servers): report files where asked, one error
 * per cause with the decisive log line, progress while a server is down, and `plan` counting the
 * instances each comparison will have with a helm-run dry run.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { planCommand } from '../../src/cli/commands/plan.js'
import { runCommand } from '../../src/cli/commands/run.js'
import type { CliIo } from '../../src/cli/io.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable } from '../../test-support/fake-openai/harness.js'
import { freshDir, type GateSpec, useFakeServers, writeGateFile } from './gate-fixture.js'

const ENTRIES = ['simple_mcqa']
const describeHelm = helmAvailable() ? describe : describe.skip

interface CliRun {
  code: number
  stdout: string
  stderr: string
  dir: string
  out: string
}

async function cli(command: typeof runCommand, spec: GateSpec, args: string[]): Promise<CliRun> {
  const dir = await freshDir('explains')
  const config = await writeGateFile(dir, spec)
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: s => (stdout += s), stderr: s => (stderr += s), env: process.env, cwd: dir }
  const code = await command(['--config', config, ...args], io)
  return { code, stdout, stderr, dir, out: join(dir, 'out') }
}

const report = async (file: string): Promise<Report> => JSON.parse(await readFile(file, 'utf8')) as Report

describeHelm('the runner explains itself', () => {
  const server = useFakeServers(ENTRIES)

  it('run --json FILE and --markdown FILE write the same report as the output folder', async () => {
    const baseline = await server({ accuracy: 1 })
    const candidate = await server({ accuracy: 1 })
    const spec: GateSpec = {
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: candidate.baseUrl, api: 'completions' },
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.5 }],
      maxEvalInstances: 10
    }
    const result = await cli(runCommand, spec, ['--out', 'out', '--json', 'r/report.json', '--markdown', 'comment.md', '--quiet'])
    expect(result.code).toBe(0)
    expect(await readFile(join(result.dir, 'r/report.json'), 'utf8')).toBe(await readFile(join(result.out, 'report.json'), 'utf8'))
    expect(await readFile(join(result.dir, 'comment.md'), 'utf8')).toBe(await readFile(join(result.out, 'report.md'), 'utf8'))
    expect((await report(join(result.dir, 'r/report.json'))).verdict).toBe('pass')
  }, 180_000)

  it('a candidate down from the start: one error naming it, progress every 10 s, the baseline not blamed', async () => {
    const baseline = await server()
    const spec: GateSpec = {
      baseline: { baseUrl: baseline.baseUrl },
      candidate: { baseUrl: 'http://127.0.0.1:9/v1' },
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
      maxEvalInstances: 10
    }
    const result = await cli(runCommand, spec, ['--out', 'out', '--ready-timeout', '11'])
    expect(result.code).toBe(2)
    const written = await report(join(result.out, 'report.json'))
    expect(written.errors.map(e => e.code)).toEqual(['server.not_ready'])
    // Not ready after at least the 10 s of the progress line below; a busy machine only adds to it.
    const after = /^candidate server at http:\/\/127\.0\.0\.1:9\/v1\/models was not ready after (\d+) s/.exec(written.errors[0].message)
    expect(after).not.toBeNull()
    expect(Number(after![1])).toBeGreaterThanOrEqual(10)
    expect(written.errors[0].message).toMatch(/ECONNREFUSED.*the readiness timeout is 11 s \(run --ready-timeout SEC\)/)
    const progress = result.stderr.split('\n').filter(line => line.includes('waiting up to'))
    expect(progress).toEqual([
      expect.stringMatching(/^candidate server at .* not ready after 10 s \(.*ECONNREFUSED.*\); waiting up to 11 s$/)
    ])
    expect((await baseline.state()).counters.chat).toBe(0)
    // Printed once, in the summary at the end: not also as it happened.
    expect(`${result.stderr}${result.stdout}`.split('was not ready after 1').length - 1).toBe(1)
  }, 60_000)

  it('a server that dies mid-run: one error for that side, quoting the refused connection from its log', async () => {
    const baseline = await server({ accuracy: 1 })
    const candidate = await server({ accuracy: 1, dieAfter: 4 })
    const result = await cli(
      runCommand,
      {
        baseline: { baseUrl: baseline.baseUrl },
        candidate: { baseUrl: candidate.baseUrl, requestTimeoutSeconds: 3 },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
        maxEvalInstances: 20
      },
      ['--out', 'out', '--quiet']
    )
    expect(result.code).toBe(2)
    const written = await report(join(result.out, 'report.json'))
    expect(written.errors).toHaveLength(1)
    const [error] = written.errors
    expect(error.code).toBe('runner.exit')
    expect(error.message).toMatch(/^candidate: helm-run exited with 1; failed runs: simple_mcqa/)
    expect(error.message).toMatch(/; logs\/candidate\.log line \d+: \S*ConnectError: \[Errno 111\] Connection refused; /)
    expect(error.message).toMatch(/so 1 entry has no complete run: simple_mcqa$/)
    // The quoted line is really there.
    const log = (await readFile(join(result.out, 'logs/candidate.log'), 'utf8')).split('\n')
    const line = Number(/candidate\.log line (\d+)/.exec(error.message)?.[1])
    expect(log[line - 1]).toContain('Connection refused')
    // --quiet prints nothing but errors, and the error once.
    expect(result.stdout).toBe('')
    expect(result.stderr.split('helm-run exited with 1').length - 1).toBe(1)
    expect(result.stderr).toContain('[runner.exit]')
  }, 180_000)

  it('plan counts the instances of each comparison with a dry run and warns when n cannot resolve the margin', async () => {
    const result = await cli(
      planCommand,
      {
        baseline: { baseUrl: 'http://127.0.0.1:9/v1' },
        candidate: { baseUrl: 'http://127.0.0.1:9/v1', api: 'completions' },
        runs: [
          { entry: 'synthetic_reasoning:mode=pattern_match', metric: 'quasi_exact_match', max_drop: 0.1 },
          { entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.02 }
        ],
        maxEvalInstances: 200
      },
      []
    )
    expect(result.code).toBe(0)
    // HELM draws 200 from valid and test together: 99 land in test.
    expect(result.stdout).toMatch(
      /# {3}synthetic_reasoning:mode=pattern_match quasi_exact_match: n = 99 \(split test\); resolves max_drop 0\.1 while at most about 26% of answers change/
    )
    // simple_mcqa has 79 test instances in all, far too few for a 0.02 margin.
    expect(result.stdout).toMatch(
      /# WARNING simple_mcqa exact_match: n = 79 \(split test\) cannot resolve max_drop 0\.02: even with no changed answer the 95% interval reaches -0\.0464.*about \d+ instances needed \(the scenario has only 79 evaluation instances/
    )
    expect(result.stdout).toMatch(/# {3}baseline: GET \S+\/models must list \S+ within 120 s \(run --ready-timeout SEC;/)
  }, 180_000)
})
