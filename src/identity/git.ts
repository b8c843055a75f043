/**
 * The few git operations launching needs, each an argument array (never a shell): resolve a
 * commit, fetch it into a shallow checkout, add and remove a worktree, list blob digests.
 */
import { execFile } from 'node:child_process'
import { LaunchError } from '../errors.js'

export interface GitResult {
  stdout: string
  stderr: string
}

export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      // No prompt for credentials in a job: a fetch that needs them fails instead of hanging.
      { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 },
      (error, stdout, stderr) => {
        if (error) {
          const message = (stderr || error.message).trim().split('\n').slice(-3).join(' ')
          reject(new LaunchError('launch.git', `git ${args[0]} failed: ${message}`, { file: cwd, value: args.join(' ') }))
        } else resolve({ stdout, stderr })
      }
    )
  })
}

/** The top of the work tree holding `dir`. */
export async function repositoryRoot(dir: string, env?: NodeJS.ProcessEnv): Promise<string> {
  try {
    return (await git(dir, ['rev-parse', '--show-toplevel'], env)).stdout.trim()
  } catch {
    throw new LaunchError('launch.not_a_repository', `${dir} is not inside a git work tree; launching from a checkout needs one`, {
      file: dir
    })
  }
}

/**
 * The full SHA of `ref`, fetching it from `origin` when the checkout lacks it (actions/checkout
 * fetches one commit by default, so the pull request's base is usually absent).
 */
export async function resolveCommit(root: string, ref: string, env?: NodeJS.ProcessEnv, log?: (line: string) => void): Promise<string> {
  const local = await tryResolve(root, ref, env)
  if (local) return local
  const shallow = (await git(root, ['rev-parse', '--is-shallow-repository'], env)).stdout.trim() === 'true'
  log?.(`fetching ${ref} from origin (${shallow ? 'shallow checkout' : 'not in this clone'})`)
  try {
    await git(root, ['fetch', '--no-tags', '--no-recurse-submodules', ...(shallow ? ['--depth=1'] : []), 'origin', ref], env)
  } catch (error) {
    throw new LaunchError(
      'launch.fetch',
      `cannot find commit ${ref} locally and fetching it from origin failed: ${(error as Error).message}`,
      {
        value: ref
      }
    )
  }
  const fetched = (await tryResolve(root, ref, env)) ?? (await tryResolve(root, 'FETCH_HEAD', env))
  if (!fetched) throw new LaunchError('launch.fetch', `commit ${ref} is still missing after fetching it`, { value: ref })
  return fetched
}

async function tryResolve(root: string, ref: string, env?: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    return (await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], env)).stdout.trim() || null
  } catch {
    return null
  }
}
