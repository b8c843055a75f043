/**
 * `plan` checks every gated metric name against what HELM's run spec declares, as run does before
 * it spends anything: the built command line on real HELM 0.5.16, no server and no scenario.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { stringify } from 'yaml'
import { helmAvailable, HELM_RUN } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'

const CLI = resolve('dist/cli.js')
const describeHelm = helmAvailable() ? describe : describe.skip

async function plan(runs: Record<string, unknown>[], args: string[] = []) {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-metrics-'))
  await writeFile(
    join(dir, 'gate.yml'),
    stringify({
      version: 1,
      helm: { version: '0.5.16', max_eval_instances: 10, command: HELM_RUN },
      deployments: {
        baseline: { api: 'chat', base_url: 'http://127.0.0.1:1/v1', model: 'served-f16' },
        candidate: { api: 'chat', base_url: 'http://127.0.0.1:2/v1', model: 'served-q8' }
      },
      runs
    })
  )
  try {
    return await run(process.execPath, [CLI, 'plan', '--config', 'gate.yml', ...args], { cwd: dir, timeoutMs: 240_000 })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describeHelm('plan checks the gated metric names', () => {
  it('prints each name as declared, and exits 2 with "did you mean" for one no metric writes', async () => {
    const r = await plan([
      { entry: 'simple_mcqa', metric: 'exact_mach', max_drop: 0.05 },
      { entry: 'simple_mcqa', metric: 'quasi_exact_match@5', max_drop: 0.05 }
    ])
    expect(r.code).toBe(2)
    expect(r.stdout).toContain(
      '#   simple_mcqa exact_mach: NOT among the names its metrics write; did you mean exact_match or exact_match@5?'
    )
    expect(r.stdout).toContain('#   simple_mcqa quasi_exact_match@5: declared by the run spec')
    expect(r.stderr).toMatch(/^helm-gate: error: run simple_mcqa: HELM's metrics for this entry write no metric exact_mach; did you mean/m)
    expect(r.stderr).toContain('field: runs[0].metric')
    expect(r.stderr).toContain('[config.metric_unknown]')
  }, 240_000)

  it('a gate file whose names are all declared plans with exit 0; --json carries the check', async () => {
    const r = await plan([{ entry: 'dyck_language:num_parenthesis_pairs=3', metric: 'exact_match_indicator', max_drop: 0.05 }], ['--json'])
    expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' })
    const doc = JSON.parse(r.stdout)
    expect(doc.metric_names).toEqual({
      checked: true,
      lines: ['dyck_language:num_parenthesis_pairs=3 exact_match_indicator: declared by the run spec'],
      refused: []
    })
    expect(doc.instances.counted).toBe(true)
  }, 240_000)
})
