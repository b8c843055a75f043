/**
 * A cancelled `helm-gate` (the bundled dist/cli.js, real signals) leaves nothing behind: at every
 * point (while a launched server gets ready, during the load half, during helm-run, with a
 * baseline launched from a worktree of the base commit, after a second signal) the temporary
 * folder (each side's prod_env with credentials.conf) and the worktree are gone, `git worktree
 * list` shows the checkout alone, and the output folder holds the cancelled report.
 * Each test runs helm-gate with its own TMPDIR, so "nothing left" is an empty folder.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { constants, tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { ENGINE_SCRIPT } from '../../test-support/fake-engine/harness.js'
import { buildAnswerKey, helmAvailable, HELM_RUN, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { freePort, gitIn, makeFixtureRepo, type FixtureRepo } from '../../test-support/launch/fixture-repo.js'
import { processesMentioning } from './launch-fixture.js'

const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const GATE = 'gate.yml'
const LOAD = {
  workload: { prompts: 'synthetic', input_tokens: { mean: 8, stddev: 0 }, output_tokens: { mean: 8, stddev: 0 } },
  concurrency: [2],
  requests_per_level: 4000,
  warmup_requests: 0,
  repetitions: 40,
  checks: [{ metric: 'error_rate', max: 0 }]
}

const made: string[] = []
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true })
})

type Kind = 'engine' | 'never' | 'stubborn'

/**
 * A launched side: the fake engine; `never`, a process that never answers (stuck loading);
 * `stubborn`, the same ignoring SIGTERM (its stop waits for the SIGKILL).
 */
async function launchedSide(kind: Kind, checkout: 'base' | 'head', port: number) {
  const stuck = `${kind === 'stubborn' ? "process.on('SIGTERM', () => {}); " : ''}console.log('loading'); setInterval(() => {}, 1000)`
  const command = kind === 'engine' ? [process.execPath, ENGINE_SCRIPT, '--port', String(port)] : [process.execPath, '-e', stuck]
  return {
    api: 'chat',
    base_url: `http://127.0.0.1:${port}/v1`,
    model: 'engine-model',
    tokenizer: 'simple/tokenizer1',
    max_sequence_length: 100000,
    request_timeout_seconds: 10,
    launch: { command, checkout, ready_timeout_seconds: 60, stop: { signal: 'SIGTERM', timeout_seconds: 5 } }
  }
}

async function repoWith(baseline: Kind, extra: Record<string, unknown> = {}): Promise<FixtureRepo> {
  const port = await freePort()
  const gate = stringify({
    version: 1,
    deployments: { baseline: await launchedSide(baseline, 'base', port), candidate: await launchedSide('engine', 'head', port) },
    schedule: 'sequential',
    runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.1 }],
    load: LOAD,
    ...extra
  })
  const repo = await makeFixtureRepo({}, {}, { [GATE]: gate })
  made.push(repo.dir)
  return repo
}

interface Cancelled {
  code: number | null
  stderr: string
  outDir: string
  tmp: string
}

/**
 * Runs helm-gate in `repo` with a TMPDIR of its own, sends `signals` once stderr matches `when`
 * (each further signal once helm-gate said it received the one before), and waits for it to exit.
 */
async function cancel(repo: FixtureRepo, args: string[], when: RegExp, signals: NodeJS.Signals[], delayMs = 0) {
  const tmp = await mkdtemp(join(tmpdir(), 'helm-gate-cancel-tmp-'))
  made.push(tmp)
  const outDir = join(tmp, '..', `${tmp.split('/').pop()}-out`)
  made.push(outDir)
  const child = spawn(process.execPath, [CLI, ...args, '--config', GATE, '--out', outDir, '--baseline-ref', repo.baseSha], {
    cwd: repo.dir,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`never matched ${when}\n${stderr}`)), 120_000)
    child.once('close', code => reject(new Error(`exited (${code}) before ${when}\n${stderr}`)))
    child.stderr.on('data', chunk => {
      stderr += chunk
      if (when.test(stderr)) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
  await new Promise(resolve => setTimeout(resolve, delayMs))
  for (const [i, signal] of signals.entries()) {
    if (i > 0) await until(() => stderr.includes(`${signals[i - 1]} received`))
    child.kill(signal)
  }
  const code = await exited
  return { code, stderr, outDir, tmp } satisfies Cancelled
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise(resolve => setTimeout(resolve, 10))
  }
}

/** Nothing left: TMPDIR empty, the checkout the only worktree, no process of the run alive. */
async function expectNothingLeft(repo: FixtureRepo, result: Cancelled): Promise<void> {
  const trace = `exit ${result.code}\n${result.stderr}`
  expect({ left: await readdir(result.tmp), trace: '' }).toEqual({ left: [], trace: '' })
  const worktrees = (await gitIn(repo.dir, ['worktree', 'list', '--porcelain'])).split('\n').filter(line => line.startsWith('worktree '))
  expect({ worktrees, trace: worktrees.length === 1 ? '' : trace }).toEqual({ worktrees: [`worktree ${repo.dir}`], trace: '' })
  expect(processesMentioning(result.tmp)).toEqual([])
  expect(processesMentioning(ENGINE_SCRIPT).filter(line => line.includes(repo.dir))).toEqual([])
}

async function expectCancelledReport(result: Cancelled, signal: NodeJS.Signals): Promise<void> {
  const report = JSON.parse(await readFile(join(result.outDir, 'report.json'), 'utf8')) as {
    verdict: string
    errors: { code: string; message: string }[]
  }
  expect(report.verdict).toBe('error')
  expect(report.errors.map(e => e.code)).toEqual(['run.cancelled'])
  const markdown = await readFile(join(result.outDir, 'report.md'), 'utf8')
  expect(markdown).toContain(`Cancelled: helm-gate received ${signal}`)
  // Files are named by their place in the output folder, as everywhere else in the report.
  expect(markdown).not.toContain(result.outDir)
  expect(markdown).toContain('logs/')
}

describe('a cancelled helm-gate leaves nothing behind (no helm-run)', () => {
  it('SIGTERM while the launched base-commit baseline gets ready: exit 143, nothing left', async () => {
    const repo = await repoWith('never')
    // A moment after the launch line: the server is spawned and waited for.
    const result = await cancel(repo, ['load'], /\[baseline\] launching the server/, ['SIGTERM'], 1_000)
    expect(result.code).toBe(128 + constants.signals.SIGTERM)
    await expectNothingLeft(repo, result)
    await expectCancelledReport(result, 'SIGTERM')
  }, 150_000)

  it('SIGINT during the load half of a base-commit baseline: exit 130, nothing left', async () => {
    const repo = await repoWith('engine')
    const result = await cancel(repo, ['run', '--only', 'load'], /block 1\/\d+ \(baseline\)/, ['SIGINT'])
    expect(result.code).toBe(128 + constants.signals.SIGINT)
    await expectNothingLeft(repo, result)
    await expectCancelledReport(result, 'SIGINT')
  }, 150_000)

  it('SIGTERM while the sides are swapped between load blocks (the candidate up again): nothing left', async () => {
    const repo = await repoWith('engine')
    // Sequential on one port: the candidate is brought up again for block 2, after the baseline's block 1.
    const result = await cancel(repo, ['load'], /block 2\/\d+ \(candidate\)/, ['SIGTERM'])
    expect(result.stderr).toMatch(/\[baseline\] server stopped[\s\S]*\[candidate\] launching the server[\s\S]*block 2\/\d+ \(candidate\)/)
    expect(result.code).toBe(128 + constants.signals.SIGTERM)
    await expectNothingLeft(repo, result)
    await expectCancelledReport(result, 'SIGTERM')
  }, 150_000)

  it('a second signal forces the exit, still after the temporary folder and the worktree are removed', async () => {
    // The first signal's path waits for a server that ignores SIGTERM; the second cuts it short.
    const repo = await repoWith('stubborn')
    const result = await cancel(repo, ['load'], /\[baseline\] launching the server/, ['SIGINT', 'SIGTERM'], 1_000)
    expect(result.stderr).toContain('SIGTERM again')
    // 143 when the second signal's short grace ran out first, 130 when the first path ended in it.
    expect([128 + constants.signals.SIGINT, 128 + constants.signals.SIGTERM]).toContain(result.code)
    await expectNothingLeft(repo, result)
  }, 150_000)
})

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('a cancelled helm-gate run leaves nothing behind (real helm-run)', () => {
  let key = ''
  beforeAll(async () => {
    key = await buildAnswerKey(['simple_mcqa'])
  }, 300_000)

  it.each([['SIGTERM' as const], ['SIGINT' as const]])(
    '%s during helm-run of a base-commit baseline: credentials.conf, the worktree and its registration are gone',
    async signal => {
      // The fake OpenAI server answers HELM slowly, so helm-run is mid-way when the signal comes.
      const port = await freePort()
      const side = (checkout: 'base' | 'head') => ({
        api: 'chat',
        base_url: `http://127.0.0.1:${port}/v1`,
        model: 'gate-model',
        tokenizer: 'simple/tokenizer1',
        max_sequence_length: 100000,
        request_timeout_seconds: 10,
        launch: {
          command: [
            process.execPath,
            join(REPO_ROOT, 'test-support', 'fake-openai', 'server.mjs'),
            '--answer-key',
            key,
            '--model',
            'gate-model',
            '--port',
            String(port),
            '--latency-ms',
            '300'
          ],
          checkout,
          ready_timeout_seconds: 30,
          stop: { signal: 'SIGTERM', timeout_seconds: 5 }
        }
      })
      const gate = stringify({
        version: 1,
        helm: { version: '0.5.16', max_eval_instances: 40, num_threads: 1, timeout_minutes: 10, command: HELM_RUN },
        deployments: { baseline: side('base'), candidate: side('head') },
        schedule: 'sequential',
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.1 }]
      })
      const repo = await makeFixtureRepo({}, {}, { [GATE]: gate })
      made.push(repo.dir)
      const result = await cancel(repo, ['run'], /\[baseline\] (run 1\/1|\d+ requests done)/, [signal])
      expect(result.code).toBe(128 + constants.signals[signal])
      await expectNothingLeft(repo, result)
      await expectCancelledReport(result, signal)
      expect(processesMentioning(result.outDir)).toEqual([])
    },
    200_000
  )
})
