import { describe, expect, it } from '@jest/globals'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { gateFingerprint } from '../../src/identity/gate-fingerprint.js'
import { pathDigests } from '../../src/identity/fingerprint-paths.js'
import { gitIn, makeFixtureRepo } from '../../test-support/launch/fixture-repo.js'

const config = (paths: string[]) =>
  parseGateConfig(
    `
version: 1
deployments:
  baseline: { api: chat, base_url: http://127.0.0.1:8001/v1, model: a, launch: { command: [sh, serving/start.sh], checkout: base } }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b, launch: { command: [sh, serving/start.sh] } }
runs: [{ entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }]
fingerprint_paths: ${JSON.stringify(paths)}
`,
    'gate.yml'
  )

describe('fingerprint_paths', () => {
  it('digests the files at the base commit: a pull request that changes them keeps the base fingerprint', async () => {
    const repo = await makeFixtureRepo({ accuracy: 1 }, { accuracy: 0.5 })
    const atBase = await pathDigests(repo.dir, repo.baseSha, ['serving/**'])
    expect(Object.keys(atBase).sort()).toEqual(['serving/README', 'serving/fake.json'])
    const atHead = await pathDigests(repo.dir, repo.headSha, ['serving/**'])
    expect(atHead['serving/fake.json']).not.toBe(atBase['serving/fake.json'])
    expect(atHead['serving/README']).toBe(atBase['serving/README'])

    const gate = config(['serving/**'])
    // The checkout is the pull request's head; the base decides.
    const fromBase = await gateFingerprint(gate, repo.dir, repo.baseSha)
    await writeFile(join(repo.dir, 'serving', 'fake.json'), '{"accuracy": 0.1}\n') // uncommitted edits do not count either
    expect(await gateFingerprint(gate, repo.dir, repo.baseSha)).toBe(fromBase)
    // Outside a pull request (no base ref): HEAD, here the head commit, whose serving file differs.
    expect(await gateFingerprint(gate, repo.dir, null)).not.toBe(fromBase)
    // A new base commit that changes the baseline's serving files makes a new fingerprint.
    await gitIn(repo.dir, ['checkout', '--quiet', '--', '.'])
    await gitIn(repo.dir, ['checkout', '--quiet', 'main'])
    await writeFile(join(repo.dir, 'serving', 'README'), 'changed\n')
    await gitIn(repo.dir, ['commit', '--quiet', '-am', 'serving change on main'])
    expect(await gateFingerprint(gate, repo.dir, 'main')).not.toBe(fromBase)
  })

  it('a glob that matches nothing at the base commit is an error naming it', async () => {
    const repo = await makeFixtureRepo({}, {})
    await expect(gateFingerprint(config(['serving/**', 'servng/**']), repo.dir, repo.baseSha)).rejects.toMatchObject({
      code: 'config.fingerprint_paths',
      location: { field: 'fingerprint_paths[1]', value: 'servng/**' }
    })
  })
})

describe('a traffic set in the load section', () => {
  it('joins the fingerprint by its bytes: another set is another fingerprint, the same bytes elsewhere the same', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-fp-'))
    try {
      const gate = (file: string) =>
        parseGateConfig(
          `version: 1
deployments:
  baseline: { api: chat, base_url: http://127.0.0.1:8001/v1, model: a }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b }
runs: [{ entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }]
load: { workload: { prompts: traffic, file: ${file} }, concurrency: [1], requests_per_level: 3 }
`,
          join(dir, 'gate.yml')
        )
      const line = (content: string) => `${JSON.stringify({ id: 'a', request: { messages: [{ role: 'user', content }] } })}\n`
      await writeFile(join(dir, 'one.jsonl'), line('hello'))
      await writeFile(join(dir, 'copy.jsonl'), line('hello'))
      await writeFile(join(dir, 'two.jsonl'), line('hello!'))
      const one = await gateFingerprint(gate('one.jsonl'), dir, null)
      expect(await gateFingerprint(gate('copy.jsonl'), dir, null)).toBe(one)
      expect(await gateFingerprint(gate('two.jsonl'), dir, null)).not.toBe(one)
      const synthetic = parseGateConfig(
        'version: 1\nruns: [{ entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }]\n',
        join(dir, 'gate.yml')
      )
      expect(await gateFingerprint(synthetic, dir, null)).not.toBe(one)
      await expect(gateFingerprint(gate('missing.jsonl'), dir, null)).rejects.toMatchObject({
        code: 'config.traffic_set',
        location: { field: 'load.workload.file', value: 'missing.jsonl' }
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
