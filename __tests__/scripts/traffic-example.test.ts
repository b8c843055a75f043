/**
 * examples/traffic/ is regenerable: the generator writes the committed log byte for byte, and
 * `traffic build` with the documented count and seed writes the committed set and summary. The
 * set holds none of the credentials, addresses or numbers planted in the log.
 */
import { describe, expect, test } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { buildTrafficSet } from '../../src/traffic/build.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const EXAMPLE = join(ROOT, 'examples', 'traffic')

describe('examples/traffic', () => {
  test('the log, the set and its summary are what the generator and traffic build write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-traffic-example-'))
    try {
      const out = join(dir, 'support-log.jsonl')
      await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'make-traffic-example.mjs'), '--out', out], { cwd: ROOT })
      const log = await readFile(out, 'utf8')
      expect(log).toBe(await readFile(join(EXAMPLE, 'support-log.jsonl'), 'utf8'))
      const { instances, summary } = buildTrafficSet([{ name: 'examples/traffic/support-log.jsonl', text: log }], {
        count: 60,
        seed: 17,
        tagField: 'tag',
        dropFields: [],
        skipNonChat: false
      })
      const set = instances.map(i => `${JSON.stringify(i)}\n`).join('')
      expect(set).toBe(await readFile(join(EXAMPLE, 'traffic.jsonl'), 'utf8'))
      expect(`${JSON.stringify(summary, null, 2)}\n`).toBe(await readFile(join(EXAMPLE, 'traffic.summary.json'), 'utf8'))
      // Planted in the log, gone from the set.
      for (const planted of [
        /sk-proj-FAKE/,
        /ghp_FAKE/,
        /@example\.(com|org|net)/,
        /\+1 415 555 0142|\(415\) 555-0199|\+44 20 7946 0958/
      ]) {
        expect(log).toMatch(planted)
        expect(set).not.toMatch(planted)
      }
      expect(summary.duplicates_removed.exact).toBeGreaterThan(0)
      expect(summary.duplicates_removed.near).toBeGreaterThan(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
