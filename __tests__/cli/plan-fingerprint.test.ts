/**
 * One fingerprint: for a gate that sets fingerprint_paths, `plan` shows the fingerprint that `run`
 * records (runSides), that runGate records when no side is run (merged shards) and the action
 * looks archived baselines up by (sessionFingerprint), the selected files' digests at the base
 * commit included. `plan` and runGate without a side to run used to take the gate file's alone.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { sessionFingerprint } from '../../src/action/launch-policy.js'
import type { Session } from '../../src/action/session.js'
import { planCommand } from '../../src/cli/commands/plan.js'
import type { CliIo } from '../../src/cli/io.js'
import { fingerprint } from '../../src/config/fingerprint.js'
import { loadGateConfig } from '../../src/config/load.js'
import { gateFingerprint } from '../../src/identity/gate-fingerprint.js'
import { runGate } from '../../src/pipeline/run-gate.js'
import { makeFixtureRepo } from '../../test-support/launch/fixture-repo.js'

const side = (port: number, checkout: 'base' | 'head') => ({
  api: 'chat',
  base_url: `http://127.0.0.1:${port}/v1`,
  model: 'served',
  launch: { command: ['sh', 'serving/start.sh'], checkout }
})

describe('the gate fingerprint with fingerprint_paths', () => {
  it('plan, run and the action agree, and the serving files count', async () => {
    const gate = stringify({
      version: 1,
      helm: { version: '0.5.16', max_eval_instances: 10, command: 'helm-run' },
      deployments: { baseline: side(8000, 'base'), candidate: side(8000, 'head') },
      schedule: 'sequential',
      fingerprint_paths: ['serving/**'],
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }]
    })
    const repo = await makeFixtureRepo({ accuracy: 1 }, { accuracy: 0.5 }, { 'gate.yml': gate })
    let text = ''
    const io: CliIo = { stdout: s => (text += s), stderr: s => (text += s), env: process.env, cwd: repo.dir }
    expect(await planCommand(['--config', 'gate.yml', '--no-count', '--baseline-ref', repo.baseSha], io)).toBe(0)
    const shown = /^# fingerprint ([0-9a-f]{64})$/m.exec(text)?.[1]

    const config = await loadGateConfig(join(repo.dir, 'gate.yml'))
    // What runSides records (src/runner/run-sides.ts) for --baseline-ref.
    const recorded = await gateFingerprint(config, repo.dir, repo.baseSha, process.env)
    // What the action looks archived baselines up by, on a pull request with that base.
    const session = {
      workDir: repo.dir,
      event: { pullRequest: { baseSha: repo.baseSha } },
      deps: { env: process.env }
    } as unknown as Session
    const action = await sessionFingerprint(session, config)
    // What runGate records when both sides are given (the action's merged shards), nothing run.
    const outDir = await mkdtemp(join(tmpdir(), 'helm-gate-fingerprint-'))
    try {
      const given = { path: join(outDir, 'given'), source: 'artifact' as const }
      const { manifest } = await runGate({
        config,
        outDir,
        given: { baseline: given, candidate: given },
        compare: false,
        mode: 'test',
        cwd: repo.dir,
        baseRef: repo.baseSha
      })
      expect({ plan: shown, action, merged: manifest.fingerprint }).toEqual({ plan: recorded, action: recorded, merged: recorded })
      expect(recorded).not.toBe(fingerprint(config))
    } finally {
      await rm(outDir, { recursive: true, force: true })
      await rm(repo.dir, { recursive: true, force: true })
    }
  })

  it('plan names the problem when fingerprint_paths select nothing', async () => {
    const gate = stringify({
      version: 1,
      helm: { version: '0.5.16', max_eval_instances: 10, command: 'helm-run' },
      deployments: { baseline: side(8000, 'base'), candidate: side(8000, 'head') },
      schedule: 'sequential',
      fingerprint_paths: ['nothing/**'],
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }]
    })
    const repo = await makeFixtureRepo({}, {}, { 'gate.yml': gate })
    let text = ''
    const io: CliIo = { stdout: s => (text += s), stderr: s => (text += s), env: process.env, cwd: repo.dir }
    expect(await planCommand(['--config', 'gate.yml', '--no-count'], io)).toBe(0)
    expect(text).toMatch(
      /^# fingerprint: could not be computed: fingerprint_paths\[0\] matches no file at commit [0-9a-f]{12} .*\(run would stop here\)$/m
    )
  })
})
