/**
 * runSides with runner command sides: what helm-run gets, a runner command gets too (a log per
 * side, the side's timeout, its whole process group killed, a private working directory removed
 * afterwards, failures named). Small shell programs stand in for the command; the FlexLLMGen
 * stand-in with real crfm-helm 0.2.1 is in __tests__/e2e/runner-command.test.ts.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { loadGateConfig } from '../../src/config/load.js'
import { runSides } from '../../src/runner/run-sides.js'
import { FLEX_BASELINE_SUITE } from '../helm/read/fixtures.js'

const RUN = 'synthetic_reasoning_mode=pattern_match,model=simple_model1'
const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map(dir => rm(dir, { recursive: true, force: true })))
})

/** A gate file whose sides run `sh -c script sh <entry> <output> <side> <marker>`. */
async function setUp(script: string, timeoutMinutes = 1, entries = ['synthetic_reasoning:mode=pattern_match']) {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-runner-command-'))
  dirs.push(dir)
  const side = (name: string) => ({ command: ['sh', '-c', script, 'sh', '{entry}', '{output}', name, './marker-' + name] })
  const file = join(dir, 'gate.yml')
  await writeFile(
    file,
    stringify({
      version: 1,
      helm: { version: '0.5.16', max_eval_instances: 10, timeout_minutes: timeoutMinutes },
      schedule: 'sequential',
      deployments: { baseline: side('baseline'), candidate: side('candidate') },
      runs: entries.map(entry => ({ entry, metric: 'exact_match', max_drop: 0.1 }))
    })
  )
  return { dir, config: await loadGateConfig(file) }
}

/** Running, as opposed to gone or a zombie (killed, not yet reaped by init: nothing runs). */
const running = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Waits up to `ms` for the process to stop running (a SIGKILL is delivered asynchronously). */
async function stops(pid: number, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms
  while (running(pid)) {
    if (Date.now() > end) return false
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return true
}

describe('runSides with runner command sides', () => {
  it('runs each side in a private working directory, removed afterwards, with ./ arguments resolved where helm-gate runs', async () => {
    // Copies a real 0.2.1 run into {output}, as FlexLLMGen writes one, and leaves data/ in its cwd.
    const script = `mkdir -p "$2" data && cp -R "${join(FLEX_BASELINE_SUITE, RUN)}" "$2/" && pwd > "$4" && echo "entry $1 side $3"`
    const { dir, config } = await setUp(script)
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline', 'candidate'], cwd: dir })
    expect(outcome.errors.map(e => e.message)).toEqual([])
    expect(outcome.completed.sort()).toEqual(['baseline', 'candidate'])
    expect(outcome.helmVersion).toBe('runner command')
    const workDir = (await readFile(join(dir, 'marker-baseline'), 'utf8')).trim()
    expect(workDir).not.toBe(dir)
    expect(existsSync(workDir)).toBe(false)
    expect(existsSync(join(dir, 'data'))).toBe(false)
    const log = await readFile(join(dir, 'out', 'logs', 'candidate.log'), 'utf8')
    expect(log).toContain('entry synthetic_reasoning:mode=pattern_match side candidate')
    const record = outcome.records.baseline as unknown as { command: string[]; deployment: { kind: string } }
    expect(record.deployment.kind).toBe('command')
    expect(record.command).toContain(join(dir, 'marker-baseline'))
    expect(outcome.schedule).toBe('sequential')
  }, 60_000)

  it('kills the whole process group when a side exceeds helm.timeout_minutes, and names the runner command', async () => {
    const script = `sleep 300 & echo $! > "$4"; sleep 300`
    const { dir, config } = await setUp(script, 0.03)
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline'], cwd: dir })
    expect(outcome.errors.map(e => e.code)).toContain('runner.timeout')
    expect(outcome.errors[0].message).toMatch(/baseline: the runner command sh hung and was killed after/)
    const child = Number(await readFile(join(dir, 'marker-baseline'), 'utf8'))
    expect(child).toBeGreaterThan(0)
    expect(await stops(child)).toBe(true)
  }, 60_000)

  it('stops a side at its first failing entry and reports the exit status with the log', async () => {
    const script = `echo "ran $1" >> "$4"; echo boom; exit 3`
    const { dir, config } = await setUp(script, 1, ['synthetic_reasoning:mode=pattern_match', 'simple_mcqa'])
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline'], cwd: dir })
    const codes = outcome.errors.map(e => e.code)
    expect(codes).toContain('runner.exit')
    const exit = outcome.errors.find(e => e.code === 'runner.exit')
    expect(exit?.message).toMatch(
      /baseline: the runner command sh exited with 3; failed runs: synthetic_reasoning:mode=pattern_match; logs\/baseline.log line \d+: boom/
    )
    expect(outcome.completed).toEqual([])
    // The second entry never ran.
    expect(await readFile(join(dir, 'marker-baseline'), 'utf8')).toBe('ran synthetic_reasoning:mode=pattern_match\n')
    expect(await readFile(join(dir, 'out', 'logs', 'baseline.log'), 'utf8')).toContain('boom')
  }, 60_000)

  it('names the command, never helm-run, when it exits 0 and writes nothing, quoting its last line', async () => {
    const { dir, config } = await setUp('echo "model weights not found, skipping"; exit 0')
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline'], cwd: dir })
    const error = outcome.errors.find(e => e.code === 'runner.nothing_ran')!
    expect(error.message).toMatch(
      /^baseline: the runner command sh produced no run directory \(nothing ran\); logs\/baseline.log line 1: model weights not found, skipping$/
    )
    expect(outcome.errors.map(e => e.message).join('\n')).not.toContain('helm-run')
    expect(error.location.file).toContain(join('out', 'baseline', 'runs'))
  }, 60_000)

  it('quotes the final exception of a Python runner command that fails, naming its module', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-runner-command-'))
    dirs.push(dir)
    const file = join(dir, 'gate.yml')
    const side = { command: ['python3', '-m', 'no_such_runner_module', '--run-entries', '{entry}', '--output', '{output}'] }
    await writeFile(
      file,
      stringify({
        version: 1,
        helm: { version: '0.5.16', max_eval_instances: 10 },
        deployments: { baseline: side, candidate: side },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.1 }]
      })
    )
    const outcome = await runSides(await loadGateConfig(file), { outDir: join(dir, 'out'), sides: ['candidate'], cwd: dir })
    const exit = outcome.errors.find(e => e.code === 'runner.exit')!
    expect(exit.message).toMatch(
      /^candidate: the runner command no_such_runner_module exited with 1; failed runs: simple_mcqa; logs\/candidate.log line 1: .*No module named no_such_runner_module/
    )
    expect(exit.message).not.toContain('see logs')
  }, 60_000)

  it('reports a program that cannot be started', async () => {
    const { dir } = await setUp('true')
    const file = join(dir, 'missing.yml')
    await writeFile(
      file,
      stringify({
        version: 1,
        helm: { version: '0.5.16', max_eval_instances: 10 },
        deployments: {
          baseline: { command: [join(dir, 'no-such-program'), '{entry}', '{output}'] },
          candidate: { command: [join(dir, 'no-such-program'), '{entry}', '{output}', '--other'] }
        },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.1 }]
      })
    )
    const outcome = await runSides(await loadGateConfig(file), { outDir: join(dir, 'out'), sides: ['baseline'], cwd: dir })
    expect(outcome.errors.map(e => e.code)).toContain('runner.spawn')
    expect(outcome.errors[0].message).toMatch(/could not start the runner command/)
  }, 60_000)
})
