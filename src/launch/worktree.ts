/**
 * `checkout: base`: the baseline's launch command runs in a worktree of the base commit, so a pull
 * request that changes `serving/` is measured before (base files) and after (its own files)
 * without a second workflow. The worktree is detached, outside the uploaded output, and removed
 * afterwards whatever happened.
 */
import { mkdtempSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { git, resolveCommit } from '../identity/git.js'
import { removeDirNow, runNow, trackLeftover } from '../process/registry.js'

export interface Worktree {
  /** The worktree's root directory. */
  dir: string
  sha: string
  remove(): Promise<void>
}

export async function addBaseWorktree(
  root: string,
  ref: string,
  env?: NodeJS.ProcessEnv,
  log?: (line: string) => void,
  parent = tmpdir()
): Promise<Worktree> {
  const sha = await resolveCommit(root, ref, env, log)
  // Created and registered in one step (no await between), before git adds the worktree, so a
  // signal at any moment from here on finds it: the signal path waits for the add, then removes
  // the worktree and its registration (src/process/registry.ts).
  const holder = mkdtempSync(join(parent, 'helm-gate-base-'))
  const dir = join(holder, 'tree')
  const gitEnv = { ...(env ?? process.env), GIT_TERMINAL_PROMPT: '0' }
  let adding: Promise<unknown> = Promise.resolve()
  let removed: Promise<void> | null = null
  let release = (): void => {}
  const remove = (): Promise<void> =>
    (removed ??= (async () => {
      await adding.catch(() => {})
      try {
        await git(root, ['worktree', 'remove', '--force', dir], env)
      } catch {
        // fall through: delete the files and let prune drop the registration
      }
      await rm(holder, { recursive: true, force: true, maxRetries: 3 }).catch(() => {})
      await git(root, ['worktree', 'prune'], env).catch(() => {})
      release()
    })())
  release = trackLeftover({
    label: `worktree ${dir}`,
    remove,
    removeNow: () => {
      runNow('git', ['worktree', 'remove', '--force', dir], root, gitEnv)
      removeDirNow(holder)
      runNow('git', ['worktree', 'prune'], root, gitEnv)
    }
  })
  adding = git(root, ['worktree', 'add', '--detach', dir, sha], env)
  try {
    await adding
  } catch (error) {
    await remove()
    throw error
  }
  log?.(`base commit ${sha.slice(0, 12)} checked out in ${dir}`)
  return { dir, sha, remove }
}
