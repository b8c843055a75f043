/**
 * The path-escape guard, as a check on what a download extracted and on the paths an untrusted
 * manifest names. An archived baseline, a shard or a fork's measurement is untrusted data: an
 * entry such as `../../.github/workflows/x.yml` must never be written or read outside its
 * directory. @actions/artifact's extractor (unzip-stream) already rewrites `..` segments while
 * streaming; this guard does not repair anything: whatever is not a plain file or directory
 * inside the destination, or exceeds the size budget, refuses the whole artifact.
 */
import { lstat, readdir, realpath } from 'node:fs/promises'
import path from 'node:path'
import { InputError } from '../errors.js'

export interface TreeLimits {
  /** Refuse trees that expanded beyond this (zip bombs). */
  maxTotalBytes: number
  maxEntries: number
}

export const DEFAULT_TREE_LIMITS: TreeLimits = { maxTotalBytes: 16 * 1024 ** 3, maxEntries: 200_000 }

/**
 * Where a relative name lands inside `destination`, or null when it would escape it: absolute
 * paths, drive letters, backslashes (Windows separators), NUL bytes and `..` segments.
 */
export function safeEntryPath(destination: string, name: string): string | null {
  if (name === '' || name.includes('\0') || name.includes('\\')) return null
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return null
  if (name.split('/').some(part => part === '..')) return null
  const root = path.resolve(destination)
  const target = path.resolve(root, name)
  if (target !== root && !target.startsWith(root + path.sep)) return null
  return target
}

/** Walks an extracted artifact; throws (naming the entry) on anything but files and directories inside it. */
export async function checkExtractedTree(destination: string, what: string, limits: TreeLimits = DEFAULT_TREE_LIMITS): Promise<void> {
  const root = await realpath(destination)
  let entries = 0
  let bytes = 0
  const refuse = (code: string, message: string, value: string): never => {
    throw new InputError(code, `${what}: ${message}`, { file: destination, field: 'entry', value })
  }
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      const relative = path.relative(root, full)
      if (safeEntryPath(root, relative.split(path.sep).join('/')) === null)
        refuse('artifact.unsafe_path', 'an entry lies outside the artifact', relative)
      const info = await lstat(full)
      if (++entries > limits.maxEntries) refuse('artifact.too_many', `more than ${limits.maxEntries} entries`, relative)
      if (info.isDirectory()) await walk(full)
      else if (info.isFile()) {
        bytes += info.size
        if (bytes > limits.maxTotalBytes) refuse('artifact.too_large', `expanded beyond ${limits.maxTotalBytes} bytes`, relative)
      } else refuse('artifact.unsafe_entry', 'an entry is not a plain file or directory (a link or a device)', relative)
    }
  }
  await walk(root)
}
