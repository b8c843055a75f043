/**
 * The command line's conventions, on the bundled CLI (dist/cli.js) as a user runs it: `-h` is
 * --help for every command, `--json -` makes standard output the JSON report alone (every other
 * line on standard error), and `plan --json` is one parseable document without secrets.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { stringify } from 'yaml'
import { ALTERED_SUITE, BASELINE_SUITE } from '../helm/read/fixtures.js'
import { run } from '../support/spawn.js'

const CLI = resolve('dist/cli.js')
const helmGate = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => run(process.execPath, [CLI, ...args], options)
const BASE_KEY = 'sk-conventions-secret-0123456789abcdef'

describe('-h', () => {
  it.each([['compare'], ['run'], ['load'], ['plan'], ['power'], ['traffic']])('%s -h prints its usage and exits 0', async name => {
    const r = await helmGate([name, '-h'])
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    expect(r.stdout).toMatch(new RegExp(`^usage: helm-gate ${name}\\b`))
    expect(r.stdout).toBe((await helmGate([name, '--help'])).stdout)
  })

  it('helm-gate -h lists the commands', async () => {
    const r = await helmGate(['-h'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('helm-gate <command> --help (or -h)')
  })

  it('another short option is still refused by name', async () => {
    const r = await helmGate(['compare', '-x'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown option -x')
  })
})

describe('--json -', () => {
  it('compare: standard output is the JSON report alone, equal to the file; the summary goes to standard error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-json-stdout-'))
    try {
      const common = ['compare', BASELINE_SUITE, ALTERED_SUITE, '--metric', 'exact_match', '--max-drop', '0.5']
      const piped = await helmGate([...common, '--json', '-'])
      const written = await helmGate([...common, '--json', join(dir, 'report.json')])
      expect(piped.code).toBe(written.code)
      const fromStdout = JSON.parse(piped.stdout)
      expect(fromStdout).toEqual(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')))
      expect(fromStdout.verdict).toEqual(expect.any(String))
      // The console summary the file run printed on standard output is now on standard error.
      expect(piped.stderr).toBe(written.stdout)
      expect(piped.stderr).toContain('exact_match')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('compare --json - --quiet prints the JSON and nothing else', async () => {
    const r = await helmGate([
      'compare',
      BASELINE_SUITE,
      ALTERED_SUITE,
      '--metric',
      'exact_match',
      '--max-drop',
      '0.5',
      '--json',
      '-',
      '--quiet'
    ])
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout).comparisons.length).toBeGreaterThan(0)
  })
})

describe('plan --json', () => {
  const gate = stringify({
    version: 1,
    helm: { version: '0.5.16', max_eval_instances: 10, command: 'no-such-helm-run' },
    deployments: {
      baseline: { api: 'chat', base_url: 'http://127.0.0.1:1/v1', model: 'served-f16', api_key_env: 'BASE_KEY' },
      candidate: { api: 'chat', base_url: 'http://127.0.0.1:2/v1', model: 'served-q8' }
    },
    runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }]
  })

  async function plan(args: string[]) {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-json-'))
    await writeFile(join(dir, 'gate.yml'), gate)
    try {
      return await helmGate(['plan', '--config', 'gate.yml', '--json', ...args], {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, BASE_KEY }
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  it('is one document: fingerprint, measurements, each side as an argument array with its prod_env files, and the text lines', async () => {
    const r = await plan(['--no-count'])
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    const doc = JSON.parse(r.stdout)
    expect(doc.plan_json_version).toBe(1)
    expect(doc.helm_version).toBe('0.5.16')
    expect(doc.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(doc.fingerprint_problem).toBeNull()
    expect(doc.measurements[0]).toMatch(/^the quality half/)
    expect(doc.instances).toEqual({ counted: false, problem: 'not counted' })
    expect(doc.sides.map((s: { side: string }) => s.side)).toEqual(['baseline', 'candidate'])
    for (const side of doc.sides) {
      expect(side.made_by).toBe('helm-run')
      expect(side.argv).toContain('--run-entries')
      expect(Object.keys(side.prod_env).sort()).toEqual([
        'credentials.conf',
        'model_deployments.yaml',
        'model_metadata.yaml',
        'tokenizer_configs.yaml'
      ])
    }
    expect(doc.lines).toContain(`# fingerprint ${doc.fingerprint}`)
    // The key's value is nowhere, in any field.
    expect(r.stdout).not.toContain(BASE_KEY)
  })

  it('says why the instances were not counted when the dry run cannot start', async () => {
    const r = await plan([])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.instances.counted).toBe(false)
    expect(doc.instances.problem).toContain('no-such-helm-run')
  })
})
