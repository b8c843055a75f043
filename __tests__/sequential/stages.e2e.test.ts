/**
 * Staged runs on the real helm-run 0.5.16 against a loopback fake server: each side run at two
 * stages of a plan, the arguments the repository's own side plan makes with the stage's size and
 * suite; the smaller stage's instances must be among the larger's, the same on both sides
 * (docs/helm.md "Staged runs (sequential verdicts)").
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GatedRun } from '../../src/config/types.js'
import { serverProdEnv } from '../../src/runner/prod-env.js'
import { planSide, type Side } from '../../src/runner/side-plan.js'
import { planStages, stageArgs, stageOrder, type HelmStage } from '../../src/sequential/stages.js'
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
const RUN: GatedRun = {
  entry: ENTRY,
  match: null,
  metric: 'exact_match',
  split: null,
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
}

describeHelm('staged helm-run', () => {
  let server: FakeServer
  let dir: string
  beforeAll(async () => {
    server = await startFakeServer({ answerKeys: [await buildAnswerKey([ENTRY])], accuracy: 0.8, seed: 1 })
    dir = await mkdtemp(join(tmpdir(), 'helm-gate-stages-'))
  }, 300_000)
  afterAll(async () => {
    await server?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  /** One side at one stage: real helm-run, then the unperturbed instance ids of its per_instance_stats.json. */
  async function runStage(side: Side, stage: HelmStage): Promise<string[]> {
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
    const plan = planSide({
      side,
      prodEnv,
      helm: { version: '0.5.16', maxEvalInstances: 100, numTrainTrials: 1, numThreads: 1, timeoutMinutes: 5, command: HELM_RUN },
      runs: [RUN],
      outDir: join(dir, 'out'),
      tempDir: join(dir, 'tmp'),
      stamp: 'staged',
      command: HELM_RUN,
      cwd: dir
    })
    await mkdir(plan.localPath, { recursive: true })
    for (const [name, text] of Object.entries(prodEnv.files)) await writeFile(join(plan.localPath, name), text)
    const args = stageArgs(plan.args, stage)
    await new Promise<void>((resolve, reject) => {
      execFile(
        HELM_RUN,
        args,
        { env: { ...process.env, PYTHONPATH: join(REPO_ROOT, 'python') }, timeout: 240_000 },
        (error, _out, stderr) => (error ? reject(new Error(`helm-run failed: ${stderr.slice(-2000)}`)) : resolve())
      )
    })
    const suiteDir = join(plan.outputPath, 'runs', `${plan.suite}-stage${stage.index}`)
    const runs = (await readdir(suiteDir)).filter(name => name.startsWith(`${ENTRY}:`))
    expect(runs).toHaveLength(1)
    const stats = JSON.parse(await readFile(join(suiteDir, runs[0], 'per_instance_stats.json'), 'utf8')) as Array<{
      instance_id: string
      perturbation?: unknown
    }>
    return [...new Set(stats.filter(row => row.perturbation === undefined).map(row => row.instance_id))]
  }

  it('gives nested stages with the same instances on both sides', async () => {
    // simple_mcqa: 79 test instances, its one evaluation split.
    const plan = planStages({ entry: ENTRY, evalInstances: 79, comparedInstances: 79 }, { looks: [3], budget: 7 })
    const [small, large] = plan.stages
    const sides: Record<Side, string[][]> = { baseline: [], candidate: [] }
    for (const stage of [small, large]) {
      const [baseline, candidate] = await Promise.all([runStage('baseline', stage), runStage('candidate', stage)])
      sides.baseline.push(baseline)
      sides.candidate.push(candidate)
    }
    expect(sides.baseline.map(ids => ids.length)).toEqual([3, 7])
    expect(sides.baseline[1]).toEqual(expect.arrayContaining(sides.baseline[0]))
    expect(new Set(sides.candidate[0])).toEqual(new Set(sides.baseline[0]))
    expect(new Set(sides.candidate[1])).toEqual(new Set(sides.baseline[1]))
    const order = stageOrder(plan, sides, 1)
    expect(new Set(order.slice(0, 3))).toEqual(new Set(sides.baseline[0]))
    expect(new Set(order)).toEqual(new Set(sides.baseline[1]))
  }, 300_000)
})
