/**
 * `fingerprint_paths`: the digests of the files they select at the base commit join the
 * fingerprint, so an archived baseline is reused only while the baseline's serving files are
 * unchanged. The digest is git's blob id (a hash of the content), read from the commit itself,
 * not the work tree: what the pull request did to those files does not matter, the base does.
 */
import picomatch from 'picomatch'
import { git } from './git.js'

export async function pathDigests(root: string, commit: string, globs: string[], env?: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  if (globs.length === 0) return {}
  const matches = picomatch(globs, { dot: true })
  const { stdout } = await git(root, ['ls-tree', '-r', '-z', '--full-tree', commit], env)
  const digests: Record<string, string> = {}
  for (const record of stdout.split('\0')) {
    // <mode> SP <type> SP <object> TAB <path>
    const tab = record.indexOf('\t')
    if (tab < 0) continue
    const [, type, object] = record.slice(0, tab).split(' ')
    const path = record.slice(tab + 1)
    if ((type === 'blob' || type === 'commit') && matches(path)) digests[path] = object
  }
  return digests
}
