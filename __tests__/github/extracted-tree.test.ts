import { describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { checkExtractedTree, safeEntryPath } from '../../src/github/extracted-tree.js'

describe('safeEntryPath', () => {
  it.each(['../x', 'a/../../x', '/etc/passwd', 'C:/x', 'a\\..\\x', 'a/..', '', 'a\0b'])('refuses %j', name => {
    expect(safeEntryPath('/tmp/dest', name)).toBeNull()
  })
  it.each(['a', 'a/b/c.json', 'runs/s/simple_mcqa:model=x/stats.json', 'dir/'])('accepts %j inside the destination', name => {
    const target = safeEntryPath('/tmp/dest', name)
    expect(target?.startsWith('/tmp/dest/')).toBe(true)
  })
})

describe('checkExtractedTree', () => {
  async function tree(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'helm-gate-tree-'))
    await mkdir(path.join(dir, 'baseline/runs'), { recursive: true })
    await writeFile(path.join(dir, 'manifest.json'), '{}')
    await writeFile(path.join(dir, 'baseline/runs/stats.json'), 'x'.repeat(100))
    return dir
  }

  it('accepts plain files and directories', async () => {
    await expect(checkExtractedTree(await tree(), 'artifact 1')).resolves.toBeUndefined()
  })

  it('refuses a link (it could point anywhere), naming the entry, rather than skipping it', async () => {
    const dir = await tree()
    await symlink('/etc/passwd', path.join(dir, 'baseline/runs/passwd'))
    await expect(checkExtractedTree(dir, 'artifact 1')).rejects.toMatchObject({
      code: 'artifact.unsafe_entry',
      location: { value: 'baseline/runs/passwd' }
    })
  })

  it('refuses a tree beyond its size budget', async () => {
    await expect(checkExtractedTree(await tree(), 'artifact 1', { maxTotalBytes: 50, maxEntries: 100 })).rejects.toMatchObject({
      code: 'artifact.too_large'
    })
  })
})
