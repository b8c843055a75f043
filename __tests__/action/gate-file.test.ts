import { describe, expect, it } from '@jest/globals'
import { deriveEvent } from '../../src/action/event.js'
import { resolveGateFile, type GateFileSources } from '../../src/action/gate-file.js'
import { unifiedDiff } from '../../src/action/unified-diff.js'
import type { GateConfig } from '../../src/config/types.js'
import { ConfigError } from '../../src/errors.js'

const env = { GITHUB_REPOSITORY: 'acme/serving', GITHUB_RUN_ID: '1', GITHUB_SHA: 'm' }
const prEvent = deriveEvent(
  'pull_request',
  {
    repository: { id: 1, default_branch: 'main' },
    pull_request: { number: 3, head: { sha: 'h', repo: { id: 1 } }, base: { sha: 'base123', repo: { id: 1 } } }
  },
  env
)
const parse = (text: string, source: string) => ({ source, text }) as unknown as GateConfig
const sources = (base: string | null, workspace: string | null): GateFileSources & { asked: string[] } => {
  const asked: string[] = []
  return {
    asked,
    readWorkspace: async () => {
      if (workspace === null) throw new ConfigError('config.unreadable', 'missing')
      return workspace
    },
    readAtCommit: async sha => {
      asked.push(sha)
      return base
    },
    readFileAtCommit: async () => null,
    parse
  }
}

describe('resolveGateFile', () => {
  it('judges a pull request by the base version and shows the change', async () => {
    const s = sources('max_drop: 0.02\n', 'max_drop: 0.5\n')
    const resolved = await resolveGateFile('.github/helm-gate.yml', prEvent, true, s)
    expect(s.asked).toEqual(['base123'])
    expect((resolved.config as unknown as { text: string }).text).toBe('max_drop: 0.02\n')
    expect(resolved.change).toContain('-max_drop: 0.02')
    expect(resolved.change).toContain('+max_drop: 0.5')
    expect(resolved.notes[0]).toMatch(/after merge/)
  })

  it('reports no change when the PR leaves the file alone', async () => {
    const resolved = await resolveGateFile('g.yml', prEvent, true, sources('a: 1\n', 'a: 1\n'))
    expect(resolved.change).toBeNull()
  })

  it("uses the PR's file when the gate is new, and the work tree when not frozen or not a PR", async () => {
    expect((await resolveGateFile('g.yml', prEvent, true, sources(null, 'new\n'))).notes[0]).toMatch(/new in this pull request/)
    const unfrozen = sources('base\n', 'pr\n')
    expect((await resolveGateFile('g.yml', prEvent, false, unfrozen)).origin).toBe('workspace')
    expect(unfrozen.asked).toEqual([])
    const push = deriveEvent('push', {}, env)
    expect((await resolveGateFile('g.yml', push, true, sources('base\n', 'pr\n'))).origin).toBe('workspace')
  })
})

describe('resolveGateFile: the traffic set is frozen with the gate file', () => {
  const gate = 'version: 1\ntraffic:\n  set: traffic/set.jsonl\n'
  const withSet = (files: Record<string, string>): GateFileSources & { read: string[]; sets: string[] } => {
    const read: string[] = []
    const sets: string[] = []
    return {
      read,
      sets,
      readWorkspace: async () => gate,
      readAtCommit: async () => gate,
      readFileAtCommit: async (path, sha) => {
        read.push(`${path}@${sha}`)
        return path in files ? Buffer.from(files[path]) : null
      },
      parse: (text, source, readSet) => {
        if (readSet) sets.push(readSet('ignored').toString('utf8'))
        return parse(text, source)
      }
    }
  }

  it("reads the set at the base commit, relative to the gate file, and parses with the base's bytes", async () => {
    const s = withSet({ '.github/traffic/set.jsonl': 'base set\n' })
    await resolveGateFile('.github/helm-gate.yml', prEvent, true, s)
    expect(s.read).toEqual(['.github/traffic/set.jsonl@base123'])
    expect(s.sets).toEqual(['base set\n'])
  })

  it("names the references a pull request changes in the set, which the base commit's set still judges", async () => {
    const line = (id: string, reference: string | null): string =>
      JSON.stringify({ id, stratum: 'all/short', tag: null, request: { messages: [{ role: 'user', content: id }] }, reference })
    const base = [line('t-1', 'Paris'), line('t-2', null), line('t-3', '42')].join('\n')
    const head = [line('t-1', 'Lyon'), line('t-2', 'new'), line('t-3', '42'), line('t-4', 'added')].join('\n')
    const s = withSet({ '.github/traffic/set.jsonl': base })
    const asked: string[] = []
    s.readWorkspaceSet = async set => {
      asked.push(set)
      return head
    }
    const resolved = await resolveGateFile('.github/helm-gate.yml', prEvent, true, s)
    expect(asked).toEqual(['traffic/set.jsonl'])
    // The base bytes were parsed: both sides are judged against Paris.
    expect(s.sets).toEqual([base])
    expect(resolved.notes).toEqual([
      "This pull request changes the reference answer of 2 traffic instances in traffic/set.jsonl (first: t-1); both sides were judged against the base commit's references, and the change takes effect after merge."
    ])
    // The same set on both: no note.
    s.readWorkspaceSet = async () => base
    expect((await resolveGateFile('.github/helm-gate.yml', prEvent, true, s)).notes).toEqual([])
  })

  it('a set missing at the base commit, or outside the repository, is an error', async () => {
    const missing = await resolveGateFile('.github/helm-gate.yml', prEvent, true, withSet({})).catch(e => e as ConfigError)
    expect(missing).toMatchObject({ code: 'config.traffic_set_missing', location: { field: 'traffic.set' } })
    const outside = withSet({})
    outside.readAtCommit = async () => 'traffic:\n  set: ../../elsewhere.jsonl\n'
    const error = await resolveGateFile('.github/helm-gate.yml', prEvent, true, outside).catch(e => e as ConfigError)
    expect(error).toMatchObject({ code: 'config.traffic_set_outside', location: { value: '../../elsewhere.jsonl' } })
  })
})

describe('merge queue', () => {
  it('freezes the gate file at the merge group base and checks the group head', async () => {
    const group = deriveEvent(
      'merge_group',
      { repository: { id: 1, default_branch: 'main' }, merge_group: { base_sha: 'mgbase', head_sha: 'mghead' } },
      env
    )
    expect(group.checkSha).toBe('mghead')
    const s = sources('max_drop: 0.02\n', 'max_drop: 0.5\n')
    const resolved = await resolveGateFile('g.yml', group, true, s)
    expect(s.asked).toEqual(['mgbase'])
    expect(resolved.origin).toBe('base mgbase')
  })
})

describe('unifiedDiff', () => {
  it('writes hunks with context', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n')
    const after = before.replace('line 10', 'line ten')
    const diff = unifiedDiff(before, after, 'a', 'b')
    expect(diff.split('\n')).toEqual([
      '--- a',
      '+++ b',
      '@@ -8,7 +8,7 @@',
      ' line 7',
      ' line 8',
      ' line 9',
      '-line 10',
      '+line ten',
      ' line 11',
      ' line 12',
      ' line 13'
    ])
    expect(unifiedDiff('same\n', 'same\n', 'a', 'b')).toBe('')
  })
})
