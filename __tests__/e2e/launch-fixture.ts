/**
 * Set-up of the launch end-to-end tests: a fixture git repository (test-support/launch) whose
 * base commit and pull-request head differ in serving/fake.json, a start script that runs the fake
 * OpenAI server as a child of a shell (so stopping "the group" matters), and a gate file that
 * launches the baseline from the base commit and the candidate from the checked-out head.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { chmod, copyFile, mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { expect } from '@jest/globals'
import { groupAlive, processAlive } from '../../src/process/registry.js'
import type { Manifest as RunManifest } from '../../src/model/manifest.js'
import { HELM_RUN, REPO_ROOT, SERVER_SCRIPT } from '../../test-support/fake-openai/harness.js'
import { freePort, makeFixtureRepo, type FixtureRepo, type ServingBehaviour } from '../../test-support/launch/fixture-repo.js'

export const GATE_PATH = '.github/helm-gate.yml'
const FAKE_DOCKER = join(REPO_ROOT, 'test-support', 'launch', 'fake-docker.sh')

const START_SCRIPT = `#!/bin/sh
# The fake server reads its behaviour from this tree's serving/fake.json.
echo "serving from $(pwd)"
# HG_ONE_START (a launch env): a server that can be started once, then refuses (a failed swap).
if [ -n "$HG_ONE_START" ]; then
  if [ -e "$HG_ONE_START" ]; then echo "refusing a second start (simulated)"; exit 3; fi
  touch "$HG_ONE_START"
fi
"$HG_NODE" "$HG_SERVER" --config serving/fake.json --answer-key "$HG_ANSWER_KEY" --model gate-model "$@" &
wait
`

export interface LaunchGateOptions {
  schedule?: 'sequential' | 'concurrent'
  maxEvalInstances?: number
  maxDrop?: number
  candidateReadyTimeoutSeconds?: number
  timeoutMinutes?: number
  /**
   * Launch each side with `docker run IMAGE` instead of the start script, through the fake docker
   * CLI (test-support/launch/fake-docker.sh) put first on PATH.
   */
  dockerImages?: { baseline: string; candidate: string }
  /** The gate file's load: section (the performance half), when wanted. */
  load?: Record<string, unknown>
  /** More arguments for each side's server (e.g. `--stream-engine` for the load half). */
  serverArgs?: { baseline?: string[]; candidate?: string[] }
  /** More keys of each side's launch section (e.g. `switch`, `env`). */
  launchExtra?: { baseline?: Record<string, unknown>; candidate?: Record<string, unknown> }
  /** Each side on its own port even with a sequential schedule (servers kept resident asleep). */
  ownPorts?: boolean
}

export interface LaunchFixture extends FixtureRepo {
  gateText: string
  /** Where the servers write their pid files (one per side). */
  pidDir: string
  /** Environment the gate's `${VAR}`s need. */
  env: Record<string, string>
}

export async function launchFixture(
  answerKey: string,
  base: ServingBehaviour,
  head: ServingBehaviour,
  options: LaunchGateOptions = {}
): Promise<LaunchFixture> {
  const schedule = options.schedule ?? 'sequential'
  // Sequential: both sides on one port, as two images on a GPU host would be.
  const basePort = await freePort()
  const candidatePort = schedule === 'sequential' && !options.ownPorts ? basePort : await freePort()
  const side = (port: number, checkout: 'base' | 'head', name: string, readyTimeout: number) => ({
    api: 'chat',
    base_url: `http://127.0.0.1:${port}/v1`,
    model: 'gate-model',
    tokenizer: 'simple/tokenizer1',
    max_sequence_length: 100000,
    request_timeout_seconds: 10,
    launch: {
      command: [
        ...(options.dockerImages
          ? [
              'docker',
              'run',
              '--rm',
              '-p',
              `${port}:${port}`,
              '--name',
              `hg-${name}`,
              options.dockerImages[name as 'baseline' | 'candidate'],
              '--config',
              'serving/fake.json'
            ]
          : ['sh', 'serving/start.sh']),
        '--port',
        String(port),
        '--pid-file',
        `\${HG_PID_DIR}/${name}.pid`,
        ...(options.serverArgs?.[name as 'baseline' | 'candidate'] ?? [])
      ],
      checkout,
      ready_timeout_seconds: readyTimeout,
      stop: { signal: 'SIGTERM', timeout_seconds: 5 },
      ...(options.launchExtra?.[name as 'baseline' | 'candidate'] ?? {})
    }
  })
  const gateText = stringify({
    version: 1,
    helm: {
      version: '0.5.16',
      max_eval_instances: options.maxEvalInstances ?? 40,
      num_threads: 4,
      timeout_minutes: options.timeoutMinutes ?? 10,
      command: HELM_RUN
    },
    deployments: {
      baseline: side(basePort, 'base', 'baseline', 30),
      candidate: side(candidatePort, 'head', 'candidate', options.candidateReadyTimeoutSeconds ?? 30)
    },
    schedule,
    fingerprint_paths: ['serving/**'],
    runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: options.maxDrop ?? 0.1 }],
    statistics: { resamples: 2000 },
    ...(options.load ? { load: options.load } : {})
  })
  const repo = await makeFixtureRepo(base, head, { [GATE_PATH]: gateText, 'serving/start.sh': START_SCRIPT })
  const pidDir = join(repo.dir, '.pids')
  await mkdir(pidDir)
  const env: Record<string, string> = { HG_NODE: process.execPath, HG_SERVER: SERVER_SCRIPT, HG_ANSWER_KEY: answerKey, HG_PID_DIR: pidDir }
  if (options.dockerImages) {
    const bin = join(repo.dir, '..', `${repo.dir.split('/').pop()}-bin`)
    await mkdir(join(bin, 'state'), { recursive: true })
    await copyFile(FAKE_DOCKER, join(bin, 'docker'))
    await chmod(join(bin, 'docker'), 0o755)
    env.PATH = `${bin}:${process.env.PATH ?? ''}`
    env.HG_DOCKER_STATE = join(bin, 'state')
  }
  return { ...repo, gateText, pidDir, env }
}

/** Every pid helm-gate and the servers recorded: none may be alive after the run. */
export async function expectNothingAlive(fixture: LaunchFixture, manifest: RunManifest | null): Promise<number[]> {
  const pids: number[] = []
  for (const record of Object.values(manifest?.launch?.sides ?? {})) if (record.pid) pids.push(record.pid)
  let children: string[] = []
  try {
    children = await readdir(fixture.pidDir)
  } catch {
    // no server got as far as writing its pid
  }
  const childPids = await Promise.all(children.map(async name => Number((await readFile(join(fixture.pidDir, name), 'utf8')).trim())))
  for (const pid of pids) expect({ group: pid, alive: groupAlive(pid) }).toEqual({ group: pid, alive: false })
  for (const pid of childPids) expect({ pid, alive: processAlive(pid) }).toEqual({ pid, alive: false })
  expect(processesMentioning(fixture.dir)).toEqual([])
  return [...pids, ...childPids]
}

export async function readManifest(outDir: string): Promise<RunManifest | null> {
  try {
    return JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as RunManifest
  } catch {
    return null
  }
}

/** Live processes whose command line mentions `text` (helm-run's mentions its output folder). */
export function processesMentioning(text: string): string[] {
  const found: string[] = []
  for (const pid of readdirSync('/proc').filter(name => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
      if (cmdline.includes(text) && processAlive(Number(pid))) found.push(`${pid}: ${cmdline.slice(0, 200)}`)
    } catch {
      // gone
    }
  }
  return found
}
