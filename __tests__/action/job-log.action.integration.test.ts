/**
 * The job log of the bundled action, mode by mode: every phase folded under its own group, each
 * side's helm-run output in a group of its own (never interleaved with the other side's), and
 * request details as debug lines. Also mode run's `verdict` output, pass or error per shard.
 */
import { describe, expect, it } from '@jest/globals'
import { runAction } from '../../test-support/action-harness/harness.js'
import { groupLines, logGroups, phaseTitles } from '../../test-support/action-harness/log-groups.js'
import { expectOutcome, GATE_PATH, type GateScenario, useGateScenario } from '../../test-support/action-harness/scenario.js'

const harness = useGateScenario()
const { startFake } = harness
const scenario = (): GateScenario => harness.scenario()

/** helm-run's own lines (the fake prints `fake helm-run: side <side>, …` and `fake helm-run: done`). */
function helmLines(lines: string[]): string[] {
  return lines.filter(line => line.includes('fake helm-run:'))
}

function expectSideGroup(stdout: string, side: 'baseline' | 'candidate'): void {
  const lines = groupLines(stdout, `${side} helm-run output`)
  expect(helmLines(lines)).toEqual([
    expect.stringMatching(new RegExp(`^\\[${side}\\] fake helm-run: side ${side}, `)),
    `[${side}] fake helm-run: done`
  ])
  expect(lines.every(line => line.startsWith(`[${side}] `))).toBe(true)
}

describe("the bundled action's job log", () => {
  it('mode gate: gate file, baseline, helm-run, each side folded on its own, compare, evidence, publish; request details as debug', async () => {
    const fake = await startFake()
    const run = await scenario().gatePullRequest({ fake })
    expectOutcome(run, 0, 'pass')
    expect(phaseTitles(run.stdout)).toEqual([
      'gate file',
      'baseline',
      'helm-run',
      'baseline helm-run output',
      'candidate helm-run output',
      'compare',
      'evidence',
      'publish'
    ])
    expectSideGroup(run.stdout, 'baseline')
    expectSideGroup(run.stdout, 'candidate')
    // While both sides run, only progress lines: helm-run's own output is not interleaved.
    const running = groupLines(run.stdout, 'helm-run')
    expect(helmLines(running)).toEqual([])
    expect(running.some(line => /^\[candidate\] starting helm-run/.test(line))).toBe(true)
    // Nothing of helm-run outside its side's group.
    const elsewhere = logGroups(run.stdout)
      .filter(group => !group.title.endsWith('helm-run output'))
      .flatMap(group => group.lines)
    expect(helmLines(elsewhere)).toEqual([])
    expect(groupLines(run.stdout, 'gate file')).toContain(`::debug::GitHub request GET /repos/acme/serving/contents/${GATE_PATH}`)
    expect(
      groupLines(run.stdout, 'publish').some(line => /^::debug::GitHub answered 201 to POST \/repos\/acme\/serving\/check-runs/.test(line))
    ).toBe(true)
  }, 60_000)

  it('mode baseline: gate file, helm-run, the baseline folded, manifest, archive', async () => {
    const fake = await startFake()
    const run = await scenario().archiveBaseline(fake, 500)
    expect(run.outputs.verdict).toBe('pass')
    expect(phaseTitles(run.stdout)).toEqual(['gate file', 'helm-run', 'baseline helm-run output', 'manifest', 'archive'])
    expectSideGroup(run.stdout, 'baseline')
    expect(groupLines(run.stdout, 'archive').some(line => /^uploaded artifact helm-gate-baseline-/.test(line))).toBe(true)
  }, 60_000)

  it('mode run and mode compare: the shard folds each side, compare folds the shards; a shard that fails says error', async () => {
    const fake = await startFake()
    const text = scenario().gateFile({ entries: ['simple_mcqa', 'simple_classification'] })
    const shard = async (index: number, env: Record<string, string> = {}) =>
      runAction({
        fake,
        inputs: { config: GATE_PATH, mode: 'run', 'shard-index': String(index), 'shard-count': '2', baseline: 'run' },
        eventName: 'pull_request',
        payload: scenario().prPayload(fake),
        workspace: await scenario().workspaceWith(text),
        runId: 700,
        env: { FAKE_HELM_FIXTURES: scenario().fixtures, ...env }
      })
    fake.seedFile('a'.repeat(40), GATE_PATH, text)
    const [ok, failed] = await Promise.all([shard(0), shard(1, { FAKE_HELM_FAIL: 'candidate' })])

    expectOutcome(ok, 0, 'pass')
    const titles = ['gate file', 'baseline', 'helm-run', 'baseline helm-run output', 'candidate helm-run output', 'manifest', 'evidence']
    expect(phaseTitles(ok.stdout)).toEqual(titles)
    expectSideGroup(ok.stdout, 'baseline')
    expectSideGroup(ok.stdout, 'candidate')

    // The failing shard: verdict error, the job fails, and its candidate's traceback is in its group.
    expectOutcome(failed, 1, 'error')
    expect(phaseTitles(failed.stdout)).toEqual(titles)
    expect(groupLines(failed.stdout, 'candidate helm-run output')).toContain(
      '[candidate] helm.benchmark.runner.RunnerError: Failed runs: ["simple_classification:model=simple_model1"]'
    )
    expect(helmLines(groupLines(failed.stdout, 'baseline helm-run output'))).toHaveLength(2)

    const compare = await runAction({
      fake,
      inputs: { config: GATE_PATH, mode: 'compare' },
      eventName: 'pull_request',
      payload: scenario().prPayload(fake),
      workspace: await scenario().workspaceWith(text),
      runId: 700
    })
    expectOutcome(compare, 1, 'error')
    expect(phaseTitles(compare.stdout)).toEqual(['gate file', 'shards', 'compare', 'evidence', 'publish'])
    expect(fake.comments[0].body).toMatch(/shard 1 did not complete/)
  }, 90_000)
})
