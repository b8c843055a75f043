/**
 * The committed trained model (examples/real-cpu/trained-model) and the two scripts that use it,
 * without Python: its KEY is the training scripts' key, its SHA256SUMS covers every file, and
 * `make-model.sh train` copies it when the key matches, says why it trains when it does not, and
 * refuses a folder whose bytes are not its SHA256SUMS. That training again makes the same bytes is
 * the serial test's part (__tests__/e2e/real-engine-trained.serial.test.ts).
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

const COMMITTED = join(REPO_ROOT, 'examples', 'real-cpu', 'trained-model')
const scratch: string[] = []
afterAll(() => scratch.forEach(dir => rmSync(dir, { recursive: true, force: true })))

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-trained-'))
  scratch.push(dir)
  return dir
}

function bash(script: string, options: { cwd?: string; env?: Record<string, string> } = {}) {
  return spawnSync('bash', ['-c', script], { cwd: options.cwd ?? REPO_ROOT, env: { ...process.env, ...options.env }, encoding: 'utf8' })
}

/** A copy of what the scripts read (the scripts, the load words, the committed model) in a root of its own. */
function copiedRoot(): string {
  const root = tempDir()
  for (const part of [join('scripts', 'real-engine'), join('src', 'load', 'workload.ts'), join('examples', 'real-cpu', 'trained-model')]) {
    cpSync(join(REPO_ROOT, part), join(root, part), { recursive: true })
  }
  return root
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(entry => entry.isFile())
    .map(entry => relative(dir, join(entry.parentPath, entry.name)))
    .sort()
}

describe('the committed trained model', () => {
  it("its KEY is the training scripts' key (a change to make_task.py, train_model.py or the load words needs check-trained.sh --write)", () => {
    const key = bash(`source scripts/real-engine/common.sh; trained_key`).stdout.trim()
    expect(key).toMatch(/^[0-9a-f]{12}$/)
    expect(readFileSync(join(COMMITTED, 'KEY'), 'utf8').trim()).toBe(key)
  })

  it("each CPU vendor's recorded training is for the committed KEY and the same files, differing only in weights", () => {
    const dir = join(REPO_ROOT, 'scripts', 'real-engine', 'cpu-reproductions')
    const key = readFileSync(join(COMMITTED, 'KEY'), 'utf8').trim()
    const records = existsSync(dir) ? readdirSync(dir) : []
    const committed = spawnSync(
      join(REPO_ROOT, '.venv', 'bin', 'python'),
      [join(REPO_ROOT, 'scripts', 'real-engine', 'content_sums.py'), COMMITTED],
      {
        encoding: 'utf8'
      }
    )
    if (committed.status !== 0) return // no venv: content_sums.py's own test covers the sums
    const lines = (text: string) => text.trim().split('\n')
    for (const name of records) {
      // A record for other training scripts no longer applies: record it again or remove it.
      expect(name).toBe(`${name.split('-')[0]}-${key}.sums`)
      const recorded = lines(readFileSync(join(dir, name), 'utf8'))
      const expected = lines(committed.stdout)
      expect(recorded.map(line => line.split(/\s+/)[1])).toEqual(expected.map(line => line.split(/\s+/)[1]))
      const differing = recorded.filter((line, i) => line !== expected[i]).map(line => line.split(/\s+/)[1])
      expect(differing).toEqual(['hf/model.safetensors'])
    }
  })

  it('SHA256SUMS names every file but itself, KEY and training.json, and every hash holds', () => {
    const listed = readFileSync(join(COMMITTED, 'SHA256SUMS'), 'utf8')
      .trim()
      .split('\n')
      .map(line => line.split(/\s+/)[1])
    expect(listed).toEqual(filesUnder(COMMITTED).filter(name => !['SHA256SUMS', 'KEY', 'training.json'].includes(name)))
    expect(listed).toContain('hf/model.safetensors')
    const check = bash('sha256sum --check SHA256SUMS', { cwd: COMMITTED })
    expect([check.status, check.stderr]).toEqual([0, ''])
  })
})

describe('make-model.sh train', () => {
  it('copies the committed model into the cache when its key matches, with no Python at all', () => {
    const cache = tempDir()
    const env = { HELM_GATE_CACHE: cache, HELM_GATE_VENV: join(cache, 'no-venv') }
    const r = bash('bash scripts/real-engine/make-model.sh train', { env })
    expect([r.status, r.stderr]).toEqual([0, expect.stringContaining('make-model: taking the committed trained model')])
    const folder = r.stdout.trim().split('\n').at(-1)!
    expect(folder).toBe(bash('source scripts/real-engine/common.sh; trained_dir', { env }).stdout.trim())
    for (const name of filesUnder(COMMITTED)) {
      expect([name, readFileSync(join(folder, name)).equals(readFileSync(join(COMMITTED, name)))]).toEqual([name, true])
    }
    expect(readFileSync(join(folder, 'seconds'), 'utf8').trim()).toMatch(/^\d+$/)
  })

  it('trains instead, and says why, when the committed KEY is for other scripts', () => {
    const root = copiedRoot()
    writeFileSync(join(root, 'examples', 'real-cpu', 'trained-model', 'KEY'), '000000000000\n')
    const cache = tempDir()
    const r = bash('bash scripts/real-engine/make-model.sh train', {
      cwd: root,
      env: { HELM_GATE_CACHE: cache, HELM_GATE_VENV: join(cache, 'no-venv') }
    })
    expect(r.stderr).toMatch(
      /the committed trained model is for other training scripts \(its KEY: 000000000000; these scripts: [0-9a-f]{12}\); training here instead/
    )
    // No venv here, so the training itself cannot start: it fails, and leaves no folder behind.
    expect(r.status).not.toBe(0)
    expect(readdirSync(cache).filter(name => !name.endsWith('.lock'))).toEqual([])
  })

  it('refuses a committed folder whose bytes are not its SHA256SUMS, naming the file', () => {
    const root = copiedRoot()
    writeFileSync(join(root, 'examples', 'real-cpu', 'trained-model', 'hf', 'config.json'), '{}\n')
    const cache = tempDir()
    const r = bash('bash scripts/real-engine/make-model.sh train', {
      cwd: root,
      env: { HELM_GATE_CACHE: cache, HELM_GATE_VENV: join(cache, 'no-venv') }
    })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/hf\/config\.json: FAILED/)
    expect(r.stderr).toMatch(/does not match its SHA256SUMS/)
    expect(readdirSync(cache).filter(name => !name.endsWith('.lock'))).toEqual([])
  })
})

describe('check-trained.sh', () => {
  /** A venv whose Python does nothing: the refusals below must come before any training. */
  function fakeVenv(): string {
    const venv = tempDir()
    mkdirSync(join(venv, 'bin'))
    symlinkSync('/bin/true', join(venv, 'bin', 'python'))
    return venv
  }

  it('names an unknown argument and exits 2', () => {
    const r = bash('bash scripts/real-engine/check-trained.sh --force', { env: { HELM_GATE_VENV: fakeVenv(), HELM_GATE_CACHE: tempDir() } })
    expect(r.status).toBe(2)
    expect(r.stderr.trim()).toBe("check-trained: unknown argument '--force' (none, --write or --record-cpu)")
  })

  it('refuses a stale committed KEY before training, and names the command that makes it again', () => {
    const root = copiedRoot()
    writeFileSync(join(root, 'examples', 'real-cpu', 'trained-model', 'KEY'), '000000000000\n')
    const cache = tempDir()
    const r = bash('bash scripts/real-engine/check-trained.sh', { cwd: root, env: { HELM_GATE_VENV: fakeVenv(), HELM_GATE_CACHE: cache } })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/KEY is '000000000000', the training scripts' key is [0-9a-f]{12}: the committed weights are stale/)
    expect(r.stderr).toContain('check-trained.sh --write')
    expect(existsSync(cache) && readdirSync(cache)).toEqual([])
  })

  it('without a venv says so and exits 2', () => {
    const cache = tempDir()
    const r = bash('bash scripts/real-engine/check-trained.sh', { env: { HELM_GATE_VENV: join(cache, 'none'), HELM_GATE_CACHE: cache } })
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^check-trained: no Python at .*none\/bin\/python \(run bash scripts\/python-env.sh first\)/)
  })
})
