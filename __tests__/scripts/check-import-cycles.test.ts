/** scripts/check-import-cycles.mjs: `npm run lint` fails on any import circle in src/, type-only ones included. */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { inTempTree } from '../support/temp-tree.js'

const SCRIPT = join(REPO_ROOT, 'scripts', 'check-import-cycles.mjs')

describe('check-import-cycles', () => {
  it('passes on src/', async () => {
    const result = await run(process.execPath, [SCRIPT, 'src'], { cwd: REPO_ROOT })
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
    expect(result.stdout).toMatch(/^no import circle in src \(\d+ files\)/)
  })

  it('fails on a circle of type-only imports across folders, naming each edge', async () => {
    const result = await inTempTree(
      {
        'model/a.ts': "import type { B } from '../launch/b.js'\nexport interface A { b: B }\n",
        'launch/b.ts': "import { c } from './c.js'\nexport interface B { c: number }\nexport const b = c\n",
        'launch/c.ts': "export type { A } from '../model/a.js'\nexport const c = 1\n",
        'ok.ts': "import { c } from './launch/c.js'\nexport const ok = c\n"
      },
      dir => run(process.execPath, [SCRIPT, dir], { cwd: dir })
    )
    expect(result.code).toBe(1)
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'import circle of 3 files:',
      '  launch/b.ts -> launch/c.ts',
      '  launch/c.ts -> model/a.ts',
      '  model/a.ts -> launch/b.ts'
    ])
  })

  it('ignores imports in comments and of packages', async () => {
    const result = await inTempTree(
      {
        'a.ts': "// import { b } from './b.js'\nimport { request } from 'undici'\nexport const a = request\n",
        'b.ts': "import { a } from './a.js'\nexport const b = a\n"
      },
      dir => run(process.execPath, [SCRIPT, dir], { cwd: dir })
    )
    expect(result.code).toBe(0)
  })
})
