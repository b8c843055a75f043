import { describe, expect, it } from '@jest/globals'
import { baselineArtifactName, evidenceArtifactName, parseShardArtifactName, sanitizeArtifactName } from '../../src/evidence/names.js'
import { selectShardSet } from '../../src/evidence/shard-set.js'
import { selectShard } from '../../src/action/shards.js'
import type { GatedRun } from '../../src/config/types.js'

const FORBIDDEN = /[":<>|*?\r\n\\/]/

describe('artifact names', () => {
  it('never contain a character GitHub refuses', () => {
    expect(sanitizeArtifactName('a:b/c\\d"e<f>g|h*i?j\r\nk')).not.toMatch(FORBIDDEN)
    expect(sanitizeArtifactName('::')).toBe('helm-gate')
  })
  it('are unique per mode, attempt and shard and parse back', () => {
    const names = new Set([
      evidenceArtifactName('gate', 1),
      evidenceArtifactName('gate', 2),
      evidenceArtifactName('run', 1, { index: 0, count: 2 }),
      evidenceArtifactName('run', 1, { index: 1, count: 2 })
    ])
    expect(names.size).toBe(4)
    expect(parseShardArtifactName(evidenceArtifactName('run', 3, { index: 1, count: 4 }))).toEqual({ index: 1, count: 4, attempt: 3 })
    expect(parseShardArtifactName(evidenceArtifactName('gate', 1))).toBeNull()
  })
  it('carry the fingerprint in the baseline name', () => {
    expect(baselineArtifactName('helm-gate-baseline', 'abcdef0123456789ffff')).toBe('helm-gate-baseline-abcdef0123456789')
  })
})

describe('shards', () => {
  const run = (entry: string, metric = 'exact_match'): GatedRun => ({
    entry,
    match: null,
    metric,
    split: null,
    maxDrop: 0.02,
    maxRelativeDrop: null,
    direction: 'higher',
    perturbations: 'report'
  })
  const runs = [run('a'), run('a', 'f1'), run('b'), run('c'), run('d')]

  it('spreads entries round-robin and keeps metrics of one entry together', () => {
    const all = [0, 1, 2].map(i => selectShard(runs, i, 3))
    expect(all.map(s => s.map(r => `${r.entry}/${r.metric}`))).toEqual([
      ['a/exact_match', 'a/f1', 'd/exact_match'],
      ['b/exact_match'],
      ['c/exact_match']
    ])
    expect(all.flat()).toHaveLength(runs.length)
  })
  it('refuses more shards than entries', () => {
    expect(() => selectShard(runs, 0, 5)).toThrow(/shard-count/)
  })

  it('takes the latest attempt of every shard and notices missing ones', () => {
    const a = (name: string, id: number) => ({ id, name, digest: null })
    const set = selectShardSet([
      a(evidenceArtifactName('run', 1, { index: 0, count: 2 }), 1),
      a(evidenceArtifactName('run', 2, { index: 0, count: 2 }), 2),
      a(evidenceArtifactName('run', 1, { index: 1, count: 2 }), 3),
      a('unrelated', 4)
    ])
    expect(set).toEqual({ ok: true, count: 2, artifacts: [expect.objectContaining({ id: 2 }), expect.objectContaining({ id: 3 })] })
    const missing = selectShardSet([a(evidenceArtifactName('run', 1, { index: 1, count: 3 }), 1)])
    expect(missing).toEqual({ ok: false, reason: expect.stringMatching(/0, 2 of 3/) })
    expect(selectShardSet([]).ok).toBe(false)
  })
})
