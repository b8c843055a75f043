/** A throwaway folder holding the given files (path -> text), removed after `use` on every path. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export async function inTempTree<T>(files: Record<string, string>, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-tree-'))
  try {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true })
      await writeFile(join(dir, path), text)
    }
    return await use(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
