/**
 * `helm-gate plan` prints the run plan (src/plan/run-plan.ts) as run makes it: each side's
 * endpoint (the URL's credentials masked, the model, the API, the key variable's name and whether
 * it is set, never its value), launched or always up, the schedule, the fingerprint, and the
 * measurements in the order they run. Spawns the built command line (npm run build first).
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { stringify } from 'yaml'
import { loadGateConfig } from '../../src/config/load.js'
import { makeRunPlan } from '../../src/plan/run-plan.js'

const CLI = resolve('dist/cli.js')
const BASE_KEY = 'sk-baseline-value-0123456789'

const gate = (extra: Record<string, unknown>) =>
  stringify({
    version: 1,
    helm: { version: '0.5.16', max_eval_instances: 10, command: 'helm-run' },
    deployments: {
      baseline: {
        api: 'chat',
        base_url: 'http://127.0.0.1:1/v1',
        model: 'served-f16',
        api_key_env: 'BASE_KEY',
        launch: { command: ['sh', 'serve.sh'], checkout: 'head' }
      },
      candidate: {
        api: 'chat',
        base_url: 'http://127.0.0.1:2/v1',
        model: 'served-q8',
        api_key_env: 'CAND_KEY'
      }
    },
    runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }],
    ...extra
  })

async function plan(
  text: string,
  env: Record<string, string>,
  args: string[] = []
): Promise<{ code: number | null; out: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-run-plan-'))
  await writeFile(join(dir, 'gate.yml'), text)
  await copyFile(resolve('examples/traffic/traffic.jsonl'), join(dir, 'traffic.jsonl'))
  const result = spawnSync(process.execPath, [CLI, 'plan', '--config', 'gate.yml', '--no-count', ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
    timeout: 120_000
  })
  return { code: result.status, out: `${result.stdout}${result.stderr}`, dir }
}

const sideLine = (out: string, side: string): string | undefined => new RegExp(`^# {3}${side}: .*$`, 'm').exec(out)?.[0]

describe('plan prints the run plan', () => {
  it('each side, the schedule, the fingerprint run records and every measurement in the order it runs', async () => {
    const text = gate({
      traffic: { set: 'traffic.jsonl', checks: { disagreement: 0.1 } },
      fidelity: { instances: 20, max_answer_tokens: 8, top_k: 5, checks: [{ metric: 'kld_mean', max: 0.01 }] },
      load: {
        workload: { prompts: 'synthetic', input_tokens: { mean: 50 }, output_tokens: { mean: 16 } },
        concurrency: [1],
        requests_per_level: 8,
        repetitions: 4,
        checks: [{ metric: 'error_rate', max: 0 }]
      }
    })
    const { code, out, dir } = await plan(text, { BASE_KEY })
    try {
      expect({ code, out: code === 0 ? '' : out }).toEqual({ code: 0, out: '' })
      expect(out).toContain('# run plan (made once before anything runs; run executes it):')
      expect(sideLine(out, 'baseline')).toBe(
        '#   baseline: http://127.0.0.1:1/v1 model served-f16, api chat, key BASE_KEY (set); launched by helm-gate (deployments.baseline.launch)'
      )
      expect(sideLine(out, 'candidate')).toBe(
        '#   candidate: http://127.0.0.1:2/v1 model served-q8, api chat, key CAND_KEY (NOT SET: run refuses it); always up (probed before the side runs)'
      )
      expect(out).toMatch(
        /^# {3}measurements, in order: the quality half \(helm-run on each side\); then the traffic replay .*; then token-level fidelity .*; then the load half .*$/m
      )
      expect(out).toMatch(/^# schedule: sequential \(the gate file\)/m)
      // The fingerprint is the one the run plan records (the manifest's), not recomputed another way.
      const shown = /^# fingerprint ([0-9a-f]{64})$/m.exec(out)?.[1]
      const config = await loadGateConfig(join(dir, 'gate.yml'))
      expect(shown).toBe((await makeRunPlan(config, { env: {}, cwd: dir, baseRef: null })).fingerprint)
      // Names, never values: the key is nowhere in the plan.
      expect(out).not.toContain(BASE_KEY)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('without other measurements only the quality half runs; a self-check shows the baseline on both sides and no load half', async () => {
    const text = gate({ load: { workload: { prompts: 'synthetic' }, concurrency: [1], requests_per_level: 8 } })
    const plain = await plan(gate({}), { BASE_KEY })
    const self = await plan(text, { BASE_KEY, CAND_KEY: 'sk-candidate-value-0123' }, ['--self-check', '--sequential'])
    try {
      expect(plain.code).toBe(0)
      expect(plain.out).toMatch(/^# {3}measurements, in order: the quality half \(helm-run on each side\)$/m)
      expect(self.code).toBe(0)
      expect(sideLine(self.out, 'candidate')).toBe(
        '#   candidate: http://127.0.0.1:1/v1 model served-f16, api chat, key BASE_KEY (set); launched by helm-gate (deployments.baseline.launch) (self-check: the baseline deployment)'
      )
      expect(self.out).toMatch(/^# {3}measurements, in order: the quality half \(helm-run on each side\)$/m)
      expect(self.out).toMatch(/^# schedule: sequential \(--sequential\)/m)
      expect(self.out).not.toContain('sk-candidate-value-0123')
    } finally {
      await rm(plain.dir, { recursive: true, force: true })
      await rm(self.dir, { recursive: true, force: true })
    }
  })
})
