/**
 * The bundled action (dist/index.js, built by `npm run build`) against a loopback GitHub: REST,
 * artifact service and blob store, every REST request validated against GitHub's OpenAPI
 * description. HELM is a fake helm-run that copies real HELM run directories (see
 * test-support/action-harness), so each case takes a few seconds.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { commentMarker } from '../../src/action/constants.js'
import { extractZip, listZipEntries } from '../../test-support/fake-github/zip-reader.js'
import { runAction } from '../../test-support/action-harness/harness.js'
import {
  BASE_SHA,
  expectOutcome,
  GATE_PATH,
  HEAD_SHA,
  type GateRun,
  type GateScenario,
  useGateScenario
} from '../../test-support/action-harness/scenario.js'
import type { ArtifactRecord, FakeGitHub } from '../../test-support/fake-github/server.js'
import { zipDirectory } from '../../test-support/fake-github/zip-writer.js'

const COMMENT_MARKER = commentMarker(GATE_PATH)

const harness = useGateScenario()
const { startFake } = harness
let fixtures: string
beforeAll(() => {
  fixtures = harness.scenario().fixtures
})

const gateFile: GateScenario['gateFile'] = options => harness.scenario().gateFile(options)
const workspaceWith = (text: string): Promise<string> => harness.scenario().workspaceWith(text)
const prPayload: GateScenario['prPayload'] = (fake, options) => harness.scenario().prPayload(fake, options)
const gatePullRequest = (options: GateRun) => harness.scenario().gatePullRequest(options)
const archiveBaseline: GateScenario['archiveBaseline'] = (fake, runId, text) => harness.scenario().archiveBaseline(fake, runId, text)

async function unzipArtifact(record: ArtifactRecord): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'helm-gate-artifact-'))
  await extractZip(record.bytes as Buffer, dir)
  return dir
}

function expectClean(fake: FakeGitHub): void {
  expect(fake.violations).toEqual([])
}

describe('the bundled action against a local GitHub', () => {
  it('rides out a 502 on the gate file at the base commit: one retry, logged, and the gate passes', async () => {
    const fake = await startFake()
    fake.fail({ method: 'GET', path: /\/contents\//, status: 502, times: 1 })
    const run = await gatePullRequest({ fake })
    expectOutcome(run, 0, 'pass')
    expect(fake.requests.filter(r => r.path.includes('/contents/')).map(r => r.status)).toEqual([502, 200])
    expect(run.stdout.split('\n').filter(line => /GitHub answered 502 to GET \/repos\/acme\/serving\/contents\//.test(line))).toHaveLength(
      1
    )
    expectClean(fake)
  }, 60_000)

  it('says what GitHub answered when the gate file stays unreadable after the retries (error, never the PR version)', async () => {
    const fake = await startFake()
    fake.fail({ method: 'GET', path: /\/contents\//, status: 503, headers: { 'x-github-request-id': 'REQ:42' } })
    const run = await gatePullRequest({ fake })
    expectOutcome(run, 1, 'error')
    expect(fake.requests.filter(r => r.path.includes('/contents/'))).toHaveLength(4)
    expect(fake.comments[0].body).toMatch(
      /GitHub answered 503 to GET \/repos\/acme\/serving\/contents\/\.github\/helm-gate\.yml \\?\(request id REQ:42\\?\)/
    )
    expect(run.stdout).not.toMatch(/fake helm-run/)
  }, 60_000)

  it('waits out a secondary rate limit (403 with retry-after) instead of reading it as a read-only token', async () => {
    const fake = await startFake()
    fake.fail({
      method: 'POST',
      path: /\/check-runs$/,
      status: 403,
      times: 1,
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      headers: { 'retry-after': '1' }
    })
    const run = await gatePullRequest({ fake })
    expectOutcome(run, 0, 'pass')
    expect(run.stdout).not.toMatch(/::warning/)
    expect(run.stdout).toMatch(/secondary rate limit \(POST \/repos\/acme\/serving\/check-runs\); retrying in 1 s/)
    expect(fake.checkRuns).toHaveLength(1)
    expectClean(fake)
  }, 60_000)

  it('still creates the check run when only the comment is refused, and names pull-requests: write', async () => {
    const fake = await startFake()
    fake.fail({
      method: 'POST',
      path: /\/issues\/7\/comments$/,
      status: 403,
      headers: { 'x-accepted-github-permissions': 'pull_requests=write' }
    })
    const run = await gatePullRequest({ fake })
    expectOutcome(run, 0, 'pass')
    const warnings = run.stdout.split('\n').filter(line => line.startsWith('::warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/comment: the token lacks pull-requests: write/)
    expect(warnings[0]).not.toMatch(/workflow_run/)
    expect(fake.checkRuns).toHaveLength(1)
    expect(fake.checkRuns[0].body.conclusion).toBe('success')
    expectClean(fake)
  }, 60_000)

  it('with a personal access token, updates its own comment on the second run and explains the check-run limit', async () => {
    const fake = await startFake()
    const first = await gatePullRequest({ fake, token: 'pat-token' })
    expectOutcome(first, 0, 'pass')
    expect(fake.comments).toHaveLength(1)
    expect(fake.comments[0]).toMatchObject({ login: 'octocat', type: 'User' })
    expect(first.stdout).toMatch(/::warning::could not create the check run: only GitHub Apps may create check runs/)
    const second = await gatePullRequest({ fake, token: 'pat-token', runAttempt: 2, env: { FAKE_HELM_CANDIDATE_LOSSES: '30' } })
    expectOutcome(second, 1, 'fail')
    expect(fake.comments).toHaveLength(1)
    expect(fake.comments[0].body).toMatch(/fail/i)
    expectClean(fake)
  }, 60_000)

  it('keeps two gates in one workflow run apart: two evidence artifacts, two comments, no 409', async () => {
    const fake = await startFake()
    const gates = ['.github/gates/fp8.yml', '.github/gates/engine.yml']
    const runs = await Promise.all(
      gates.map(async (gatePath, i) => {
        fake.seedFile(BASE_SHA, gatePath, gateFile())
        const workspace = await mkdtemp(path.join(tmpdir(), 'helm-gate-ws-'))
        await mkdir(path.join(workspace, '.github/gates'), { recursive: true })
        await writeFile(path.join(workspace, gatePath), gateFile())
        return runAction({
          fake,
          inputs: { config: gatePath, 'check-name': `helm-gate ${i}` },
          eventName: 'pull_request',
          payload: prPayload(fake),
          workspace,
          runId: 900,
          sha: 'e'.repeat(40),
          ref: 'refs/pull/7/merge',
          env: { FAKE_HELM_FIXTURES: fixtures, FAKE_HELM_CANDIDATE_LOSSES: i === 1 ? '30' : '0' }
        })
      })
    )
    expectOutcome(runs[0], 0, 'pass')
    expectOutcome(runs[1], 1, 'fail')
    expect(
      fake
        .uploadedBy(900)
        .map(a => a.name)
        .sort()
    ).toEqual(['helm-gate-gate-gates-engine-attempt-1', 'helm-gate-gate-gates-fp8-attempt-1'])
    expect(fake.requests.some(r => r.status === 409)).toBe(false)
    expect(fake.comments).toHaveLength(2)
    expect(fake.comments.map(c => c.body.split('\n')[0]).sort()).toEqual([commentMarker(gates[1]), commentMarker(gates[0])].sort())
    expect(fake.checkRuns.map(c => c.body.name).sort()).toEqual(['helm-gate 0', 'helm-gate 1'])
    expectClean(fake)
  }, 90_000)

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
    expect(evidence.map(a => a.name)).toEqual(['helm-gate-gate-helm-gate-attempt-1'])
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
    ).toEqual(['helm-gate-gate-helm-gate-attempt-1', 'helm-gate-gate-helm-gate-attempt-2'])
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

  it('degrades to one warning per refused publication with a read-only token (fork PR), still writing summary and outputs', async () => {
    const fake = await startFake()
    fake.readOnly = true
    const run = await gatePullRequest({ fake, payload: prPayload(fake, { forkId: 999 }) })
    expectOutcome(run, 0, 'pass')
    const warnings = run.stdout.split('\n').filter(line => line.startsWith('::warning'))
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/comment: the token lacks issues: write; pull-requests: write \(a fork pull request/)
    expect(warnings[1]).toMatch(/check run: the token lacks checks: write/)
    expect(fake.comments).toHaveLength(0)
    expect(fake.checkRuns).toHaveLength(0)
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
    expect(fake.comments[0].body).toContain(`archived baseline \\#\u200D${archive[0].id} from run 500`)
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
    ).toEqual([
      'helm-gate-compare-helm-gate-attempt-1',
      'helm-gate-run-helm-gate-shard-0-of-2-attempt-1',
      'helm-gate-run-helm-gate-shard-1-of-2-attempt-1'
    ])
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
