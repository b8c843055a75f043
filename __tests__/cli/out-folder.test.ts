import { describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCommand } from '../../src/cli/commands/run.js'
import { assertFreshOutputFolder } from '../../src/cli/out-folder.js'
import { UsageError } from '../../src/errors.js'

const GATE = `version: 1
helm: { version: "0.5.16", max_eval_instances: 10, command: /nonexistent/helm-run }
deployments:
  baseline: { api: chat, base_url: "http://127.0.0.1:9/v1", model: m }
  candidate: { api: completions, base_url: "http://127.0.0.1:9/v1", model: m }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
`

describe('assertFreshOutputFolder', () => {
  it('accepts a new or an empty folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-out-'))
    await expect(assertFreshOutputFolder(join(dir, 'new'))).resolves.toBeUndefined()
    await expect(assertFreshOutputFolder(dir)).resolves.toBeUndefined()
  })

  it('refuses a folder with anything in it, naming what is there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-out-'))
    await writeFile(join(dir, 'report.md'), 'my notes')
    await mkdir(join(dir, 'data'))
    const error = await assertFreshOutputFolder(dir).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).message).toBe(
      `--out ${dir} is not empty: it holds 2 entries (data/, report.md); give a new or empty folder`
    )
    expect((error as UsageError).location).toEqual({ field: '--out', value: dir })
  })

  it('says when the folder is an earlier helm-gate output, and shortens long listings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-out-'))
    for (const name of ['run-manifest.json', 'report.json', 'report.md', 'a', 'b', 'c', 'd']) await writeFile(join(dir, name), '')
    await expect(assertFreshOutputFolder(dir)).rejects.toThrow(
      /it holds an earlier helm-gate output \(a, b, c, d, report\.json, report\.md and 1 more\)/
    )
  })

  it('refuses a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-out-'))
    await writeFile(join(dir, 'f'), '')
    await expect(assertFreshOutputFolder(join(dir, 'f'))).rejects.toThrow(/is a file, not a folder/)
  })
})

describe('helm-gate run --out', () => {
  it('refuses a non-empty folder before running anything, and leaves its files alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-out-'))
    await writeFile(join(dir, 'gate.yml'), GATE)
    const out = join(dir, 'out')
    await mkdir(out)
    await writeFile(join(out, 'report.md'), 'keep me')
    const io = { stdout: () => {}, stderr: () => {}, env: {}, cwd: dir }
    await expect(runCommand(['--config', 'gate.yml', '--out', 'out'], io)).rejects.toThrow(/is not empty: it holds 1 entry \(report\.md\)/)
    expect(await readFile(join(out, 'report.md'), 'utf8')).toBe('keep me')
  })
})
