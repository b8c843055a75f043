import { expect, it } from '@jest/globals'
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { decodeArtifactPath, decodeTree, encodeArtifactPath } from '../../src/github/artifact-paths.js'
import { isSecretPath } from '../../src/github/artifacts.js'

const FORBIDDEN = /[":<>|*?\r\n\\]/

it('encodes HELM run names into paths the artifact service accepts, reversibly', () => {
  for (const name of ['runs/s/simple_mcqa:model=org_m,data_augmentation=robustness/stats.json', 'a%3Ab/"q"<>|*?\\x', 'plain/file.json']) {
    const encoded = encodeArtifactPath(name)
    expect(encoded).not.toMatch(FORBIDDEN)
    expect(decodeArtifactPath(encoded)).toBe(name)
  }
})

it('decodes a downloaded tree in place', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'decode-'))
  await mkdir(path.join(dir, 'simple_mcqa%3Amodel=x'))
  await writeFile(path.join(dir, 'simple_mcqa%3Amodel=x', 'stats.json'), '[]')
  await decodeTree(dir)
  expect(await readdir(dir)).toEqual(['simple_mcqa:model=x'])
  expect(await readdir(path.join(dir, 'simple_mcqa:model=x'))).toEqual(['stats.json'])
})

it('never uploads prod_env or credentials', () => {
  expect(isSecretPath('helm/prod_env/credentials.conf')).toBe(true)
  expect(isSecretPath('credentials.conf')).toBe(true)
  expect(isSecretPath('x/.env')).toBe(true)
  expect(isSecretPath('helm/baseline/runs/s/r/stats.json')).toBe(false)
})
