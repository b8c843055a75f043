/**
 * scripts/real-engine/make-model.sh's two steps, without a build: `make-model.sh train` needs the
 * venv only, never the engine (prepare.sh runs it while llama.cpp compiles), and its folder's name
 * does not depend on the engine's build flags, so a new engine build does not train again.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

const SCRIPTS = join(REPO_ROOT, 'scripts', 'real-engine')
const caches: string[] = []
afterAll(() => caches.forEach(dir => rmSync(dir, { recursive: true, force: true })))

/** A scratch cache folder, removed after the tests. */
function scratchCache(): string {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-make-model-'))
  caches.push(dir)
  return dir
}

function bash(script: string, cache: string) {
  return spawnSync('bash', ['-c', script], {
    cwd: REPO_ROOT,
    // A venv that does not exist: the steps below must not need Python at all.
    env: { ...process.env, HELM_GATE_CACHE: cache, HELM_GATE_VENV: join(cache, 'no-venv') },
    encoding: 'utf8'
  })
}

describe('make-model.sh', () => {
  it('the train step reuses a trained folder and never builds or waits for the engine', () => {
    const cache = scratchCache()
    const folder = bash(`source ${JSON.stringify(join(SCRIPTS, 'common.sh'))}; trained_dir`, cache).stdout.trim()
    expect(folder).toMatch(new RegExp(`^${cache}/real-cpu-trained-[0-9a-f]{12}$`))
    mkdirSync(folder)
    writeFileSync(join(folder, 'training.json'), '{}')

    const r = bash(`bash ${JSON.stringify(join(SCRIPTS, 'make-model.sh'))} train`, cache)
    expect(r.stderr).toContain(`make-model: reusing ${folder}`)
    expect(r.status).toBe(0)
    expect(r.stdout.trim().split('\n').at(-1)).toBe(folder)
    // Nothing of the engine: no build folder, no lock, no download.
    expect(readdirSync(cache).filter(name => name.startsWith('llama.cpp'))).toEqual([])
  })

  it("the trained folder's name is the same whatever the engine's build flags", () => {
    const cache = scratchCache()
    const common = JSON.stringify(join(SCRIPTS, 'common.sh'))
    const asIs = bash(`source ${common}; engine_dir; trained_dir`, cache).stdout.split('\n')
    const otherFlags = bash(
      `source ${common}; engine_cmake_flags() { echo -DCMAKE_UNITY_BUILD=ON; }; engine_dir; trained_dir`,
      cache
    ).stdout.split('\n')
    expect(otherFlags[0]).not.toBe(asIs[0])
    expect(otherFlags[1]).toBe(asIs[1])
  })

  it('names an unknown step and exits 2 before doing anything', () => {
    const cache = scratchCache()
    const r = bash(`bash ${JSON.stringify(join(SCRIPTS, 'make-model.sh'))} convert`, cache)
    expect(r.status).toBe(2)
    expect(r.stderr.trim()).toBe("make-model: unknown step 'convert' (train, or none for the whole model)")
    expect(existsSync(join(cache, 'no-venv'))).toBe(false)
    expect(readdirSync(cache)).toEqual([])
  })
})
