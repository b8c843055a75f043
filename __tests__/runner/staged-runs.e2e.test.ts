/**
 * The sequential gate's staged quality half on the real helm-run 0.5.16 against loopback fake
 * servers: the real stage runner (helm-run per stage on both sides at once, read by the
 * comparison's own reader) under the stop-or-continue loop. Equal sides pass before the budget;
 * a candidate that answers wrong fails at the first look and runs no later stage; the last stage's
 * run directories are copied where the final comparison reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GateConfig, GatedRun } from '../../src/config/types.js'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import { compareOutputs } from '../../src/gate/compare.js'
import type { HelmProcessResult } from '../../src/runner/helm-process.js'
import { serverProdEnv } from '../../src/runner/prod-env.js'
import { planSide, type Side, type SidePlan } from '../../src/runner/side-plan.js'
import { checkKey, helmStageRunner, keepLastStages } from '../../src/runner/staged-runs.js'
import { runStagedGate } from '../../src/sequential/staged-gate.js'
import { planStages } from '../../src/sequential/stages.js'
import {
  buildAnswerKey,
  helmAvailable,
  HELM_RUN,
  REPO_ROOT,
  startFakeServer,
  type FakeServer
} from '../../test-support/fake-openai/harness.js'

const describeHelm = helmAvailable() ? describe : describe.skip
const ENTRY = 'simple_mcqa'
// simple_mcqa: 79 test instances, its one evaluation split.
const N = 79

function gateConfig(maxDrop: number): GateConfig {
  const run: GatedRun = {
    entry: ENTRY,
    match: null,
    metric: 'exact_match',
    split: null,
    maxDrop,
    maxRelativeDrop: null,
    direction: 'higher',
    perturbations: 'report'
  }
  return {
    version: 1,
    source: 'gate.yml',
    helm: { version: '0.5.16', maxEvalInstances: N, numTrainTrials: 1, numThreads: 2, timeoutMinutes: 5, command: HELM_RUN },
    deployments: null,
    runs: [run],
    statistics: { ...DEFAULT_STATISTICS, resamples: 500 }
  }
}

describeHelm('staged helm-run under the sequential verdict', () => {
  let right: FakeServer
  let wrong: FakeServer
  let dir: string
  beforeAll(async () => {
    const answerKeys = [await buildAnswerKey([ENTRY])]
    ;[right, wrong] = await Promise.all([
      startFakeServer({ answerKeys, accuracy: 0.8, seed: 1 }),
      startFakeServer({ answerKeys, accuracy: 0, seed: 1 })
    ])
    dir = await mkdtemp(join(tmpdir(), 'helm-gate-staged-'))
  }, 300_000)
  afterAll(async () => {
    await Promise.all([right?.stop(), wrong?.stop()])
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  async function sidePlans(name: string, config: GateConfig, candidate: FakeServer): Promise<Record<Side, SidePlan>> {
    const plan = async (side: Side, server: FakeServer): Promise<SidePlan> => {
      const prodEnv = serverProdEnv({
        kind: 'server',
        api: 'completions',
        baseUrl: server.baseUrl,
        model: 'gate-model',
        tokenizer: 'simple/tokenizer1',
        maxSequenceLength: 4096,
        apiKeyEnv: null,
        requestTimeoutSeconds: 30
      })
      const planned = planSide({
        side,
        prodEnv,
        helm: config.helm!,
        runs: config.runs,
        outDir: join(dir, name),
        tempDir: join(dir, name, 'tmp'),
        stamp: 'staged',
        command: HELM_RUN,
        cwd: dir
      })
      await mkdir(planned.localPath, { recursive: true })
      for (const [file, text] of Object.entries(prodEnv.files)) await writeFile(join(planned.localPath, file), text)
      return planned
    }
    return { baseline: await plan('baseline', right), candidate: await plan('candidate', candidate) }
  }

  async function staged(name: string, maxDrop: number, candidate: FakeServer) {
    const config = gateConfig(maxDrop)
    const plans = await sidePlans(name, config, candidate)
    const stagePlan = planStages({ entry: ENTRY, evalInstances: N, comparedInstances: N }, { looks: [20, 40], budget: N })
    const results: Record<Side, HelmProcessResult[]> = { baseline: [], candidate: [] }
    const runStage = helmStageRunner(
      {
        config,
        plans,
        stages: stagePlan.stages,
        env: { ...process.env, PYTHONPATH: join(REPO_ROOT, 'python') },
        secrets: [],
        timeoutMs: 240_000,
        stallMs: { baseline: null, candidate: null }
      },
      results
    )
    const outcome = await runStagedGate({
      plans: [stagePlan],
      checks: config.runs.map(run => ({
        key: checkKey(config, run),
        entry: run.entry,
        metric: run.metric,
        margin: maxDrop,
        direction: run.direction
      })),
      alpha: 0.05,
      seed: 0,
      runStage
    })
    for (const side of ['baseline', 'candidate'] as const) await keepLastStages(plans[side], config, outcome.lastStage, stagePlan.stages)
    return { config, plans, outcome, results }
  }

  it('passes equal sides before the budget, and the final comparison reads the last stage', async () => {
    // All-zero differences: the sequence clears a margin of 0.2 at n = 40 of 79 (docs/method.md).
    const { config, plans, outcome, results } = await staged('equal', 0.2, right)
    const [check] = outcome.checks
    expect(check).toMatchObject({ key: 'runs[0]', decision: 'pass', certain: true, stoppedAt: 40, budget: N })
    expect(check.looks.map(look => [look.n, look.decision])).toEqual([
      [20, 'continue'],
      [40, 'pass']
    ])
    expect(check.requestsSpent).toBe(2 * (20 + 40))
    expect(check.requestsFixed).toBe(2 * N)
    // Two stages ran on each side, the stage 3 (n = 79) never.
    expect(results.baseline).toHaveLength(2)
    expect(results.candidate.every(result => result.exitCode === 0)).toBe(true)
    const runs = await readdir(join(plans.baseline.outputPath, 'runs', plans.baseline.suite))
    expect(runs.filter(run => run.startsWith(`${ENTRY}:`))).toHaveLength(1)
    const report = await compareOutputs(plans.baseline.outputPath, plans.candidate.outputPath, config)
    const row = report.comparisons.find(c => c.gated)!
    expect(row.n).toBe(40)
  }, 300_000)

  it('fails a candidate that answers wrong at the first look and runs no later stage', async () => {
    const { outcome, results } = await staged('worse', 0.05, wrong)
    expect(outcome.checks[0]).toMatchObject({ decision: 'fail', certain: true, stoppedAt: 20 })
    expect(outcome.checks[0].looks.at(-1)!.high).toBeLessThan(-0.05)
    expect(results.baseline).toHaveLength(1)
    expect(outcome.checks[0].requestsSpent).toBe(40)
  }, 300_000)
})
