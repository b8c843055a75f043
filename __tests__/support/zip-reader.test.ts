import { describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { extractZip, listZipEntries } from '../../test-support/fake-github/zip-reader.js'
import { InputError } from '../../src/errors.js'
import { buildZip } from '../../test-support/fake-github/zip-writer.js'

describe('extractZip', () => {
  it('round-trips files made by the zip writer', async () => {
    const dest = await mkdtemp(path.join(tmpdir(), 'zip-'))
    const zip = buildZip([
      { name: 'manifest.json', data: '{"a":1}' },
      { name: 'helm/baseline/runs/s/r/stats.json', data: Buffer.alloc(5000, 7) }
    ])
    expect(listZipEntries(zip).map(e => e.name)).toEqual(['manifest.json', 'helm/baseline/runs/s/r/stats.json'])
    await extractZip(zip, dest)
    expect(await readFile(path.join(dest, 'manifest.json'), 'utf8')).toBe('{"a":1}')
    expect((await readFile(path.join(dest, 'helm/baseline/runs/s/r/stats.json'))).equals(Buffer.alloc(5000, 7))).toBe(true)
  })

  it('rejects an archive with an escaping entry before writing anything', async () => {
    const dest = await mkdtemp(path.join(tmpdir(), 'zip-'))
    const zip = buildZip([
      { name: 'ok.txt', data: 'fine' },
      { name: '../../escaped.txt', data: 'evil' }
    ])
    await expect(extractZip(zip, path.join(dest, 'inner'))).rejects.toThrow(InputError)
    expect(await readdir(dest)).toEqual([])
  })

  it('refuses archives that expand beyond the limit and non-zips', async () => {
    const dest = await mkdtemp(path.join(tmpdir(), 'zip-'))
    const zip = buildZip([{ name: 'big', data: Buffer.alloc(10_000) }])
    await expect(extractZip(zip, dest, { maxTotalBytes: 1000, maxEntries: 10 })).rejects.toThrow(/expand/)
    await expect(extractZip(Buffer.from('not a zip at all, sorry'), dest)).rejects.toThrow(/not a zip/)
  })
})
