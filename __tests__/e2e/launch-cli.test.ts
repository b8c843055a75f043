/**
 * `helm-gate run` (dist/cli.js) launching both deployments itself, with the real helm-run: the
 * baseline from a worktree of the base commit, the candidate from the checked-out pull-request
 * head, one after the other on the same port. The verdict follows serving/fake.json; whatever
 * happens (a server that dies before it is ready, one that never gets ready, a failed side, a
 * SIGTERM to helm-gate) no process of the launched groups survives and the server logs are kept.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { buildAnswerKey, helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run, type Finished } from '../support/spawn.js'
import { expectNothingAlive, processesMentioning, GATE_PATH, launchFixture, readManifest, type LaunchFixture } from './launch-fixture.js'

const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('helm-gate run with launched deployments (real helm-run)', () => {
  let key: string
  beforeAll(async () => {
    key = await buildAnswerKey(['simple_mcqa'])
  }, 300_000)

  async function gate(fixture: LaunchFixture): Promise<Finished & { outDir: string; report: Report | null }> {
    const outDir = join(fixture.dir, '..', `${fixture.dir.split('/').pop()}-out`)
    const finished = await run(process.execPath, [CLI, 'run', '--config', GATE_PATH, '--out', outDir, '--baseline-ref', fixture.baseSha], {
      cwd: fixture.dir,
      env: { ...process.env, ...fixture.env },
      timeoutMs: 200_000
    })
    let report: Report | null = null
    try {
      report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
    } catch {
      // asserted by the caller
    }
    return { ...finished, outDir, report }
  }

  it('fails a pull request whose serving config answers worse; the two servers never overlap', async () => {
    const fixture = await launchFixture(key, { accuracy: 1, seed: 3, startDelayMs: 300 }, { accuracy: 0.5, seed: 3, startDelayMs: 300 })
    const result = await gate(fixture)
    const trace = `exit ${result.code}\n${result.stderr}`
    expect({ verdict: result.report?.verdict, code: result.code }).toEqual({ verdict: 'fail', code: 1 })
    const manifest = await readManifest(result.outDir)
    expect(manifest?.schedule).toBe('sequential')
    const launch = manifest?.launch
    if (!launch) throw new Error(`no launch record\n${trace}`)
    expect(launch.interleaving_possible).toBe(false)
    expect(launch.base_commit).toBe(fixture.baseSha)
    const baseline = launch.sides.baseline!
    const candidate = launch.sides.candidate!
    expect(baseline.commit).toBe(fixture.baseSha)
    expect(candidate.commit).toBeNull()
    // Lifetimes: the baseline was stopped (its whole group gone) before the candidate started.
    const t = (s: string | null | undefined): number => Date.parse(s as string)
    expect(t(baseline.started_at)).toBeLessThan(t(baseline.ready_at))
    expect(t(baseline.ready_at)).toBeLessThanOrEqual(t(manifest.sides.baseline!.started_at))
    expect(t(manifest.sides.baseline!.ended_at)).toBeLessThanOrEqual(t(baseline.stop!.requested_at))
    expect(t(baseline.stop!.stopped_at)).toBeLessThanOrEqual(t(candidate.started_at))
    expect(t(candidate.ready_at)).toBeLessThanOrEqual(t(manifest.sides.candidate!.started_at))
    expect(t(manifest.sides.candidate!.ended_at)).toBeLessThanOrEqual(t(candidate.stop!.requested_at))
    // Each side answered from its own tree.
    const baseLog = await readFile(join(result.outDir, baseline.log_file), 'utf8')
    const headLog = await readFile(join(result.outDir, candidate.log_file), 'utf8')
    expect(baseLog).toMatch(/serving from .*helm-gate-base-/)
    expect(headLog).toContain(`serving from ${fixture.dir}`)
    expect(result.report?.notes.some(note => note.startsWith('Sequential schedule'))).toBe(true)
    expect(result.report?.comparisons[0].losses).toBeGreaterThan(5)
    expect((await expectNothingAlive(fixture, manifest)).length).toBe(4)
  }, 240_000)

  it('passes a pull request whose serving config answers the same', async () => {
    const fixture = await launchFixture(key, { accuracy: 1, seed: 3 }, { accuracy: 1, seed: 3, latencyMs: 1 })
    const result = await gate(fixture)
    expect({ verdict: result.report?.verdict, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
      verdict: 'pass',
      code: 0,
      stderr: ''
    })
    await expectNothingAlive(fixture, await readManifest(result.outDir))
  }, 240_000)

  it('a baseline server that dies before it is ready: an error quoting its log, nothing else launched', async () => {
    const fixture = await launchFixture(key, { startDelayMs: 100, failStart: 'engine crashed while loading (simulated)' }, { accuracy: 1 })
    const result = await gate(fixture)
    expect(result.code).toBe(2)
    expect(result.report?.verdict).toBe('error')
    const error = result.report?.errors.find(e => e.code === 'launch.exited_before_ready')
    expect(error?.message).toContain('engine crashed while loading (simulated)')
    const manifest = await readManifest(result.outDir)
    expect(manifest?.launch?.sides.candidate?.pid).toBeNull() // the schedule stopped there
    expect(await readFile(join(result.outDir, 'logs', 'baseline-server.log'), 'utf8')).toContain('engine crashed')
    await expectNothingAlive(fixture, manifest)
  }, 120_000)

  it('a candidate server that is not ready in time is stopped with the baseline (concurrent schedule)', async () => {
    const fixture = await launchFixture(
      key,
      { accuracy: 1 },
      { startDelayMs: 60_000 },
      { schedule: 'concurrent', candidateReadyTimeoutSeconds: 1 }
    )
    const result = await gate(fixture)
    if (!result.report) throw new Error(`no report.json (exit ${result.code})\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`)
    expect(result.code).toBe(2)
    expect(result.report?.errors.map(e => e.code)).toContain('launch.ready_timeout')
    const manifest = await readManifest(result.outDir)
    expect(manifest?.schedule).toBe('concurrent')
    expect(manifest?.launch?.sides.baseline?.stop?.stopped_at).toBeTruthy()
    expect(manifest?.launch?.sides.candidate?.stop?.stopped_at).toBeTruthy()
    expect(await readFile(join(result.outDir, 'logs', 'candidate-server.log'), 'utf8')).toContain('start delay 60000 ms')
    await expectNothingAlive(fixture, manifest)
  }, 120_000)

  it('something already answering at the candidate address: refused, the baseline stopped, the error in report.json and said once', async () => {
    const fixture = await launchFixture(key, { accuracy: 1 }, { accuracy: 1 }, { schedule: 'concurrent' })
    const port = Number([...fixture.gateText.matchAll(/127\.0\.0\.1:(\d+)\/v1/g)][1][1])
    const squatter = createServer((_req, res) => res.end('{}'))
    await new Promise<void>(resolve => squatter.listen(port, '127.0.0.1', resolve))
    try {
      const result = await gate(fixture)
      expect(result.code).toBe(2)
      if (!result.report)
        throw new Error(`no report.json (exit ${result.code})\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`)
      expect(result.report.verdict).toBe('error')
      expect(result.report.errors.map(e => e.code)).toContain('launch.address_in_use')
      expect(await readFile(join(result.outDir, 'report.md'), 'utf8')).toContain('already answers at')
      // Said once, in the summary.
      expect(`${result.stdout}${result.stderr}`.split('already answers at').length - 1).toBe(1)
      await expectNothingAlive(fixture, await readManifest(result.outDir))
    } finally {
      await new Promise(resolve => squatter.close(resolve))
    }
  }, 120_000)

  it('a side whose server dies mid-run fails; both servers are stopped and their logs kept', async () => {
    const fixture = await launchFixture(
      key,
      { accuracy: 1 },
      { accuracy: 1, dieAfter: 5 },
      { schedule: 'concurrent', maxEvalInstances: 20 }
    )
    const result = await gate(fixture)
    expect(result.code).toBe(2)
    expect(result.report?.errors.some(e => e.message.startsWith('candidate'))).toBe(true)
    // The server's death is the cause, named first with its exit status and log; helm-run's
    // refused connection follows (issue 28). The start script's bare `wait` exits 0 when the
    // server under it dies: exiting at all while in use is the death.
    const candidateErrors = result.report?.errors.filter(e => e.message.startsWith('candidate')) ?? []
    expect(candidateErrors[0]?.code).toBe('launch.server_died')
    expect(candidateErrors[0]?.message).toMatch(
      /^candidate server exited with status 0 while the candidate side was measured; last lines of logs\/candidate-server\.log:/
    )
    expect(candidateErrors[1]?.code).toBe('runner.exit')
    const manifest = await readManifest(result.outDir)
    expect(manifest?.sides.candidate?.complete).toBe(false)
    expect(manifest?.sides.baseline?.complete).toBe(true)
    expect(await readFile(join(result.outDir, 'logs', 'candidate-server.log'), 'utf8')).toContain('fake-openai listening')
    await expectNothingAlive(fixture, manifest)
  }, 200_000)

  it('SIGTERM to helm-gate mid-run stops the launched server and helm-run, keeping the logs and writing a cancelled report', async () => {
    const fixture = await launchFixture(key, { accuracy: 1, latencyMs: 200 }, { accuracy: 1 })
    const outDir = join(fixture.dir, '..', `${fixture.dir.split('/').pop()}-out`)
    const child = spawn(process.execPath, [CLI, 'run', '--config', GATE_PATH, '--out', outDir, '--baseline-ref', fixture.baseSha], {
      cwd: fixture.dir,
      env: { ...process.env, ...fixture.env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)))
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`helm-run never started\n${stderr}`)), 90_000)
      child.stderr.on('data', chunk => {
        stderr += chunk
        if (/\[baseline\] \d+ requests done|\[baseline\] run 1\/1/.test(stderr)) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
    child.kill('SIGTERM')
    const code = await exited
    expect(code).toBe(143)
    expect(stderr).toContain('SIGTERM received; stopping')
    // The output folder says it was cancelled (src/cli/unfinished-report.ts), after the groups were stopped.
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as { verdict: string; errors: { code: string }[] }
    expect(report.verdict).toBe('error')
    expect(report.errors.map(e => e.code)).toEqual(['run.cancelled'])
    const log = await readFile(join(outDir, 'logs', 'baseline-server.log'), 'utf8')
    expect(log).toContain('fake-openai listening')
    expect(log).toContain('baseline server stopped')
    // No manifest (the run was cut short): the leader's pid is the server log's first spawn.
    const baselinePid = Number((await readFile(join(fixture.pidDir, 'baseline.pid'), 'utf8')).trim())
    const leaders = [...log.matchAll(/process group (\d+)/g)].map(m => Number(m[1]))
    expect(leaders.length).toBeGreaterThan(0)
    const { groupAlive, processAlive } = await import('../../src/process/registry.js')
    for (const pgid of leaders) expect(groupAlive(pgid)).toBe(false)
    expect(processAlive(baselinePid)).toBe(false)
    // helm-run's log is kept too; its process group was killed with the rest.
    expect(await readFile(join(outDir, 'logs', 'baseline.log'), 'utf8')).not.toBe('')
    expect(processesMentioning(outDir)).toEqual([])
    expect(processesMentioning(fixture.pidDir)).toEqual([])
  }, 200_000)
})
