/**
 * The bundled action (dist/index.js, as the runner starts it) launching both deployments with the
 * real helm-run: the gate file frozen at the pull request's base commit (loopback GitHub), the
 * baseline server from a worktree of that commit, the candidate from the checked-out head. The
 * verdict follows the fixture's serving/fake.json; the evidence artifact carries both servers'
 * logs; a fork's pull request launches nothing; SIGTERM to the action mid-run stops everything.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { extractZip, listZipEntries } from '../../test-support/fake-github/zip-reader.js'
import { runAction, type ActionRun } from '../../test-support/action-harness/harness.js'
import { buildAnswerKey, helmAvailable } from '../../test-support/fake-openai/harness.js'
import { FakeGitHub } from '../../test-support/fake-github/server.js'
import { expectNothingAlive, GATE_PATH, launchFixture, processesMentioning, readManifest, type LaunchFixture } from './launch-fixture.js'

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('the bundled action launching the deployments (real helm-run)', () => {
  let key: string
  let fake: FakeGitHub
  beforeAll(async () => {
    key = await buildAnswerKey(['simple_mcqa'])
    fake = await new FakeGitHub().start()
  }, 300_000)
  afterAll(async () => {
    await fake?.stop()
  })

  function pullRequest(fixture: LaunchFixture, number: number, fork = false) {
    const repository = { id: fake.repo.id, name: fake.repo.name, full_name: `${fake.repo.owner}/${fake.repo.name}`, default_branch: 'main' }
    return {
      action: 'synchronize',
      number,
      repository,
      pull_request: {
        number,
        user: { login: 'octocat' },
        head: { sha: fixture.headSha, ref: 'pr', repo: { id: fork ? fake.repo.id + 1000 : fake.repo.id } },
        base: { sha: fixture.baseSha, ref: 'main', repo: { id: fake.repo.id } }
      }
    }
  }

  async function gate(
    fixture: LaunchFixture,
    runId: number,
    options: { fork?: boolean; sigtermWhen?: RegExp } = {}
  ): Promise<ActionRun & { outDir: string }> {
    fake.seedFile(fixture.baseSha, GATE_PATH, fixture.gateText)
    const outDir = await mkdtemp(path.join(tmpdir(), 'helm-gate-launch-action-out-'))
    let seen = ''
    const result = await runAction({
      fake,
      inputs: { config: GATE_PATH, mode: 'gate', 'output-dir': outDir },
      eventName: 'pull_request',
      payload: pullRequest(fixture, runId - 800, options.fork),
      workspace: fixture.dir,
      runId,
      sha: 'e'.repeat(40),
      ref: `refs/pull/${runId - 800}/merge`,
      env: fixture.env,
      timeoutMs: 200_000,
      onSpawn: child => {
        const pattern = options.sigtermWhen
        if (!pattern) return
        const watch = (chunk: Buffer): void => {
          seen += chunk
          if (pattern.test(seen)) {
            child.stdout?.off('data', watch)
            child.kill('SIGTERM')
          }
        }
        child.stdout?.on('data', watch)
      }
    })
    return { ...result, outDir }
  }

  it('fails a pull request whose serving config answers worse; the artifact holds both server logs', async () => {
    const fixture = await launchFixture(key, { accuracy: 1, seed: 4, startDelayMs: 200 }, { accuracy: 0.5, seed: 4, startDelayMs: 200 })
    const result = await gate(fixture, 901)
    const trace = `exit ${result.code}\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-3000)}`
    if (result.outputs.verdict !== 'fail') throw new Error(`expected verdict fail\n${trace}`)
    expect(result.code).toBe(1)
    expect(fake.violations).toEqual([])
    const report = JSON.parse(await readFile(result.outputs['report-path'], 'utf8')) as { notes: string[] }
    expect(report.notes.some(note => note.startsWith('Sequential schedule'))).toBe(true)

    const [evidence] = fake.uploadedBy(901)
    const names = listZipEntries(evidence.bytes as Buffer).map(entry => entry.name)
    expect(names).toEqual(expect.arrayContaining(['logs/baseline-server.log', 'logs/candidate-server.log', 'manifest.json']))
    const unpacked = await mkdtemp(path.join(tmpdir(), 'helm-gate-launch-artifact-'))
    await extractZip(evidence.bytes as Buffer, unpacked)
    expect(await readFile(path.join(unpacked, 'logs/baseline-server.log'), 'utf8')).toMatch(/serving from .*helm-gate-base-/)
    const manifest = await readManifest(unpacked)
    expect(manifest?.launch?.base_commit).toBe(fixture.baseSha)
    await expectNothingAlive(fixture, manifest)
  }, 240_000)

  it('launches nothing for a fork pull request unless allow-fork-launch is true', async () => {
    const fixture = await launchFixture(key, { accuracy: 1 }, { accuracy: 1 })
    const result = await gate(fixture, 902, { fork: true })
    expect(result.outputs.verdict).toBe('error')
    expect(result.code).toBe(1)
    const report = JSON.parse(await readFile(result.outputs['report-path'], 'utf8')) as { errors: { code: string; message: string }[] }
    expect(report.errors.map(e => e.code)).toEqual(['launch.fork_refused'])
    expect(report.errors[0].message).toContain('comes from a fork')
    expect(existsSync(path.join(result.outDir, 'evidence', 'logs', 'baseline-server.log'))).toBe(false)
    expect(existsSync(path.join(fixture.pidDir, 'baseline.pid'))).toBe(false)
    expect(existsSync(path.join(fixture.pidDir, 'candidate.pid'))).toBe(false)
  }, 120_000)

  it('SIGTERM to the action mid-run (a cancelled job) stops the server and helm-run; the logs and a cancelled report are uploaded', async () => {
    const fixture = await launchFixture(key, { accuracy: 1, latencyMs: 200 }, { accuracy: 1 })
    const result = await gate(fixture, 903, { sigtermWhen: /\[baseline\] (run 1\/1|\d+ requests done)/ })
    expect(result.code).toBe(143)
    expect(result.stderr).toContain('SIGTERM received; stopping')
    // The evidence artifact, uploaded after the groups were stopped: the server's log up to its
    // stop, helm-run's log, and an error report that says the run was cancelled.
    const uploads = fake.uploadedBy(903)
    expect(uploads.length).toBe(1)
    const unpacked = await mkdtemp(path.join(tmpdir(), 'helm-gate-launch-cancelled-'))
    await extractZip(uploads[0].bytes as Buffer, unpacked)
    const uploadedLog = await readFile(path.join(unpacked, 'logs', 'baseline-server.log'), 'utf8')
    expect(uploadedLog).toContain('fake-openai listening')
    expect(uploadedLog).toContain('baseline server stopped')
    expect(await readFile(path.join(unpacked, 'logs', 'baseline.log'), 'utf8')).not.toBe('')
    const cancelled = JSON.parse(await readFile(path.join(unpacked, 'report.json'), 'utf8')) as {
      verdict: string
      errors: { code: string; message: string }[]
    }
    expect(cancelled.verdict).toBe('error')
    expect(cancelled.errors.map(e => e.code)).toEqual(['run.cancelled'])
    expect(cancelled.errors[0].message).toContain('received SIGTERM (the job was cancelled)')
    // The candidate of the sequential schedule was never launched once the job was cancelled.
    expect(existsSync(path.join(unpacked, 'logs', 'candidate-server.log'))).toBe(false)
    const logs = path.join(result.outDir, 'evidence', 'logs')
    const serverLog = await readFile(path.join(logs, 'baseline-server.log'), 'utf8')
    expect(serverLog).toContain('baseline server stopped')
    const leaders = [...serverLog.matchAll(/process group (\d+)/g)].map(m => Number(m[1]))
    expect(leaders.length).toBeGreaterThan(0)
    const { groupAlive, processAlive } = await import('../../src/process/registry.js')
    for (const pgid of leaders) expect(groupAlive(pgid)).toBe(false)
    expect(processAlive(Number((await readFile(path.join(fixture.pidDir, 'baseline.pid'), 'utf8')).trim()))).toBe(false)
    expect(processesMentioning(result.outDir)).toEqual([])
    expect(processesMentioning(fixture.dir)).toEqual([])
  }, 240_000)
})
