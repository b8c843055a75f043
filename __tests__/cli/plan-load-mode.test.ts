/**
 * `helm-gate plan` on the load half's mode: both up, swapped between blocks (launched on a
 * sequential schedule) or one period per side, and why; with --measure-swap, one swap timed with
 * the gate file's own launch commands (the fake engine) and the blocks the swap budget allows.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { planCommand } from '../../src/cli/commands/plan.js'
import type { CliIo } from '../../src/cli/io.js'
import { ENGINE_SCRIPT } from '../../test-support/fake-engine/harness.js'
import { freePort } from '../../test-support/launch/fixture-repo.js'
import { listening } from '../support/listening.js'

const LOAD = {
  workload: { prompts: 'synthetic', input_tokens: { mean: 8 }, output_tokens: { mean: 8 } },
  concurrency: [1, 4],
  requests_per_level: 24,
  repetitions: 4,
  checks: [{ metric: 'error_rate', max: 0 }]
}

async function plan(options: {
  schedule?: string
  launch?: boolean
  switchOf?: string
  threads?: number
  args?: string[]
  load?: Record<string, unknown>
}): Promise<{ code: number; text: string; port: number }> {
  const port = await freePort()
  const side = (name: string) => ({
    api: 'chat',
    // Servers always up are two servers: two ports. Launched one at a time they share one.
    base_url: `http://127.0.0.1:${options.launch === false && name === 'candidate' ? port + 1 : port}/v1`,
    model: 'engine-model',
    tokenizer: 'simple/tokenizer1',
    max_sequence_length: 4096,
    ...(options.launch === false
      ? {}
      : {
          launch: {
            command: [
              process.execPath,
              ENGINE_SCRIPT,
              '--port',
              String(port),
              '--threads',
              String(options.threads ?? 8),
              '--seed',
              name === 'baseline' ? '1' : '2'
            ],
            ready_timeout_seconds: 30,
            stop: { signal: 'SIGTERM', timeout_seconds: 5 },
            ...(options.switchOf && name === 'candidate' ? { switch: options.switchOf } : {})
          }
        })
  })
  const gate = stringify({
    version: 1,
    helm: { version: '0.5.16', command: 'helm-run', max_eval_instances: 10 },
    deployments: { baseline: side('baseline'), candidate: side('candidate') },
    ...(options.schedule ? { schedule: options.schedule } : {}),
    runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }],
    load: { ...LOAD, ...options.load }
  })
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-load-'))
  await writeFile(join(dir, 'gate.yml'), gate)
  let text = ''
  const io: CliIo = { stdout: s => (text += s), stderr: s => (text += s), env: { ...process.env }, cwd: dir }
  const code = await planCommand(['--config', 'gate.yml', '--no-count', ...(options.args ?? [])], io)
  return { code, text, port }
}

describe('helm-gate plan: the load half mode', () => {
  it('servers always up: both up, A B B A', async () => {
    const { text } = await plan({ launch: false })
    expect(text).toContain('# load half: both up (the servers are always up): blocks alternate A B B A')
  })

  it('launched on a sequential schedule: swapped, with the swaps it needs and where the cost is measured', async () => {
    const { code, text } = await plan({})
    expect(code).toBe(0)
    // Two levels of 4 repetitions: b c c b b c c b at each, 4 swaps per level.
    expect(text).toContain(
      '# load half: swapped (schedule: sequential, one side up at a time): blocks alternate A B B A with 8 swaps between them (switch: baseline restart, candidate restart)'
    )
    expect(text).toContain(
      '#   swap cost: measured by run at the start of the load half (plan --measure-swap measures it now); load.swap_budget_seconds 600 s'
    )
  })

  it('a side that cannot be swapped: one period per side, and why', async () => {
    const { text } = await plan({ switchOf: 'none' })
    expect(text).toContain('# load half: one period per side (deployments.candidate.launch.switch is none: swapping is impossible)')
  })

  it('CPU engines whose threads fit the host: plan says both could be up at once', async () => {
    const cores = availableParallelism()
    const fits = await plan({ threads: 1 })
    expect(fits.text).toContain(`#   this host could hold both at once (--threads 1 + 1 <= ${cores} cores)`)
    const crowded = await plan({ threads: cores })
    expect(crowded.text).not.toContain('this host could hold both at once')
  })

  it('--measure-swap: one swap timed with the launch commands; the blocks the budget allows; nothing left up', async () => {
    const { code, text, port } = await plan({ args: ['--measure-swap'], load: { swap_budget_seconds: 3600 } })
    expect({ code, text: code === 0 ? '' : text }).toEqual({ code: 0, text: '' })
    const measured =
      /# {3}swap cost: (\d+\.\d) s \(measured now[^)]*\); load\.swap_budget_seconds 3600 s allows (\d+) swaps: at most (\d+) blocks \(repetitions (\d+)( or more)?\); this plan needs 8 for 16 blocks/.exec(
        text
      )
    if (!measured) throw new Error(`no measured swap line in\n${text}`)
    expect(Number(measured[2])).toBeGreaterThanOrEqual(8)
    expect(Number(measured[3])).toBe(4 * Number(measured[4]))
    expect(text).toMatch(
      /\[candidate\] server ready[\s\S]*\[candidate\] server stopped[\s\S]*\[baseline\] server ready[\s\S]*\[baseline\] server stopped/
    )
    expect(await listening(port)).toBe(false)
  }, 60_000)
})
