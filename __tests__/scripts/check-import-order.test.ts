/**
 * scripts/check-import-order.mjs: `npm run lint` fails on an import from a folder above the
 * importer's in the declared order, and on a folder the order does not place; docs/development.md
 * shows the same order.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { inTempTree } from '../support/temp-tree.js'

const SCRIPT = join(REPO_ROOT, 'scripts', 'check-import-order.mjs')

describe('check-import-order', () => {
  it('passes on src/', async () => {
    const result = await run(process.execPath, [SCRIPT, 'src'], { cwd: REPO_ROOT })
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
    expect(result.stdout).toMatch(/^no upward import in src \(\d+ files\)/)
  })

  it('fails on an upward import, type-only too, naming both files and both folders', async () => {
    const result = await inTempTree(
      {
        'model/record.ts': "import type { Launcher } from '../launch/launcher.js'\nexport interface R { l: Launcher }\n",
        'launch/launcher.ts': "import { errorOf } from '../errors.js'\nexport class Launcher {}\nexport const e = errorOf\n",
        'errors.ts': 'export const errorOf = 1\n',
        'runner/run.ts': "import { Launcher } from '../launch/launcher.js'\nexport const l = Launcher\n"
      },
      dir => run(process.execPath, [SCRIPT, dir], { cwd: dir })
    )
    expect(result.code).toBe(1)
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'upward import: model/record.ts (model) imports launch/launcher.ts (launch), which is above model in the folder order; move what both need down, or the importer up'
    ])
  })

  it('fails on a folder that has no place in the order', async () => {
    const result = await inTempTree(
      { 'newthing/a.ts': "import { b } from '../config/b.js'\nexport const a = b\n", 'config/b.ts': 'export const b = 1\n' },
      dir => run(process.execPath, [SCRIPT, dir], { cwd: dir })
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^newthing \(newthing\/a\.ts\) has no place in the folder order: add it to FOLDER_ORDER/)
  })

  it('is the order docs/development.md shows', async () => {
    const { FOLDER_ORDER } = (await import(SCRIPT)) as { FOLDER_ORDER: string[][] }
    const doc = await readFile(join(REPO_ROOT, 'docs', 'development.md'), 'utf8')
    const block = /### Folder order\n[\s\S]*?```text\n([\s\S]*?)```/.exec(doc)?.[1]
    expect(block).toBeDefined()
    const shown = (block ?? '')
      .trim()
      .split('\n')
      .map(line => line.split(/\s+/).map(name => name.replace(/\/$/, '')))
    expect(shown).toEqual(FOLDER_ORDER)
  })
})

describe('check-import-order on one line', () => {
  it('fails on an import between folders of one line that do not import each other, naming both', async () => {
    const result = await inTempTree(
      {
        'config/a.ts': "import { h } from '../helm/h.js'\nexport const a = h\n",
        'helm/h.ts': 'export const h = 1\n'
      },
      dir => run(process.execPath, [SCRIPT, dir], { cwd: dir })
    )
    expect(result.code).toBe(1)
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'import on one line: config/a.ts (config) imports helm/h.ts (helm), which shares its line of the folder order; only folders that import each other share a line: move helm down a line'
    ])
  })

  it('passes folders of one line that import each other (a circle between folders)', async () => {
    const result = await inTempTree(
      {
        'errors.ts': "import { s } from './secrets/s.js'\nexport const e = s\n",
        'secrets/s.ts': "import type { T } from '../errors.js'\nexport const s = 1\nexport type U = T\n"
      },
      dir => run(process.execPath, [SCRIPT, dir], { cwd: dir })
    )
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  })
})
