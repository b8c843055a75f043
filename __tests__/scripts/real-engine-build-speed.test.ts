/**
 * scripts/real-engine/build-speed.cmake, the project include that shortens llama.cpp's compile,
 * configured (not compiled) by the machine's CMake on a small project that has llama.cpp's name and
 * the two libraries it changes: common/ and mtmd become unity builds without the files that cannot
 * share a unit, only mtmd gets -O0, the other libraries are left as they are, and a llama.cpp
 * without one of the two libraries stops at configure time, naming it. That the real engine builds
 * and serves with it is the real-engine serial tests' part; the engine's key covers the include.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

const INCLUDE = join(REPO_ROOT, 'scripts', 'real-engine', 'build-speed.cmake')
const scratch: string[] = []
afterAll(() => scratch.forEach(dir => rmSync(dir, { recursive: true, force: true })))

/** A project named llama.cpp with llama.cpp's layout for the libraries the include names. */
function fakeLlamaCpp(options: { withMtmd: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'helm-gate-build-speed-'))
  scratch.push(root)
  const files: Record<string, string> = {
    'CMakeLists.txt': [
      'cmake_minimum_required(VERSION 3.19)',
      'project("llama.cpp" CXX)',
      'add_subdirectory(common)',
      'add_subdirectory(server)',
      options.withMtmd ? 'add_subdirectory(tools/mtmd)' : ''
    ].join('\n'),
    'common/CMakeLists.txt': 'add_library(llama-common STATIC arg.cpp sampling.cpp json.cpp jinja/lexer.cpp jinja/parser.cpp)',
    'server/CMakeLists.txt': 'add_library(server-context STATIC server-context.cpp server-task.cpp)',
    'tools/mtmd/CMakeLists.txt': 'add_library(mtmd STATIC mtmd.cpp clip.cpp mtmd-helper.cpp mtmd-helper-gen.cpp)'
  }
  for (const source of [
    'common/arg.cpp',
    'common/sampling.cpp',
    'common/json.cpp',
    'common/jinja/lexer.cpp',
    'common/jinja/parser.cpp',
    'server/server-context.cpp',
    'server/server-task.cpp',
    'tools/mtmd/mtmd.cpp',
    'tools/mtmd/clip.cpp',
    'tools/mtmd/mtmd-helper.cpp',
    'tools/mtmd/mtmd-helper-gen.cpp'
  ]) {
    files[source] = `int ${source.replace(/\W/g, '_')}() { return 0; }\n`
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

function configure(root: string) {
  return spawnSync(
    'cmake',
    [
      '-G',
      'Unix Makefiles',
      '-S',
      root,
      '-B',
      join(root, 'build'),
      '-DCMAKE_BUILD_TYPE=Release',
      `-DCMAKE_PROJECT_llama.cpp_INCLUDE=${INCLUDE}`
    ],
    { encoding: 'utf8' }
  )
}

/** The sources each unity unit of a target includes, by file name. */
function unitySources(root: string, dir: string, target: string): string[][] {
  const unity = join(root, 'build', dir, 'CMakeFiles', `${target}.dir`, 'Unity')
  if (!existsSync(unity)) return []
  return readdirSync(unity)
    .filter(name => name.endsWith('.cxx'))
    .sort()
    .map(name => [...readFileSync(join(unity, name), 'utf8').matchAll(/#include "([^"]+)"/g)].map(match => match[1].slice(root.length + 1)))
}

function flags(root: string, dir: string, target: string): string {
  return readFileSync(join(root, 'build', dir, 'CMakeFiles', `${target}.dir`, 'flags.make'), 'utf8')
}

describe('build-speed.cmake', () => {
  it('makes common/ and mtmd unity builds, without the files that cannot share a unit, and leaves the server library alone', () => {
    const root = fakeLlamaCpp({ withMtmd: true })
    const result = configure(root)
    expect([result.status, result.stderr]).toEqual([0, expect.not.stringContaining('CMake Error')])
    expect(unitySources(root, 'common', 'llama-common').flat()).toEqual(['common/arg.cpp', 'common/sampling.cpp'])
    expect(unitySources(root, 'tools/mtmd', 'mtmd').flat()).toEqual(['tools/mtmd/mtmd.cpp', 'tools/mtmd/clip.cpp'])
    expect(unitySources(root, 'server', 'server-context')).toEqual([])
  })

  it('compiles mtmd at -O0 after the build type flags, and nothing else', () => {
    const root = fakeLlamaCpp({ withMtmd: true })
    expect(configure(root).status).toBe(0)
    const mtmd = flags(root, 'tools/mtmd', 'mtmd')
    expect(mtmd).toMatch(/-O3.*-O0/)
    expect(flags(root, 'common', 'llama-common')).not.toContain('-O0')
    expect(flags(root, 'server', 'server-context')).not.toContain('-O0')
  })

  it('stops at configure time, naming the library, when this llama.cpp has no target of that name', () => {
    const root = fakeLlamaCpp({ withMtmd: false })
    const result = configure(root)
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(/mtmd/)
  })

  it("is part of the engine's cache key, so a change to it builds the engine again", () => {
    const key = (include: string) =>
      spawnSync('bash', ['-c', 'source scripts/real-engine/common.sh; engine_build_speed() { echo "$INCLUDE"; }; engine_dir'], {
        cwd: REPO_ROOT,
        env: { ...process.env, INCLUDE: include, HELM_GATE_CACHE: '/cache' },
        encoding: 'utf8'
      }).stdout.trim()
    const changed = join(mkdtempSync(join(tmpdir(), 'helm-gate-build-speed-')), 'build-speed.cmake')
    scratch.push(dirname(changed))
    writeFileSync(changed, readFileSync(INCLUDE, 'utf8') + '\n# changed\n')
    expect(key(INCLUDE)).toMatch(/^\/cache\/llama\.cpp-[\d.]+-[0-9a-f]{12}$/)
    expect(key(changed)).toMatch(/^\/cache\/llama\.cpp-[\d.]+-[0-9a-f]{12}$/)
    expect(key(changed)).not.toBe(key(INCLUDE))
  })
})
