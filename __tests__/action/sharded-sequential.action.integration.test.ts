/**
 * A sharded gate file with `sequential:` through the bundled action (dist/index.js) against a
 * loopback GitHub: each shard runs the fixed design at the section's budget (no staged
 * pre-flight refusal), the aggregating job's verdict is that design's, and its notes say what
 * stopping would have saved (docs/method.md "Sequential verdicts", "Shards"). HELM is the fake
 * helm-run of test-support/action-harness, which copies real HELM run directories.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { runAction } from '../../test-support/action-harness/harness.js'
import { BASE_SHA, expectOutcome, GATE_PATH, useGateScenario } from '../../test-support/action-harness/scenario.js'

const harness = useGateScenario()

interface Row {
  run: string
  verdict: string
  sequential?: unknown
}

describe('a sharded sequential gate', () => {
  it('runs every shard at the budget, keeps the fixed verdicts and notes the replayed stop', async () => {
    const scenario = harness.scenario()
    const fake = await harness.startFake()
    // max_eval_instances above the budget: the shards and the aggregating job must both take the
    // fixed design at the budget, or the fingerprints they are matched by differ.
    const text = scenario
      .gateFile({ entries: ['simple_mcqa', 'simple_classification'], extra: 'sequential:\n  looks: [20, 40, 79]\n' })
      .replace('max_eval_instances: 79', 'max_eval_instances: 200')
    fake.seedFile(BASE_SHA, GATE_PATH, text)
    const shard = async (index: number) =>
      runAction({
        fake,
        inputs: { config: GATE_PATH, mode: 'run', 'shard-index': String(index), 'shard-count': '2', baseline: 'run' },
        eventName: 'pull_request',
        payload: scenario.prPayload(fake),
        workspace: await scenario.workspaceWith(text),
        runId: 710,
        env: { FAKE_HELM_FIXTURES: scenario.fixtures, FAKE_HELM_CANDIDATE_LOSSES: index === 1 ? '30' : '0' }
      })
    const shards = await Promise.all([shard(0), shard(1)])
    expect(shards.map(s => [s.code, s.outputs.verdict])).toEqual([
      [0, 'pass'],
      [0, 'pass']
    ])
    expect(shards.map(s => s.stdout).join('\n')).not.toMatch(/cannot_stage/)
    // One helm-run per side, not one per look: the fixed design.
    expect(shards[1].stdout.match(/fake helm-run: side \w+, suite/g)).toHaveLength(2)

    const compare = await runAction({
      fake,
      inputs: { config: GATE_PATH, mode: 'compare' },
      eventName: 'pull_request',
      payload: scenario.prPayload(fake),
      workspace: await scenario.workspaceWith(text),
      runId: 710
    })
    expectOutcome(compare, 1, 'fail')
    const report = JSON.parse(await readFile(compare.outputs['report-path'], 'utf8'))
    const rows = report.comparisons as Row[]
    const verdictOf = (scenarioName: string) => rows.find(r => r.run.split(':')[0] === scenarioName)?.verdict
    // The fixed design's verdicts: 30 of 79 answers lost fails, none lost passes.
    expect(verdictOf('simple_mcqa')).toBe('pass')
    expect(verdictOf('simple_classification')).toBe('fail')
    expect(rows.every(r => r.sequential === undefined)).toBe(true)
    expect(report.errors.map((e: { code: string }) => e.code)).not.toContain('sequential.row_undecided')

    const notes = report.notes as string[]
    expect(notes).toContain("Sequential: the shards ran the fixed design at the budget (n = 79); the verdicts are its intervals'.")
    const replay = (label: string) => notes.find(n => n.startsWith(`Sequential replay of ${label} over the pooled shards`))
    // 30 of 79 lost is far beyond the margin: the sequence is certain before the budget.
    expect(replay('simple_classification exact_match')).toMatch(/would have stopped at n = (20|40) of 79 \(fail, certain\)/)
    expect(replay('simple_mcqa exact_match')).toMatch(
      /: would have (stopped at n = \d+ of 79 \(pass, certain\)|decided only at the budget \(n = 79\): pass|run to the budget \(n = 79\) undecided)/
    )
    expect(notes.filter(n => n.includes('The verdict is the fixed design'))).toHaveLength(2)
    expect(fake.violations).toEqual([])
  }, 120_000)
})
