/**
 * The bundled action (dist/index.js, built by `npm run build`) against a loopback GitHub: REST,
 * artifact service and blob store, every REST request validated against GitHub's OpenAPI
 * description. HELM is a fake helm-run that copies real HELM run directories (see
 * test-support/action-harness), so each case takes a few seconds.
 */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { COMMENT_MARKER } from '../../src/action/constants.js'
import { extractZip, listZipEntries } from '../../src/github/zip.js'
import { helmRunFixtures } from '../../test-support/action-harness/fixtures.js'
import { installFakeHelmRun, runAction, type ActionRun } from '../../test-support/action-harness/harness.js'
import { FakeGitHub, type ArtifactRecord } from '../../test-support/fake-github/server.js'
import { zipDirectory } from '../../test-support/fake-github/zip-writer.js'

const BASE_SHA = 'a'.repeat(40)
const HEAD_SHA = 'd'.repeat(40)
const GATE_PATH = '.github/helm-gate.yml'

let fixtures: string
let helmRun: string
let prodEnv: string
const fakes: FakeGitHub[] = []

beforeAll(async () => {
  fixtures = await helmRunFixtures()
  const root = await mkdtemp(path.join(tmpdir(), 'helm-gate-it-'))
  helmRun = await installFakeHelmRun(path.join(root, 'bin'))
  prodEnv = path.join(root, 'prod_env')
  await mkdir(prodEnv)
  await writeFile(
    path.join(prodEnv, 'model_deployments.yaml'),
    [
      'model_deployments:',
      '  - name: ci/baseline',
      '    model_name: ci/model',
      '    tokenizer_name: simple/tokenizer1',
      '    max_sequence_length: 2048',
      '    client_spec: {class_name: "helm.clients.simple_client.SimpleClient"}',
      '  - name: ci/candidate',
      '    model_name: ci/model',
      '    tokenizer_name: simple/tokenizer1',
      '    max_sequence_length: 2048',
      '    client_spec: {class_name: "helm.clients.simple_client.SimpleClient"}',
      ''
    ].join('\n')
  )
}, 120_000)

afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.stop()
})

function gateFile(options: { maxDrop?: number; entries?: string[]; extra?: string } = {}): string {
  const entries = options.entries ?? ['simple_mcqa']
  return [
    'version: 1',
    'helm:',
    '  version: "0.5.16"',
    '  max_eval_instances: 79',
    `  command: ${JSON.stringify(helmRun)}`,
    'deployments:',
    `  baseline: {prod_env: ${JSON.stringify(prodEnv)}, deployment: ci/baseline}`,
    `  candidate: {prod_env: ${JSON.stringify(prodEnv)}, deployment: ci/candidate}`,
    'runs:',
    ...entries.flatMap(entry => [
      `  - entry: ${entry}`,
      '    metric: exact_match',
      '    split: test',
      `    max_drop: ${options.maxDrop ?? 0.05}`
    ]),
    'statistics: {resamples: 2000}',
    options.extra ?? '',
    ''
  ].join('\n')
}

async function startFake(): Promise<FakeGitHub> {
  const fake = await new FakeGitHub().start()
  fakes.push(fake)
  return fake
}

async function workspaceWith(text: string): Promise<string> {
  const workspace = await mkdtemp(path.join(tmpdir(), 'helm-gate-ws-'))
  await mkdir(path.join(workspace, '.github'))
  await writeFile(path.join(workspace, GATE_PATH), text)
  return workspace
}

function prPayload(fake: FakeGitHub, options: { forkId?: number; author?: string } = {}): Record<string, unknown> {
  const repository = { id: fake.repo.id, name: fake.repo.name, full_name: `${fake.repo.owner}/${fake.repo.name}`, default_branch: 'main' }
  return {
    action: 'synchronize',
    number: 7,
    repository,
    pull_request: {
      number: 7,
      user: { login: options.author ?? 'octocat' },
      head: { sha: HEAD_SHA, ref: 'feature', repo: { id: options.forkId ?? fake.repo.id } },
      base: { sha: BASE_SHA, ref: 'main', repo: { id: fake.repo.id } }
    }
  }
}

interface GateRun {
  fake: FakeGitHub
  base?: string
  head?: string
  inputs?: Record<string, string>
  env?: Record<string, string>
  runId?: number
  runAttempt?: number
  token?: string
  payload?: Record<string, unknown>
}

/** A pull_request run of mode gate; the base commit's gate file is served by the contents API. */
async function gatePullRequest(options: GateRun): Promise<ActionRun> {
  const base = options.base ?? gateFile()
  options.fake.seedFile(BASE_SHA, GATE_PATH, base)
  const workspace = await workspaceWith(options.head ?? base)
  return runAction({
    fake: options.fake,
    inputs: { config: GATE_PATH, ...options.inputs },
    eventName: 'pull_request',
    payload: options.payload ?? prPayload(options.fake),
    workspace,
    runId: options.runId ?? 100,
    runAttempt: options.runAttempt,
    sha: 'e'.repeat(40),
    ref: 'refs/pull/7/merge',
    token: options.token,
    env: { FAKE_HELM_FIXTURES: fixtures, ...options.env }
  })
}

/** Mode baseline on a push to main, as the refresh workflow runs it. */
async function archiveBaseline(fake: FakeGitHub, runId: number, text = gateFile()): Promise<ActionRun> {
  fake.seedRun({ id: runId, event: 'push', head_branch: 'main', head_sha: BASE_SHA })
  const workspace = await workspaceWith(text)
  const result = await runAction({
    fake,
    inputs: { config: GATE_PATH, mode: 'baseline', 'retention-days': '30' },
    eventName: 'push',
    payload: { repository: { id: fake.repo.id, default_branch: 'main' } },
    workspace,
    runId,
    sha: BASE_SHA,
    ref: 'refs/heads/main',
    env: { FAKE_HELM_FIXTURES: fixtures }
  })
  expect(result.code).toBe(0)
  return result
}

async function unzipArtifact(record: ArtifactRecord): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'helm-gate-artifact-'))
  await extractZip(record.bytes as Buffer, dir)
  return dir
}

function describeRun(run: ActionRun): string {
  return `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`
}

/** Exit code and verdict, with the action's output in the failure message. */
function expectOutcome(run: ActionRun, code: number, verdict: string): void {
  if (run.code !== code || run.outputs.verdict !== verdict) {
    throw new Error(`expected exit ${code} and verdict ${verdict}, got verdict ${run.outputs.verdict}\n${describeRun(run)}`)
  }
}

function expectClean(fake: FakeGitHub): void {
  expect(fake.violations).toEqual([])
}

describe('the bundled action against a local GitHub', () => {
  it('creates the sticky comment and a check run on the PR head on the first run, and uploads the evidence', async () => {
    const fake = await startFake()
    const run = await gatePullRequest({ fake })
    expectOutcome(run, 0, 'pass')
    expectClean(fake)

    expect(fake.comments).toHaveLength(1)
    expect(fake.comments[0].body.startsWith(COMMENT_MARKER)).toBe(true)
    expect(fake.comments[0].body).toContain('https://github.com/acme/serving/actions/runs/100')
    expect(run.outputs['comment-url']).toContain('#issuecomment-')

    expect(fake.checkRuns).toHaveLength(1)
    expect(fake.checkRuns[0].body).toMatchObject({ name: 'helm-gate', head_sha: HEAD_SHA, status: 'completed', conclusion: 'success' })
    expect(run.outputs['check-run-id']).toBe(String(fake.checkRuns[0].id))

    expect(run.summary.length).toBeGreaterThan(100)
    expect(run.outputs['baseline-source']).toBe('run')
    const report = JSON.parse(await readFile(run.outputs['report-path'], 'utf8'))
    expect(report.verdict).toBe('pass')

    const evidence = fake.uploadedBy(100)
    expect(evidence.map(a => a.name)).toEqual(['helm-gate-gate-attempt-1'])
    const names = listZipEntries(evidence[0].bytes as Buffer).map(e => e.name)
    expect(names).toEqual(expect.arrayContaining(['manifest.json', 'report.json', 'report.md', 'logs/baseline.log', 'logs/candidate.log']))
    expect(names.some(n => n.includes('per_instance_stats.json') && n.startsWith('baseline/'))).toBe(true)
    expect(names.some(n => n.includes('prod_env') || n.endsWith('credentials.conf'))).toBe(false)
  }, 60_000)

  it('updates the same comment on a re-run and leaves a human comment with the marker alone', async () => {
    const fake = await startFake()
    const human = fake.seedComment(7, `${COMMENT_MARKER}\nI copied this`, 'mallory', 'User')
    // Enough other comments that ours is on a later page.
    for (let i = 0; i < 35; i++) fake.seedComment(7, `chatter ${i}`, 'octocat', 'User')
    const first = await gatePullRequest({ fake })
    expect(first.code).toBe(0)
    const ours = fake.comments.filter(c => c.type === 'Bot')
    expect(ours).toHaveLength(1)
    const second = await gatePullRequest({ fake, runAttempt: 2, env: { FAKE_HELM_CANDIDATE_LOSSES: '30' } })
    expect(second.code).toBe(1)
    expectClean(fake)
    expect(fake.comments.filter(c => c.type === 'Bot').map(c => c.id)).toEqual([ours[0].id])
    expect(fake.comments.find(c => c.id === ours[0].id)?.body).toMatch(/fail/i)
    expect(fake.comments.find(c => c.id === human.id)?.body).toBe(`${COMMENT_MARKER}\nI copied this`)
    expect(fake.requests.filter(r => r.method === 'PATCH' && r.path.includes('/issues/comments/'))).toHaveLength(1)
    expect(
      fake
        .uploadedBy(100)
        .map(a => a.name)
        .sort()
    ).toEqual(['helm-gate-gate-attempt-1', 'helm-gate-gate-attempt-2'])
  }, 60_000)

  it('fails the job on a regression, with a failing check', async () => {
    const fake = await startFake()
    const run = await gatePullRequest({ fake, env: { FAKE_HELM_CANDIDATE_LOSSES: '30' } })
    expectOutcome(run, 1, 'fail')
    expect(run.stdout).toMatch(/::error::helm-gate verdict: fail/)
    expect(fake.checkRuns[0].body.conclusion).toBe('failure')
    expectClean(fake)
  }, 60_000)

  it('lets the inconclusive input decide what an inconclusive result does', async () => {
    const fake = await startFake()
    const failing = await gatePullRequest({ fake, env: { FAKE_HELM_CANDIDATE_LOSSES: '4' } })
    expect(failing.outputs.verdict).toBe('inconclusive')
    expect(failing.code).toBe(1)
    expect(fake.checkRuns[0].body.conclusion).toBe('failure')
    const neutral = await gatePullRequest({
      fake,
      runAttempt: 2,
      inputs: { inconclusive: 'neutral' },
      env: { FAKE_HELM_CANDIDATE_LOSSES: '4' }
    })
    expect(neutral.outputs.verdict).toBe('inconclusive')
    expect(neutral.code).toBe(0)
    expect(fake.checkRuns[1].body.conclusion).toBe('neutral')
    expectClean(fake)
  }, 60_000)

  it('degrades to one warning with a read-only token (fork PR), still writing summary and outputs', async () => {
    const fake = await startFake()
    fake.readOnly = true
    const run = await gatePullRequest({ fake, payload: prPayload(fake, { forkId: 999 }) })
    expectOutcome(run, 0, 'pass')
    const warnings = run.stdout.split('\n').filter(line => line.startsWith('::warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/fork pull request/)
    expect(fake.comments).toHaveLength(0)
    expect(fake.checkRuns).toHaveLength(0)
    // After the comment's 403 the check is not even attempted.
    expect(fake.requests.filter(r => r.path.endsWith('/check-runs'))).toHaveLength(0)
    expect(run.summary).toMatch(/pass/i)
    expectClean(fake)

    const failing = await gatePullRequest({
      fake,
      runAttempt: 2,
      payload: prPayload(fake, { forkId: 999 }),
      env: { FAKE_HELM_CANDIDATE_LOSSES: '30' }
    })
    expectOutcome(failing, 1, 'fail')
  }, 60_000)

  it('judges a pull request that edits the gate file by the base version, shows the diff, and keeps the comment under the limit', async () => {
    const fake = await startFake()
    const base = gateFile({ maxDrop: 0.02 })
    // The PR loosens the margin and adds about 90 kB of comment lines: the diff alone exceeds 65,536.
    const filler = Array.from({ length: 300 }, (_, i) => `# ${String(i).padStart(3, '0')} ${'x'.repeat(290)}`).join('\n')
    const head = `${gateFile({ maxDrop: 0.9 })}${filler}\n`
    const run = await gatePullRequest({ fake, base, head, env: { FAKE_HELM_CANDIDATE_LOSSES: '30' } })
    expectOutcome(run, 1, 'fail')
    const contents = fake.requests.filter(r => r.path.includes('/contents/'))
    expect(contents.map(r => r.query)).toEqual([`?ref=${BASE_SHA}`])
    const body = fake.comments[0].body
    expect(body.length).toBeLessThanOrEqual(65536)
    expect(body.startsWith(COMMENT_MARKER)).toBe(true)
    expect(body).toContain('max_drop: 0.9')
    expect(fake.requests.some(r => r.status === 422)).toBe(false)
    expectClean(fake)
  }, 60_000)

  it("refuses to run the baseline against the candidate's own deployment (no archive, one server)", async () => {
    const fake = await startFake()
    const same = gateFile().replace('deployment: ci/candidate}', 'deployment: ci/baseline}')
    const run = await gatePullRequest({ fake, base: same })
    expectOutcome(run, 1, 'error')
    expect(run.stdout).not.toMatch(/fake helm-run/)
    expect(fake.comments[0].body).toMatch(/same deployment/)
    expect(fake.checkRuns[0].body.conclusion).toBe('failure')
    expectClean(fake)
  }, 60_000)

  it('uploads the logs of a failing helm run and reports an error', async () => {
    const fake = await startFake()
    const run = await gatePullRequest({ fake, env: { FAKE_HELM_FAIL: 'candidate' } })
    expectOutcome(run, 1, 'error')
    const [evidence] = fake.uploadedBy(100)
    const dir = await unzipArtifact(evidence)
    expect(await readFile(path.join(dir, 'logs/candidate.log'), 'utf8')).toMatch(/RunnerError/)
    expect(JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')).verdict).toBe('error')
    expect(fake.checkRuns[0].body.conclusion).toBe('failure')
    expectClean(fake)
  }, 60_000)

  it('reuses an archived baseline from the default branch and runs only the candidate', async () => {
    const fake = await startFake()
    await archiveBaseline(fake, 500)
    const archive = fake.uploadedBy(500)
    expect(archive).toHaveLength(1)
    expect(archive[0].name).toMatch(/^helm-gate-baseline-[0-9a-f]{16}$/)

    const run = await gatePullRequest({ fake, runId: 600 })
    expectOutcome(run, 0, 'pass')
    expect(run.outputs['baseline-source']).toBe('archived')
    expect(run.outputs['baseline-artifact-id']).toBe(String(archive[0].id))
    expect(Number(run.outputs['baseline-age-hours'])).toBeGreaterThanOrEqual(0)
    expect(run.stdout).toMatch(/fake helm-run: side candidate/)
    expect(run.stdout).not.toMatch(/fake helm-run: side baseline/)
    expect(fake.comments[0].body).toMatch(new RegExp(`archived artifact ${archive[0].id}`))
    expectClean(fake)
  }, 60_000)

  it('ignores expired, foreign and mismatched baselines and says why', async () => {
    const fake = await startFake()
    await archiveBaseline(fake, 500)
    const [good] = fake.uploadedBy(500)
    fake.artifacts.splice(fake.artifacts.indexOf(good), 1)
    const expired = fake.seedArtifact({ name: good.name, zip: good.bytes as Buffer, runId: 500, expired: true })
    // A fork's branch called main: same name, same branch, another head repository.
    fake.seedRun({ id: 501, event: 'pull_request', headRepositoryId: 999 })
    const foreign = fake.seedArtifact({ name: good.name, zip: good.bytes as Buffer, runId: 501, headRepositoryId: 999 })
    // Same name, but the manifest says another gate set.
    const dir = await unzipArtifact(good)
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'))
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, fingerprint: '0'.repeat(64) }))
    fake.seedRun({ id: 502, event: 'push' })
    const mismatched = fake.seedArtifact({ name: good.name, zip: await zipDirectory(dir), runId: 502 })
    await rm(dir, { recursive: true, force: true })

    const run = await gatePullRequest({ fake, runId: 600 })
    expectOutcome(run, 0, 'pass')
    expect(run.outputs['baseline-source']).toBe('run')
    expect(run.stdout).toMatch(/fake helm-run: side baseline/)
    const downloads = fake.requests.filter(r => r.path.endsWith('/zip')).map(r => r.path)
    expect(downloads).toEqual([`/repos/acme/serving/actions/artifacts/${mismatched.id}/zip`])
    const body = fake.comments[0].body
    expect(body).toContain(`artifact ${expired.id}: expired`)
    expect(body).toContain(`artifact ${foreign.id}: from a fork`)
    expect(body).toContain(`artifact ${mismatched.id}: its manifest fingerprint differs`)
    expectClean(fake)
  }, 60_000)

  it('aggregates a sharded gate into one verdict', async () => {
    const fake = await startFake()
    const text = gateFile({ entries: ['simple_mcqa', 'simple_classification'] })
    fake.seedFile(BASE_SHA, GATE_PATH, text)
    const shard = async (index: number) => {
      const workspace = await workspaceWith(text)
      return runAction({
        fake,
        inputs: { config: GATE_PATH, mode: 'run', 'shard-index': String(index), 'shard-count': '2', baseline: 'run' },
        eventName: 'pull_request',
        payload: prPayload(fake),
        workspace,
        runId: 700,
        env: { FAKE_HELM_FIXTURES: fixtures, FAKE_HELM_CANDIDATE_LOSSES: index === 1 ? '30' : '0' }
      })
    }
    const shards = await Promise.all([shard(0), shard(1)])
    expect(shards.map(s => s.code)).toEqual([0, 0])
    expect(shards[0].stdout).toMatch(/entries \['simple_mcqa:/)
    expect(shards[1].stdout).toMatch(/entries \['simple_classification:/)
    expect(fake.comments).toHaveLength(0)

    const workspace = await workspaceWith(text)
    const compare = await runAction({
      fake,
      inputs: { config: GATE_PATH, mode: 'compare' },
      eventName: 'pull_request',
      payload: prPayload(fake),
      workspace,
      runId: 700
    })
    expectOutcome(compare, 1, 'fail')
    expect(fake.comments).toHaveLength(1)
    expect(fake.checkRuns).toHaveLength(1)
    const report = JSON.parse(await readFile(compare.outputs['report-path'], 'utf8'))
    expect(report.comparisons.map((c: { run: string }) => c.run.split(':')[0]).sort()).toEqual(['simple_classification', 'simple_mcqa'])
    expect(
      fake
        .uploadedBy(700)
        .map(a => a.name)
        .sort()
    ).toEqual(['helm-gate-compare-attempt-1', 'helm-gate-run-shard-0-of-2-attempt-1', 'helm-gate-run-shard-1-of-2-attempt-1'])
    expect(report.notes).toContain('Aggregated 2 shard(s).')
    expectClean(fake)
  }, 90_000)

  it('publishes a fork PR from the workflow_run workflow (the fork-safe pair)', async () => {
    const fake = await startFake()
    const text = gateFile()
    fake.seedFile(BASE_SHA, GATE_PATH, text)
    fake.seedRun({ id: 800, event: 'pull_request', head_branch: 'feature', head_sha: HEAD_SHA, headRepositoryId: 999 })
    // Workflow A: pull_request from a fork, read-only token: runs and uploads, publishes nothing.
    const measured = await runAction({
      fake,
      inputs: { config: GATE_PATH, mode: 'run', baseline: 'run', comment: 'false', 'check-name': '' },
      eventName: 'pull_request',
      payload: prPayload(fake, { forkId: 999 }),
      workspace: await workspaceWith(text),
      runId: 800,
      token: 'read-only-token',
      env: { FAKE_HELM_FIXTURES: fixtures, FAKE_HELM_CANDIDATE_LOSSES: '30' }
    })
    expect(measured.code).toBe(0)
    expect(fake.comments).toHaveLength(0)

    // Workflow B: workflow_run on the default branch, write token; GitHub lists no PR for a fork.
    fake.pulls.set(7, { number: 7, head: { sha: HEAD_SHA, ref: 'feature' }, base: { sha: BASE_SHA, ref: 'main' } })
    const published = await runAction({
      fake,
      inputs: { config: GATE_PATH, mode: 'compare' },
      eventName: 'workflow_run',
      payload: {
        action: 'completed',
        repository: { id: fake.repo.id, default_branch: 'main' },
        workflow_run: {
          id: 800,
          head_sha: HEAD_SHA,
          head_branch: 'feature',
          head_repository: { id: 999 },
          repository: { id: fake.repo.id },
          pull_requests: []
        }
      },
      workspace: await workspaceWith(text),
      runId: 801,
      sha: 'c'.repeat(40)
    })
    expectOutcome(published, 1, 'fail')
    expect(fake.requests.some(r => r.path === '/repos/acme/serving/actions/runs/800/artifacts')).toBe(true)
    expect(fake.comments).toHaveLength(1)
    expect(fake.comments[0].issue).toBe(7)
    expect(fake.checkRuns[0].body).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'failure' })
    expectClean(fake)
  }, 60_000)

  it('replaces its archive when the baseline job is re-run, and require-archived refuses to run without one', async () => {
    const fake = await startFake()
    const strict = await gatePullRequest({ fake, inputs: { baseline: 'require-archived' } })
    expectOutcome(strict, 1, 'error')
    expect(strict.stdout).not.toMatch(/fake helm-run/)
    expect(fake.comments[0].body).toMatch(/require-archived/)

    await archiveBaseline(fake, 500)
    const first = fake.uploadedBy(500)
    // A re-run attempt shares the workflow run, where artifact names must be unique (409).
    fake.seedRun({ id: 500, event: 'push', head_branch: 'main', head_sha: BASE_SHA })
    const again = await runAction({
      fake,
      inputs: { config: GATE_PATH, mode: 'baseline' },
      eventName: 'push',
      payload: { repository: { id: fake.repo.id, default_branch: 'main' } },
      workspace: await workspaceWith(gateFile()),
      runId: 500,
      runAttempt: 2,
      sha: BASE_SHA,
      ref: 'refs/heads/main',
      env: { FAKE_HELM_FIXTURES: fixtures }
    })
    expectOutcome(again, 0, 'pass')
    const second = fake.uploadedBy(500)
    expect(second).toHaveLength(1)
    expect(second[0].name).toBe(first[0].name)
    expect(second[0].id).not.toBe(first[0].id)
    const reused = await gatePullRequest({ fake, runId: 601, inputs: { baseline: 'require-archived' } })
    expectOutcome(reused, 0, 'pass')
    expect(reused.outputs['baseline-artifact-id']).toBe(String(second[0].id))
  }, 60_000)
})
