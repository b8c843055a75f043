import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { readPerInstanceStats } from '../../../src/helm/read/instance-stats.js'
import { scanPerInstanceStats } from '../../../src/helm/read/instance-stats-scan.js'
import { createRandom } from '../../../src/stats/random.js'

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures')

function filesNamed(dir: string, name: string): string[] {
  const found: string[] = []
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) found.push(...filesNamed(path, name))
    else if (entry === name) found.push(path)
  }
  return found
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** What the scanner must return for a document JSON.parse accepts: the fields the reader uses. */
function projection(document: unknown): unknown {
  if (!Array.isArray(document)) return undefined
  return document.map(entry => {
    if (!isObject(entry)) return entry
    const out: Record<string, unknown> = {}
    for (const key of ['instance_id', 'train_trial_index', 'perturbation'] as const) if (key in entry) out[key] = entry[key]
    if ('stats' in entry) {
      out.stats = Array.isArray(entry.stats)
        ? entry.stats.map(stat => {
            if (!isObject(stat)) return stat
            const kept: Record<string, unknown> = {}
            for (const key of ['name', 'count', 'sum'] as const) if (key in stat) kept[key] = stat[key]
            return kept
          })
        : entry.stats
    }
    return out
  })
}

const scan = (text: string): unknown => scanPerInstanceStats(Buffer.from(text, 'utf8'))

const ENTRY = {
  instance_id: 'id1',
  train_trial_index: 0,
  stats: [{ name: { name: 'exact_match', split: 'test' }, count: 1, sum: 1, sum_squared: 1, min: 1, max: 1, mean: 1, variance: 0 }]
}

describe('scanPerInstanceStats', () => {
  it('gives the fields the reader uses, exactly as JSON.parse gives them, on every fixture', () => {
    const files = filesNamed(FIXTURES, 'per_instance_stats.json')
    expect(files.length).toBeGreaterThan(5)
    let scanned = 0
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        // NaN tokens, truncation: the general parser's files.
        expect(scan(text)).toBeUndefined()
        continue
      }
      const result = scan(text)
      if (result !== undefined) {
        scanned++
        expect(result).toEqual(projection(parsed))
      }
    }
    expect(scanned).toBeGreaterThan(5)
  })

  it('reads every number as JSON.parse does (correct rounding, exponents, long mantissas, -0)', () => {
    const numbers = [
      '0',
      '-0',
      '0.1',
      '0.30000000000000004',
      '123456789012345',
      '1234567890123456789',
      '9007199254740993',
      '0.000000000000000000000001',
      '5e-324',
      '1.7976931348623157e308',
      '-2.5E+3',
      '1e0',
      '0.8417',
      '3.141592653589793',
      // Many decimals of up to 15 digits: the fast path must round each exactly as JSON.parse.
      ...Array.from({ length: 3000 }, (_, i) => {
        const digits = String((i * 2654435761) % 1e9).padStart(9, '0') + String(i * 7919).slice(0, 1 + (i % 6))
        const point = 1 + (i % (digits.length - 1))
        return `${i % 2 ? '-' : ''}${digits.slice(0, point).replace(/^0+(?=\d)/, '')}.${digits.slice(point)}`
      })
    ]
    const text = JSON.stringify([{ instance_id: 'a', train_trial_index: 0, stats: [] }]).replace(
      '"stats":[]',
      `"stats":[${numbers.map(n => `{"name":{"name":"m"},"count":1,"sum":${n}}`).join(',')}]`
    )
    const result = scan(text) as { stats: { sum: number }[] }[]
    expect(result[0].stats.map(s => s.sum)).toEqual(numbers.map(n => JSON.parse(n) as number))
    expect(Object.is(result[0].stats[1].sum, -0)).toBe(true)
  })

  it('decodes escapes and UTF-8 in kept strings as JSON.parse does', () => {
    const text = JSON.stringify([{ ...ENTRY, instance_id: 'é\n"\\\u2028😀', perturbation: { name: 'typos\t', seed: 3 } }])
    expect(scan(text)).toEqual(projection(JSON.parse(text)))
  })

  it('gives each entry its own stat names when they differ from the previous entry at that position', () => {
    const names = [
      { name: 'a' },
      { name: 'a', split: 'x' },
      { name: 'ab' },
      { name: 'a' },
      { name: 'a', split: 'x', sub_split: 'y' },
      { name: 'a' }
    ]
    const text = JSON.stringify(
      names.map((name, i) => ({ instance_id: `i${i}`, train_trial_index: 0, stats: [{ name, count: 1, sum: i }] }))
    )
    const result = scan(text) as { stats: { name: unknown }[] }[]
    expect(result.map(entry => entry.stats[0].name)).toEqual(names)
  })

  it('leaves to the general parser whatever it does not read itself', () => {
    const good = JSON.stringify([ENTRY])
    expect(scan(good)).toBeDefined()
    for (const text of [
      good.replace('"sum":1', '"sum":NaN'),
      good.replace('"sum":1', '"sum":Infinity'),
      good.replace('"sum":1', '"sum":-Infinity'),
      good.replace(']}]', '],}]'),
      good.replace('"id1"', '"id\u00011"'),
      good.replace('"id1"', '"id\\x1"'),
      good.replace('"count":1', '"count":01'),
      good.replace('"count":1', '"count":1.'),
      good.replace('"count":1', '"count":+1'),
      good.replace('"train_trial_index"', '"__proto__":{},"train_trial_index"'),
      good.replace('"min":1', `"min":${'['.repeat(100)}${']'.repeat(100)}`),
      JSON.stringify({ entries: [ENTRY] }),
      `\ufeff${good}`,
      good.slice(0, -1),
      `${good} x`,
      ''
    ]) {
      expect(scan(text)).toBeUndefined()
    }
  })

  it('never accepts what JSON.parse rejects, and otherwise agrees with it (random damage)', () => {
    const base = Buffer.from(
      JSON.stringify([ENTRY, { ...ENTRY, instance_id: 'id2', perturbation: { name: 'typos', seed: 1, computed_on: 'perturbed' } }], null, 1)
    )
    const rng = createRandom(17, 'scan-damage')
    const alphabet = Buffer.from('{}[],:"\\ 0123456789.eE+-ntfalsru\n\u0001x')
    for (let trial = 0; trial < 3000; trial++) {
      const bytes = Buffer.from(base)
      const edits = 1 + rng.below(3)
      for (let e = 0; e < edits; e++) bytes[rng.below(bytes.length)] = alphabet[rng.below(alphabet.length)]
      let parsed: unknown
      let valid = true
      try {
        parsed = JSON.parse(bytes.toString('utf8'))
      } catch {
        valid = false
      }
      const result = scanPerInstanceStats(bytes)
      if (!valid) expect(result).toBeUndefined()
      else if (result !== undefined) expect(result).toEqual(projection(parsed))
    }
  })

  it('makes readPerInstanceStats give the same table as the streaming parser', async () => {
    for (const file of filesNamed(FIXTURES, 'per_instance_stats.json')) {
      const viaScan = await readPerInstanceStats(file).catch((error: Error) => error)
      const viaStream = await readPerInstanceStats(file, { chunkSize: 4096 }).catch((error: Error) => error)
      expect(viaScan).toEqual(viaStream)
    }
  })
})
