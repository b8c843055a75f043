/**
 * scripts/check-source-names.mjs: `npm run lint` fails when two source files or two exported
 * declarations share a name across src/, except a folder's own types.ts and the commands.
 */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { inTempTree } from '../support/temp-tree.js'

const SCRIPT = join(REPO_ROOT, 'scripts', 'check-source-names.mjs')

function check(files: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return inTempTree(files, dir => run(process.execPath, [SCRIPT, dir], { cwd: dir }))
}

describe('check-source-names', () => {
  it('passes on src/', async () => {
    const result = await run(process.execPath, [SCRIPT, 'src'], { cwd: REPO_ROOT })
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  })

  it('fails on two files of one name and on one exported type declared twice', async () => {
    const result = await check({
      'gate/identity.ts': 'export const runIdentity = 1\n',
      'model/identity.ts': 'export interface ProbeResult { a: number }\n',
      'server/readiness.ts': 'export type ProbeResult = { b: number }\n'
    })
    expect(result.code).toBe(1)
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'file name identity.ts is used 2 times: gate/identity.ts, model/identity.ts',
      'exported name ProbeResult is declared 2 times: model/identity.ts, server/readiness.ts',
      'rename so that each name says which thing it is (scripts/check-source-names.mjs)'
    ])
  })

  it("allows each folder's types.ts, the commands, overloads and re-exports", async () => {
    const result = await check({
      'gate/types.ts': 'export interface A { a: number }\n',
      'load/types.ts': "export type { A } from '../gate/types.js'\n",
      'cli/commands/compare.ts':
        'export function f(a: string): string\nexport function f(a: number): number\nexport function f(a: unknown): unknown { return a }\n',
      'gate/compare.ts': 'export const g = 1\n'
    })
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  })
})
