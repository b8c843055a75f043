/**
 * The bundled action's mode compare on two existing lm-eval output folders (inputs baseline-path
 * and candidate-path) against a local GitHub: the verdict, the sticky comment with the changed
 * answers, and the evidence, with no shard artifacts and no helm-run.
 */
import { describe, expect, it } from '@jest/globals'
import { cp, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runAction } from '../../test-support/action-harness/harness.js'
import { BASE_SHA, expectOutcome, GATE_PATH, useGateScenario } from '../../test-support/action-harness/scenario.js'
import { LM_EVAL_BASELINE, LM_EVAL_DEGRADED, LM_EVAL_EQUIVALENT } from '../lmeval/fixtures.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/lm-eval/gate.yml', import.meta.url))
const harness = useGateScenario()

async function compareFolders(candidate: string, inputs: Record<string, string> = {}) {
  const fake = await harness.startFake()
  const text = await readFile(EXAMPLE, 'utf8')
  fake.seedFile(BASE_SHA, GATE_PATH, text)
  const workspace = await harness.scenario().workspaceWith(text)
  await cp(LM_EVAL_BASELINE, path.join(workspace, 'lm-eval', 'baseline'), { recursive: true })
  await cp(candidate, path.join(workspace, 'lm-eval', 'candidate'), { recursive: true })
  const run = await runAction({
    fake,
    inputs: { config: GATE_PATH, mode: 'compare', 'baseline-path': 'lm-eval/baseline', 'candidate-path': 'lm-eval/candidate', ...inputs },
    eventName: 'pull_request',
    payload: harness.scenario().prPayload(fake),
    workspace,
    runId: 900
  })
  return { fake, run }
}

describe('mode compare on lm-eval output folders (bundled action)', () => {
  it('fails a degraded candidate and publishes the comment with its changed answers', async () => {
    const { fake, run } = await compareFolders(LM_EVAL_DEGRADED)
    expectOutcome(run, 1, 'fail')
    const report = JSON.parse(await readFile(run.outputs['report-path'], 'utf8'))
    expect(report.comparisons.map((c: { run: string; verdict: string }) => [c.run, c.verdict])).toEqual([
      ['gate_arith', 'fail'],
      ['gate_arith_zeroshot', 'fail']
    ])
    expect(report.notes).not.toContain('Aggregated 0 shard(s).')
    expect(fake.comments).toHaveLength(1)
    expect(fake.comments[0].body).toContain('Question: What is')
    expect(fake.violations).toEqual([])
  }, 90_000)

  it('passes an equivalent candidate', async () => {
    const { run } = await compareFolders(LM_EVAL_EQUIVALENT)
    expectOutcome(run, 0, 'pass')
  }, 90_000)

  it('refuses baseline-path without candidate-path, naming the input', async () => {
    const { run } = await compareFolders(LM_EVAL_EQUIVALENT, { 'candidate-path': '' })
    expect(run.code).not.toBe(0)
    expect(`${run.stdout}${run.stderr}`).toContain('candidate-path is empty')
  }, 90_000)
})
