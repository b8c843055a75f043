/**
 * The prompts of the load half as the engine received them: `prompts: gate-set` sends the prompts
 * HELM sent in the quality half (scenario_state.json of a real crfm-helm 0.5.16 run), `prompts:
 * file` the request bodies of a JSONL file; both sides get the same requests, every block all of
 * them once when a block is as long as the set. Not timing-sensitive: only what was sent is checked.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseGateConfig } from '../../src/config/load.js'
import { runLoad } from '../../src/load/run-load.js'
import type { RequestTiming } from '../../src/load/types.js'
import { startEngine, type EngineRecord, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { gateText } from './load-helpers.js'

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'helm-0.5.16', 'baseline')
// Short steps: these tests count what was sent, not how fast.
const ENGINE = { maxNumSeqs: 16, prefillBaseMs: 0.1, prefillPerTokenMs: 0, decodeBaseMs: 1, decodePerSeqMs: 0 }

let engines: FakeEngine[] = []
let dirs: string[] = []
afterEach(async () => {
  await Promise.all(engines.map(e => e.stop()))
  await Promise.all(dirs.map(d => rm(d, { recursive: true, force: true })))
  engines = []
  dirs = []
})

async function twoEngines(): Promise<[FakeEngine, FakeEngine]> {
  const started = await Promise.all([startEngine(ENGINE), startEngine(ENGINE)])
  engines.push(...started)
  return started
}

/** Every prompt of the fixture's scenario_state.json files, read here without helm-gate's reader. */
async function helmPrompts(): Promise<string[]> {
  const suite = join(FIXTURE, 'runs', 'gate')
  const prompts: string[] = []
  for (const run of (await readdir(suite)).sort()) {
    if (run === 'eval_cache') continue
    const state = JSON.parse(await readFile(join(suite, run, 'scenario_state.json'), 'utf8')) as {
      request_states: Array<{ request: { prompt: string } }>
    }
    prompts.push(...state.request_states.map(s => s.request.prompt))
  }
  return prompts
}

/** The engine's record of each measured request of a side, found by the response id. */
function received(timings: RequestTiming[], side: 'baseline' | 'candidate', records: EngineRecord[]): Map<string, EngineRecord[]> {
  const byId = new Map(records.map(r => [r.id, r]))
  const blocks = new Map<string, EngineRecord[]>()
  for (const t of timings.filter(x => x.side === side)) {
    expect(t.status).toBe('ok')
    const record = byId.get(t.id!)
    expect(record).toBeDefined()
    const key = `${t.level}:${t.repetition}`
    blocks.set(key, [...(blocks.get(key) ?? []), record!])
  }
  return blocks
}

const sorted = (xs: string[]): string[] => [...xs].sort()

describe('what the load half sends', () => {
  test('prompts: gate-set sends exactly the prompts HELM sent, each once per block, the same on both sides', async () => {
    const expected = await helmPrompts()
    expect(expected).toHaveLength(40)
    const [b, c] = await twoEngines()
    const config = parseGateConfig(
      gateText(
        b.baseUrl,
        c.baseUrl,
        `workload: { prompts: gate-set, output_tokens: { mean: 3 } }
concurrency: [4]
requests_per_level: 120
repetitions: 3
checks:
  - { metric: error_rate, max: 0 }`
      ),
      'gate.yml'
    )
    const { report, timings } = await runLoad(config, { env: {}, gateSetOutput: FIXTURE })
    expect(report.errors).toEqual([])
    expect(report.settings.prompts).toBe('gate-set')
    expect(timings).toHaveLength(240)
    const sides = {
      baseline: received(timings, 'baseline', await b.records()),
      candidate: received(timings, 'candidate', await c.records())
    }
    for (const side of ['baseline', 'candidate'] as const) {
      expect([...sides[side].keys()].sort()).toEqual(['4:0', '4:1', '4:2'])
      for (const records of sides[side].values()) {
        // Chat: HELM's prompt is the one user message.
        const sent = records.map(r => {
          const messages = r.request as Array<{ role: string; content: string }>
          expect(messages).toHaveLength(1)
          expect(messages[0].role).toBe('user')
          return messages[0].content
        })
        expect(sorted(sent)).toEqual(sorted(expected))
        for (const r of records) expect(r.output_tokens).toBe(3)
      }
    }
    // Block pair i: the same prompts in the same order on both sides.
    const order = (side: 'baseline' | 'candidate', records: EngineRecord[]): string[] => {
      const byId = new Map(records.map(r => [r.id, r]))
      return timings
        .filter(t => t.side === side && t.repetition === 1)
        .sort((x, y) => x.index - y.index)
        .map(t => JSON.stringify(byId.get(t.id!)!.request))
    }
    expect(order('candidate', await c.records())).toEqual(order('baseline', await b.records()))
  }, 60_000)

  test('prompts: gate-set without the quality half is a clear error', async () => {
    const [b, c] = await twoEngines()
    const config = parseGateConfig(
      gateText(b.baseUrl, c.baseUrl, 'workload: { prompts: gate-set }\nconcurrency: [1]\nrequests_per_level: 3'),
      'gate.yml'
    )
    const { report, timings } = await runLoad(config, { env: {} })
    expect(report.verdict).toBe('error')
    expect(report.errors.map(e => [e.code, e.field])).toEqual([['load.gate_set', 'load.workload.prompts']])
    expect(timings).toEqual([])
  }, 30_000)

  test('prompts: file sends the JSONL bodies: messages as given, a prompt as one user message, max_tokens kept', async () => {
    const [b, c] = await twoEngines()
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-load-file-'))
    dirs.push(dir)
    const bodies = [
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Name a prime number.' }
        ],
        max_tokens: 2
      },
      { prompt: 'Translate to French: good morning', max_tokens: 5 },
      { messages: [{ role: 'user', content: 'Count to three.' }], max_completion_tokens: 4 },
      { messages: [{ role: 'user', content: 'What is 2 + 2?' }] }
    ]
    await writeFile(join(dir, 'traffic.jsonl'), `${bodies.map(x => JSON.stringify(x)).join('\n')}\n\n`)
    await writeFile(
      join(dir, 'gate.yml'),
      gateText(
        b.baseUrl,
        c.baseUrl,
        `workload: { prompts: file, file: traffic.jsonl, output_tokens: { mean: 7 } }
concurrency: [2]
requests_per_level: 12
repetitions: 3`
      )
    )
    const config = parseGateConfig(await readFile(join(dir, 'gate.yml'), 'utf8'), join(dir, 'gate.yml'))
    const { report, timings } = await runLoad(config, { env: {} })
    expect(report.errors).toEqual([])
    const expected = [
      { messages: bodies[0].messages, tokens: 2 },
      { messages: [{ role: 'user', content: 'Translate to French: good morning' }], tokens: 5 },
      { messages: bodies[2].messages, tokens: 4 },
      // No max_tokens in the body: the workload's output_tokens mean.
      { messages: bodies[3].messages, tokens: 7 }
    ].map(x => JSON.stringify(x))
    for (const [side, engine] of [
      ['baseline', b],
      ['candidate', c]
    ] as const) {
      const blocks = received(timings, side, await engine.records())
      expect(blocks.size).toBe(3)
      for (const records of blocks.values()) {
        expect(sorted(records.map(r => JSON.stringify({ messages: r.request, tokens: r.output_tokens })))).toEqual(sorted(expected))
      }
    }
  }, 60_000)

  test("prompts: traffic sends each instance's messages and max_tokens (not its response_format or tools), every block the whole set", async () => {
    const [b, c] = await twoEngines()
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-load-traffic-'))
    dirs.push(dir)
    const system = { role: 'system', content: 'You are the support assistant.' }
    const instances = [
      { id: 'a', request: { messages: [system, { role: 'user', content: 'Refund please.' }], max_tokens: 2 } },
      {
        id: 'b',
        request: {
          messages: [
            system,
            { role: 'user', content: 'My sync is stuck.' },
            { role: 'assistant', content: 'Update the app.' },
            { role: 'user', content: 'Did that.' }
          ],
          max_tokens: 5,
          tools: [{ type: 'function', function: { name: 'open_ticket', parameters: { type: 'object' } } }]
        }
      },
      {
        id: 'c',
        request: {
          messages: [{ role: 'user', content: 'Classify: billing?' }],
          response_format: { type: 'json_object' },
          max_completion_tokens: 3
        }
      },
      { id: 'd', request: { messages: [{ role: 'user', content: 'Hello' }] } }
    ].map(x => ({ stratum: 'all/short', tag: null, reference: null, logged_response: null, arrival_ms: null, ...x }))
    await writeFile(join(dir, 'traffic.jsonl'), instances.map(x => `${JSON.stringify(x)}\n`).join(''))
    await writeFile(
      join(dir, 'gate.yml'),
      gateText(
        b.baseUrl,
        c.baseUrl,
        `workload: { prompts: traffic, file: traffic.jsonl, output_tokens: { mean: 6 } }
concurrency: [2]
requests_per_level: 12
repetitions: 3`
      )
    )
    const config = parseGateConfig(await readFile(join(dir, 'gate.yml'), 'utf8'), join(dir, 'gate.yml'))
    const { report, timings } = await runLoad(config, { env: {} })
    expect(report.errors).toEqual([])
    expect(report.settings.prompts).toBe('traffic')
    const expected = [
      { messages: instances[0].request.messages, tokens: 2 },
      { messages: instances[1].request.messages, tokens: 5 },
      { messages: instances[2].request.messages, tokens: 3 },
      // No max_tokens in the request: the workload's output_tokens mean.
      { messages: instances[3].request.messages, tokens: 6 }
    ].map(x => JSON.stringify(x))
    for (const [side, engine] of [
      ['baseline', b],
      ['candidate', c]
    ] as const) {
      const blocks = received(timings, side, await engine.records())
      expect(blocks.size).toBe(3)
      for (const records of blocks.values()) {
        expect(sorted(records.map(r => JSON.stringify({ messages: r.request, tokens: r.output_tokens })))).toEqual(sorted(expected))
      }
    }
  }, 60_000)

  test('prompts: traffic with a bad set line is an error naming the set file and the line', async () => {
    const [b, c] = await twoEngines()
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-load-traffic-'))
    dirs.push(dir)
    await writeFile(
      join(dir, 'traffic.jsonl'),
      `${JSON.stringify({
        id: 'a',
        stratum: 'all/short',
        tag: null,
        request: { messages: [] },
        reference: null,
        logged_response: null,
        arrival_ms: null
      })}\n`
    )
    await writeFile(
      join(dir, 'gate.yml'),
      gateText(b.baseUrl, c.baseUrl, 'workload: { prompts: traffic, file: traffic.jsonl }\nconcurrency: [1]\nrequests_per_level: 3')
    )
    const config = parseGateConfig(await readFile(join(dir, 'gate.yml'), 'utf8'), join(dir, 'gate.yml'))
    const { report, timings } = await runLoad(config, { env: {} })
    expect(report.verdict).toBe('error')
    expect(report.errors).toHaveLength(1)
    expect(report.errors[0].code).toBe('traffic.bad_line')
    expect(report.errors[0].message).toContain(`file: ${join(dir, 'traffic.jsonl')}, field: line 1: request.messages`)
    expect(timings).toEqual([])
  }, 30_000)
})
