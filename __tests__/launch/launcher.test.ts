/**
 * The launch lifecycle with real processes: the fake OpenAI server started through a script of a
 * fixture repository (a shell leader with the server as its child, so "the whole group" matters),
 * readiness, masking, the failure paths, and the stop. Every test ends by checking, by pid, that
 * no process of the launched group is alive.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { parseGateConfig } from '../../src/config/load.js'
import { GateError } from '../../src/errors.js'
import { Launcher } from '../../src/launch/launcher.js'
import { groupAlive, processAlive, trackedGroups } from '../../src/process/registry.js'
import { SERVER_SCRIPT } from '../../test-support/fake-openai/harness.js'
import { freePort, gitIn, makeFixtureRepo, type ServingBehaviour } from '../../test-support/launch/fixture-repo.js'

const START_SCRIPT = `#!/bin/sh
# The server as a child of this shell: the launch must stop the whole process group.
echo "starting with token $HF_TOKEN"
"$HG_NODE" "$HG_SERVER" --config serving/fake.json "$@" &
wait
`
const TOKEN = 'hf_secret_0123456789abcdef'

interface LaunchYaml {
  command?: string[]
  checkout?: 'head' | 'base'
  ready_timeout_seconds?: number
  stop?: Record<string, unknown>
  stop_command?: string[]
}

async function setUp(base: ServingBehaviour, head: ServingBehaviour, launch: LaunchYaml = {}, fixedPort?: number) {
  const repo = await makeFixtureRepo(base, head, { 'serving/start.sh': START_SCRIPT })
  const port = fixedPort ?? (await freePort())
  const pidFile = join(repo.dir, `server-${port}.pid`)
  const text = stringify({
    version: 1,
    deployments: {
      baseline: {
        api: 'chat',
        base_url: `http://127.0.0.1:${port}/v1`,
        model: 'gate-model',
        launch: {
          command: ['sh', 'serving/start.sh', '--port', '${HG_PORT}', '--pid-file', '${HG_PID_FILE}', '--model', 'gate-model'],
          ready_timeout_seconds: 20,
          stop: { timeout_seconds: 5 },
          ...launch
        }
      },
      candidate: { api: 'chat', base_url: 'http://127.0.0.1:9/v1', model: 'other' }
    },
    runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }]
  })
  const config = parseGateConfig(text, join(repo.dir, 'gate.yml'))
  const env = {
    ...process.env,
    HG_NODE: process.execPath,
    HG_SERVER: SERVER_SCRIPT,
    HG_PORT: String(port),
    HG_PID_FILE: pidFile,
    HF_TOKEN: TOKEN
  }
  const open = (baseRef: string | null = null) =>
    Launcher.open({ config, cwd: repo.dir, env, baseRef, outDir: join(repo.dir, 'out'), tempDir: repo.dir })
  return { repo, port, pidFile, open, outDir: join(repo.dir, 'out') }
}

async function serverPid(file: string): Promise<number> {
  return Number((await readFile(file, 'utf8')).trim())
}

const started: number[] = []
afterAll(() => {
  // Nothing may outlive the tests, whatever failed.
  for (const pid of started) expect(groupAlive(pid)).toBe(false)
  expect(trackedGroups()).toEqual([])
})

describe('Launcher', () => {
  it('starts the server from the checked-out tree, waits for /models, masks secrets and stops the whole group', async () => {
    const { open, pidFile, outDir, port } = await setUp({ accuracy: 1, startDelayMs: 200 }, { accuracy: 0.5, startDelayMs: 200 })
    const launcher = (await open()) as Launcher
    expect(launcher.launches('baseline')).toBe(true)
    expect(launcher.launches('candidate')).toBe(false)
    expect(launcher.schedule).toBe('sequential')
    const probe = await launcher.up('baseline')
    expect(probe.models).toEqual(['gate-model'])
    const record = launcher.manifest().sides.baseline!
    const leader = record.pid as number
    started.push(leader)
    const child = await serverPid(pidFile)
    expect(child).not.toBe(leader)
    expect(processAlive(child)).toBe(true)
    // The head tree's file: accuracy 0.5.
    const state = (await (await fetch(`http://127.0.0.1:${port}/control`)).json()) as { behaviour: { accuracy: number } }
    expect(state.behaviour.accuracy).toBe(0.5)

    await launcher.down('baseline')
    expect(groupAlive(leader)).toBe(false)
    expect(processAlive(child)).toBe(false)
    const manifest = launcher.manifest()
    expect(manifest.interleaving_possible).toBe(false)
    const stop = manifest.sides.baseline!.stop!
    expect(Date.parse(stop.stopped_at)).toBeGreaterThanOrEqual(Date.parse(record.ready_at as string))
    expect(record.command).toContain('${HG_PORT}') // as written: values stay out of the manifest
    const log = await readFile(join(outDir, 'logs', 'baseline-server.log'), 'utf8')
    expect(log).toContain('starting with token ***')
    expect(log).toContain('fake-openai listening')
    expect(log).not.toContain(TOKEN)
    await launcher.close()
  })

  it('runs checkout: base from a worktree of the base commit and removes it afterwards', async () => {
    const { open, repo, port } = await setUp({ accuracy: 0.25 }, { accuracy: 0.75 }, { checkout: 'base' })
    const launcher = (await open(repo.baseSha)) as Launcher
    await launcher.up('baseline')
    started.push(launcher.manifest().sides.baseline!.pid as number)
    const state = (await (await fetch(`http://127.0.0.1:${port}/control`)).json()) as { behaviour: { accuracy: number } }
    expect(state.behaviour.accuracy).toBe(0.25)
    expect(launcher.manifest().sides.baseline!.commit).toBe(repo.baseSha)
    expect(launcher.manifest().base_commit).toBe(repo.baseSha)
    expect(await gitIn(repo.dir, ['worktree', 'list'])).toContain('helm-gate-base-')
    await launcher.close()
    expect(await gitIn(repo.dir, ['worktree', 'list'])).not.toContain('helm-gate-base-')
  })

  it('refuses checkout: base without a base commit, before starting anything', async () => {
    const { open } = await setUp({}, {}, { checkout: 'base' })
    await expect(open(null)).rejects.toThrow(/checkout is base but no base commit is known.*--baseline-ref/)
  })

  it('names the command argument whose variable is not set', async () => {
    const { open } = await setUp({}, {}, { command: ['sh', 'serving/start.sh', '--port', '${HG_NOT_SET}'] })
    const error = await open().catch(e => e as GateError)
    expect(error).toBeInstanceOf(GateError)
    expect((error as GateError).location.field).toBe('deployments.baseline.launch.command[3]')
    expect((error as GateError).location.value).toBe('HG_NOT_SET')
  })

  it('a server that exits before it is ready is an error quoting its log; nothing is left running', async () => {
    const { open } = await setUp(
      { startDelayMs: 100, failStart: 'CUDA out of memory (simulated)' },
      { startDelayMs: 100, failStart: 'CUDA out of memory (simulated)' }
    )
    const launcher = (await open()) as Launcher
    const error = (await launcher.up('baseline').catch(e => e)) as GateError
    expect(error.code).toBe('launch.exited_before_ready')
    expect(error.message).toContain('CUDA out of memory (simulated)')
    expect(error.message).toContain('logs/baseline-server.log')
    const pid = launcher.manifest().sides.baseline!.pid as number
    started.push(pid)
    await launcher.close()
    expect(groupAlive(pid)).toBe(false)
    expect(launcher.manifest().sides.baseline!.errors[0].code).toBe('launch.exited_before_ready')
  })

  it('a server still loading after ready_timeout_seconds is an error and is killed', async () => {
    const { open, pidFile } = await setUp({ startDelayMs: 60_000 }, { startDelayMs: 60_000 }, { ready_timeout_seconds: 0.6 })
    const launcher = (await open()) as Launcher
    const error = (await launcher.up('baseline').catch(e => e)) as GateError
    expect(error.code).toBe('launch.ready_timeout')
    expect(error.message).toContain('start delay 60000 ms')
    // The timeout that applied, where it is set, and nothing about --ready-timeout (which does
    // not apply to launched servers); the last probe's own problem, not a copy of another message.
    expect(error.message).toMatch(
      /^baseline server was not ready after \d+\.\d s: its readiness timeout is 0\.6 s \(deployments\.baseline\.launch\.ready_timeout_seconds; last probe: [^;()]*ECONNREFUSED[^;()]*\); last lines of logs\/baseline-server\.log:/
    )
    expect(error.message).not.toContain('--ready-timeout')
    const pid = launcher.manifest().sides.baseline!.pid as number
    started.push(pid)
    const child = await serverPid(pidFile)
    await launcher.down('baseline')
    expect(groupAlive(pid)).toBe(false)
    expect(processAlive(child)).toBe(false)
  })

  it('kills a server that ignores the stop signal after stop.timeout_seconds, then runs stop_command', async () => {
    const port = await freePort()
    const ignoring = `process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
require('http').createServer((q, r) => r.end(JSON.stringify({ data: [{ id: 'gate-model' }] }))).listen(${port}, '127.0.0.1', () => console.log('up'))`
    const { open, repo } = await setUp(
      {},
      {},
      {
        command: [process.execPath, '-e', ignoring],
        stop: { signal: 'SIGTERM', timeout_seconds: 0.5 },
        stop_command: [process.execPath, '-e', "require('fs').writeFileSync('stopped.txt', 'yes')"]
      },
      port
    )
    const launcher = (await open()) as Launcher
    await launcher.up('baseline')
    const pid = launcher.manifest().sides.baseline!.pid as number
    started.push(pid)
    await launcher.down('baseline')
    expect(groupAlive(pid)).toBe(false)
    const stop = launcher.manifest().sides.baseline!.stop!
    expect(stop.killed).toBe(true)
    expect(stop.stop_command_exit).toBe(0)
    expect(existsSync(join(repo.dir, 'stopped.txt'))).toBe(true)
    const log = await readFile(join(repo.dir, 'out', 'logs', 'baseline-server.log'), 'utf8')
    expect(log).toContain('ignoring SIGTERM')
    expect(log).toMatch(/did not exit within 1 s; SIGKILL/)
  })

  it('refuses to launch when something already answers at the address', async () => {
    const squatter: Server = createServer((_q, r) => r.end('{"data":[{"id":"gate-model"}]}'))
    await new Promise<void>(resolve => squatter.listen(0, '127.0.0.1', resolve))
    const port = (squatter.address() as { port: number }).port
    try {
      const { open } = await setUp({}, {}, {}, port)
      const launcher = (await open()) as Launcher
      const error = (await launcher.up('baseline').catch(e => e)) as GateError
      expect(error.code).toBe('launch.address_in_use')
      expect(launcher.manifest().sides.baseline!.pid).toBeNull()
      await launcher.close()
    } finally {
      squatter.close()
    }
  })
})
