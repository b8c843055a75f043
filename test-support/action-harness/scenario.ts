/**
 * The pieces the bundled action's integration tests share: a gate file whose two deployments
 * are served by the fake helm-run (real HELM run directories, controlled accuracy), a workspace
 * holding it, pull_request payloads, and the runs a test makes (a PR gate, a baseline archive).
 */
import { afterEach, beforeAll } from '@jest/globals'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { FakeGitHub } from '../fake-github/server.js'
import { helmRunFixtures } from './fixtures.js'
import { installFakeHelmRun, runAction, type ActionRun } from './harness.js'

export const BASE_SHA = 'a'.repeat(40)
export const HEAD_SHA = 'd'.repeat(40)
export const GATE_PATH = '.github/helm-gate.yml'

export interface GateRun {
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

export interface GateScenario {
  /** The suite directory of real HELM runs the fake helm-run copies. */
  fixtures: string
  gateFile(options?: { maxDrop?: number; entries?: string[]; extra?: string }): string
  workspaceWith(text: string, gatePath?: string): Promise<string>
  prPayload(fake: FakeGitHub, options?: { forkId?: number; author?: string }): Record<string, unknown>
  /** A pull_request run of mode gate; the base commit's gate file is served by the contents API. */
  gatePullRequest(options: GateRun): Promise<ActionRun>
  /** Mode baseline on a push to main, as the refresh workflow runs it. */
  archiveBaseline(fake: FakeGitHub, runId: number, text?: string): Promise<ActionRun>
}

export async function gateScenario(): Promise<GateScenario> {
  const fixtures = await helmRunFixtures()
  const root = await mkdtemp(path.join(tmpdir(), 'helm-gate-it-'))
  const helmRun = await installFakeHelmRun(path.join(root, 'bin'))
  const prodEnv = path.join(root, 'prod_env')
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

  const gateFile: GateScenario['gateFile'] = (options = {}) => {
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

  const workspaceWith: GateScenario['workspaceWith'] = async (text, gatePath = GATE_PATH) => {
    const workspace = await mkdtemp(path.join(tmpdir(), 'helm-gate-ws-'))
    await mkdir(path.join(workspace, path.dirname(gatePath)), { recursive: true })
    await writeFile(path.join(workspace, gatePath), text)
    return workspace
  }

  const prPayload: GateScenario['prPayload'] = (fake, options = {}) => {
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

  const gatePullRequest: GateScenario['gatePullRequest'] = async options => {
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

  const archiveBaseline: GateScenario['archiveBaseline'] = async (fake, runId, text = gateFile()) => {
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
    if (result.code !== 0) throw new Error(`mode baseline failed (exit ${result.code})\n${result.stdout}\n${result.stderr}`)
    return result
  }

  return { fixtures, gateFile, workspaceWith, prPayload, gatePullRequest, archiveBaseline }
}

function describeRun(run: ActionRun): string {
  return `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`
}

/** Exit code and verdict, with the action's output in the failure message. */
export function expectOutcome(run: ActionRun, code: number, verdict: string): void {
  if (run.code !== code || run.outputs.verdict !== verdict) {
    throw new Error(`expected exit ${code} and verdict ${verdict}, got verdict ${run.outputs.verdict}\n${describeRun(run)}`)
  }
}

/**
 * For a test file: the scenario, made once (beforeAll), and fake GitHubs started per test and
 * stopped after it (afterEach).
 */
export function useGateScenario(): { scenario(): GateScenario; startFake(): Promise<FakeGitHub> } {
  let made: GateScenario | null = null
  const fakes: FakeGitHub[] = []
  beforeAll(async () => {
    made = await gateScenario()
  }, 120_000)
  afterEach(async () => {
    for (const fake of fakes.splice(0)) await fake.stop()
  })
  return {
    scenario: () => {
      if (!made) throw new Error('the scenario is made in beforeAll')
      return made
    },
    startFake: async () => {
      const fake = await new FakeGitHub().start()
      fakes.push(fake)
      return fake
    }
  }
}
