/**
 * What the pull request sees names deployments and files of the evidence, never the runner's
 * disk: no workspace, $RUNNER_TEMP or temporary-directory path in the comment, the check run,
 * the job summary or the failure annotation, also when errors name the files they are about.
 * report.json, read next to those files in the artifact, keeps the paths.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runAction, type ActionRun } from '../../test-support/action-harness/harness.js'
import { expectOutcome, GATE_PATH, type GateScenario, useGateScenario } from '../../test-support/action-harness/scenario.js'
import type { FakeGitHub } from '../../test-support/fake-github/server.js'

const harness = useGateScenario()
const { startFake } = harness
const scenario = (): GateScenario => harness.scenario()

/** Everything of this run the pull request shows: comment, check run, job summary, annotations. */
function shown(fake: FakeGitHub, run: ActionRun): Record<string, string> {
  const check = fake.checkRuns.at(-1)?.body ?? {}
  return {
    comment: fake.comments.at(-1)?.body ?? '',
    'check title': check.output?.title ?? '',
    'check summary': check.output?.summary ?? '',
    'check text': check.output?.text ?? '',
    summary: run.summary,
    annotations: run.stdout
      .split('\n')
      .filter(line => /^::(error|warning|notice)/.test(line))
      .join('\n')
  }
}

function expectNoRunnerPath(fake: FakeGitHub, run: ActionRun): void {
  const forbidden = [run.workspace, run.runnerTemp, `${tmpdir()}${path.sep}`, 'runner-temp', 'helm-gate-ws-']
  for (const [where, text] of Object.entries(shown(fake, run))) {
    for (const needle of forbidden) {
      if (text.includes(needle)) throw new Error(`the ${where} shows the runner path ${needle}:\n${text}`)
    }
  }
}

describe('what the pull request sees', () => {
  it('describes an archived baseline by artifact, run and age, with no runner path anywhere', async () => {
    const fake = await startFake()
    await scenario().archiveBaseline(fake, 500)
    const [archive] = fake.uploadedBy(500)
    const run = await scenario().gatePullRequest({ fake, runId: 600 })
    expectOutcome(run, 0, 'pass')
    expect(fake.comments[0].body).toMatch(new RegExp(`archived baseline \\\\#\u200D${archive.id} from run 500 at \`a{12}\`, 0\\.0 h old`))
    expect(fake.comments[0].body).toMatch(new RegExp(`Baseline: archived baseline \\\\#\u200D${archive.id} from run 500, 0\\.0 h old`))
    expect(fake.checkRuns[0].body.output.summary).toContain('archived baseline')
    expectNoRunnerPath(fake, run)
  }, 60_000)

  it('names a broken run directory inside the evidence artifact; report.json keeps the path', async () => {
    const fake = await startFake()
    const run = await scenario().gatePullRequest({ fake, env: { FAKE_HELM_TRUNCATE: 'candidate' } })
    expectOutcome(run, 1, 'error')
    const report = JSON.parse(await readFile(run.outputs['report-path'], 'utf8'))
    const files: string[] = report.errors.map((e: { file?: string }) => e.file).filter(Boolean)
    expect(files.length).toBeGreaterThan(0)
    expect(files.every(file => file.startsWith(run.runnerTemp))).toBe(true)
    // The same file, as the pull request shows it: where it is in the artifact.
    const inArtifact = path.relative(path.join(run.runnerTemp, 'helm-gate', 'evidence'), files[0])
    expect(inArtifact).toMatch(/^candidate\/runs\//)
    expect(fake.comments[0].body).toContain(`file \`${inArtifact}\``)
    expect(fake.checkRuns[0].body.output.summary).toContain(inArtifact)
    expect(run.stdout).toMatch(/^::error::helm-gate verdict: error/m)
    expectNoRunnerPath(fake, run)
  }, 60_000)

  it('names a gate file missing from the work tree by its path in the repository', async () => {
    const fake = await startFake()
    const run = await runAction({
      fake,
      inputs: { config: GATE_PATH, 'frozen-config': 'false' },
      eventName: 'pull_request',
      payload: scenario().prPayload(fake),
      workspace: await mkdtemp(path.join(tmpdir(), 'helm-gate-ws-')),
      runId: 100,
      env: { FAKE_HELM_FIXTURES: scenario().fixtures }
    })
    expectOutcome(run, 1, 'error')
    // report.json, next to the evidence, keeps the path as it was.
    const report = JSON.parse(await readFile(run.outputs['report-path'], 'utf8'))
    expect(report.errors[0].file).toBe(path.join(run.workspace, GATE_PATH))
    const body = fake.comments[0].body
    expect(body).toContain(`open '${GATE_PATH}' (file \`${GATE_PATH}\`)`)
    expectNoRunnerPath(fake, run)
  }, 60_000)
})
