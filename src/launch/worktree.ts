/**
 * `checkout: base`: the baseline's launch command runs in a worktree of the base commit, so a pull
 * request that changes `serving/` is measured before (base files) and after (its own files)
 * without a second workflow. The worktree is detached, outside the uploaded output, and removed
 * afterwards whatever happened.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { git, resolveCommit } from './git.js'

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
  const holder = await mkdtemp(join(parent, 'helm-gate-base-'))
  const dir = join(holder, 'tree')
  await git(root, ['worktree', 'add', '--detach', dir, sha], env)
  log?.(`base commit ${sha.slice(0, 12)} checked out in ${dir}`)
  let removed: Promise<void> | null = null
  return {
    dir,
    sha,
    remove: () => {
      removed ??= (async () => {
        try {
          await git(root, ['worktree', 'remove', '--force', dir], env)
        } catch {
          // fall through: delete the files and let prune drop the registration
        }
        await rm(holder, { recursive: true, force: true })
        await git(root, ['worktree', 'prune'], env).catch(() => {})
      })()
      return removed
    }
  }
}
