/**
 * scripts/layer-floors.mjs: the real floors of src/ from its imports, and `--check` (run by
 * `npm run lint`) failing when the declared folder order differs from them.
 */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { inTempTree } from '../support/temp-tree.js'

const SCRIPT = join(REPO_ROOT, 'scripts', 'layer-floors.mjs')

interface Floors {
  unitGraph(root: string): Map<string, Set<string>>
  floorsOf(units: Map<string, Set<string>>): string[][]
  differences(floors: string[][], declared: string[][]): string[]
}

describe('layer-floors', () => {
  it('passes on src/: the declared order is the real floors', async () => {
    const result = await run(process.execPath, [SCRIPT, '--check', 'src'], { cwd: REPO_ROOT })
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
    expect(result.stdout).toMatch(/the declared folder order is the real floors\n$/)
  })

  it('puts each folder one floor above the highest it imports, and a circle between folders on one floor', async () => {
    const { unitGraph, floorsOf } = (await import(SCRIPT)) as Floors
    const floors = await inTempTree(
      {
        'errors.ts': "import { s } from './secrets/s.js'\nexport const e = s\n",
        'secrets/s.ts': "import type { T } from '../errors.js'\nexport const s = 1\nexport type U = T\n",
        'config/c.ts': "import { e } from '../errors.js'\nexport const c = e\n",
        'report/r.ts': "import { e } from '../errors.js'\nexport const r = e\n",
        'pipeline/p.ts': "import { c } from '../config/c.js'\nexport const p = c\n",
        'cli/main.ts': "import { p } from '../pipeline/p.js'\nimport { r } from '../report/r.js'\nexport const m = [p, r]\n"
      },
      async dir => floorsOf(unitGraph(dir))
    )
    expect(floors).toEqual([['errors.ts', 'secrets'], ['config', 'report'], ['pipeline'], ['cli']])
  })

  it('names a line of the declared order that differs from its floor (a folder declared above it)', async () => {
    const { differences } = (await import(SCRIPT)) as Floors
    const floors = [['errors.ts'], ['config', 'report'], ['pipeline'], ['cli']]
    expect(differences(floors, [['errors.ts'], ['config'], ['pipeline'], ['report'], ['cli']])).toEqual([
      'line 2 of the folder order is "config" but the imports put "config report" there',
      'line 4 of the folder order is "report" but the imports put "cli" there',
      'line 5 of the folder order is "cli" but the imports put "" there'
    ])
    expect(differences(floors, [['errors.ts'], ['report', 'config'], ['pipeline'], ['cli']])).toEqual([])
  })
})
