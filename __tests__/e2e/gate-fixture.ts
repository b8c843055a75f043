/**
 * Shared set-up of the end-to-end tests: gate files written as YAML (so the real loader reads
 * them) pointing at fake servers, and a fresh output folder per test.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { afterAll, beforeAll } from '@jest/globals'
import {
  buildAnswerKey,
  HELM_RUN,
  startFakeServer,
  type FakeServer,
  type FakeServerOptions
} from '../../test-support/fake-openai/harness.js'
import { runAction, type ActionRun } from '../../test-support/action-harness/harness.js'
import type { FakeGitHub } from '../../test-support/fake-github/server.js'

export interface SideSpec {
  baseUrl: string
  api?: 'chat' | 'completions'
  model?: string
  apiKeyEnv?: string
  requestTimeoutSeconds?: number
}

export interface GateSpec {
  baseline: SideSpec
  candidate: SideSpec
  runs: Array<{
    entry: string
    metric: string
    max_drop?: number
    split?: string
    perturbations?: 'report' | 'gate'
    answer_length_ratio?: { min?: number; max?: number }
    calibration?: { metric?: 'ece' | 'brier'; max_increase: number }
  }>
  maxEvalInstances: number
  timeoutMinutes?: number
  numThreads?: number
  statistics?: Record<string, unknown>
}

export async function freshDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `helm-gate-e2e-${prefix}-`))
}

export function gateYaml(spec: GateSpec): string {
  const side = (s: SideSpec): Record<string, unknown> => ({
    api: s.api ?? 'chat',
    base_url: s.baseUrl,
    model: s.model ?? 'gate-model',
    tokenizer: 'simple/tokenizer1',
    max_sequence_length: 100000,
    request_timeout_seconds: s.requestTimeoutSeconds ?? 10,
    ...(s.apiKeyEnv ? { api_key_env: s.apiKeyEnv } : {})
  })
  return stringify({
    version: 1,
    helm: {
      version: '0.5.16',
      max_eval_instances: spec.maxEvalInstances,
      num_train_trials: 1,
      num_threads: spec.numThreads ?? 4,
      timeout_minutes: spec.timeoutMinutes ?? 10,
      command: HELM_RUN
    },
    deployments: { baseline: side(spec.baseline), candidate: side(spec.candidate) },
    runs: spec.runs.map(run => ({ max_drop: 0.05, ...run })),
    statistics: { resamples: 2000, ...(spec.statistics ?? {}) }
  })
}

export async function writeGateFile(dir: string, spec: GateSpec): Promise<string> {
  const file = join(dir, 'gate.yml')
  await writeFile(file, gateYaml(spec))
  return file
}

/**
 * Registers the suite's fake OpenAI servers: the answer key for `entries` is built once before
 * the tests (cached across files with the same entries), and every server started through the
 * returned function is stopped after them.
 */
export function useFakeServers(entries: string[]): (options?: Omit<FakeServerOptions, 'answerKeys'>) => Promise<FakeServer> {
  let key: string
  const servers: FakeServer[] = []
  beforeAll(async () => {
    key = await buildAnswerKey(entries)
  }, 300_000)
  afterAll(async () => {
    await Promise.all(servers.map(server => server.stop()))
  })
  return async (options = {}) => {
    const started = await startFakeServer({ answerKeys: [key], ...options })
    servers.push(started)
    return started
  }
}

export const BASE_SHA = 'a'.repeat(40)
export const HEAD_SHA = 'd'.repeat(40)
export const GATE_PATH = '.github/helm-gate.yml'

/**
 * The bundled action in mode gate on pull request 7 (base BASE_SHA, head HEAD_SHA): the gate file
 * `text` is at the base commit on the fake GitHub and in a fresh workspace, as a checkout has it.
 */
export async function gatePullRequest(
  fake: FakeGitHub,
  text: string,
  options: { runId: number; env?: Record<string, string>; timeoutMs: number }
): Promise<ActionRun> {
  fake.seedFile(BASE_SHA, GATE_PATH, text)
  const workspace = await mkdtemp(join(tmpdir(), 'helm-gate-e2e-ws-'))
  await mkdir(join(workspace, '.github'))
  await writeFile(join(workspace, GATE_PATH), text)
  const repository = { id: fake.repo.id, name: fake.repo.name, full_name: `${fake.repo.owner}/${fake.repo.name}`, default_branch: 'main' }
  return runAction({
    fake,
    inputs: { config: GATE_PATH, mode: 'gate', baseline: 'run' },
    eventName: 'pull_request',
    payload: {
      action: 'synchronize',
      number: 7,
      repository,
      pull_request: {
        number: 7,
        user: { login: 'octocat' },
        head: { sha: HEAD_SHA, ref: 'feature', repo: { id: fake.repo.id } },
        base: { sha: BASE_SHA, ref: 'main', repo: { id: fake.repo.id } }
      }
    },
    workspace,
    runId: options.runId,
    sha: 'e'.repeat(40),
    ref: 'refs/pull/7/merge',
    env: options.env,
    timeoutMs: options.timeoutMs
  })
}
