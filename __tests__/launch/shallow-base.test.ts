/**
 * `checkout: base` in a shallow clone (actions/checkout fetches one commit by default): the base
 * commit is not there, so it is fetched from origin with --depth=1 and checked out in a worktree.
 * The origin is a local fixture repository reached over file://.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { existsSync } from 'node:fs'
import { addBaseWorktree } from '../../src/launch/worktree.js'
import { gitIn, makeFixtureRepo } from '../../test-support/launch/fixture-repo.js'

describe('the base worktree in a shallow clone', () => {
  it('fetches the missing base commit from origin and checks out its files', async () => {
    const origin = await makeFixtureRepo({ accuracy: 0.25 }, { accuracy: 0.75 })
    const clone = join(await mkdtemp(join(tmpdir(), 'helm-gate-shallow-')), 'clone')
    await gitIn(origin.dir, ['clone', '--quiet', '--depth=1', '--branch', 'pr', `file://${origin.dir}`, clone])
    expect(await gitIn(clone, ['rev-parse', '--is-shallow-repository'])).toBe('true')
    await expect(gitIn(clone, ['cat-file', '-e', `${origin.baseSha}^{commit}`])).rejects.toThrow()

    const lines: string[] = []
    const worktree = await addBaseWorktree(clone, origin.baseSha, process.env, line => lines.push(line))
    try {
      expect(worktree.sha).toBe(origin.baseSha)
      expect(lines[0]).toBe(`fetching ${origin.baseSha} from origin (shallow checkout)`)
      expect(JSON.parse(await readFile(join(worktree.dir, 'serving', 'fake.json'), 'utf8'))).toEqual({ accuracy: 0.25 })
      expect(JSON.parse(await readFile(join(clone, 'serving', 'fake.json'), 'utf8'))).toEqual({ accuracy: 0.75 })
      // Still shallow: only the base commit was added, not the history.
      expect(await gitIn(clone, ['rev-parse', '--is-shallow-repository'])).toBe('true')
    } finally {
      await worktree.remove()
    }
    expect(existsSync(worktree.dir)).toBe(false)
  })
})
