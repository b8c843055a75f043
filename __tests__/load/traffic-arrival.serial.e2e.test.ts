/**
 * `arrival: traffic`: the open-loop load replays the traffic set's own arrival pattern (bursts and
 * quiet spells), scaled to the rate, against real fake-engine processes. The truth is the set:
 * arrivals 0, 0, 0, 1200, 1500, 2400 ms have the gaps 0, 0, 1200, 300, 900 and, to close the
 * cycle, their mean 480; at 4 requests per second each is scaled by 250 / 480. Asserted on the
 * requests' due times (the schedule the sender followed, `scheduled_ms`) and that none left before
 * it was due, never on how late they left: that is a measurement (bench/arrivals.mjs).
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { runLoad } from '../../src/load/run-load.js'
import { startEngine, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { gateText } from './load-helpers.js'

const ENGINE = { maxNumSeqs: 64, prefillBaseMs: 0.5, prefillPerTokenMs: 0, decodeBaseMs: 2, decodePerSeqMs: 0 }
const ARRIVALS = [0, 0, 0, 1200, 1500, 2400]

let engines: FakeEngine[] = []
let dirs: string[] = []
afterEach(async () => {
  await Promise.all(engines.map(e => e.stop()))
  await Promise.all(dirs.map(d => rm(d, { recursive: true, force: true })))
  engines = []
  dirs = []
})

describe('arrival: traffic', () => {
  test("each block's gaps are the set's gaps scaled to the rate, the same schedule on both sides", async () => {
    const [b, c] = await Promise.all([startEngine(ENGINE), startEngine(ENGINE)])
    engines.push(b, c)
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-traffic-arrival-'))
    dirs.push(dir)
    const set = ARRIVALS.map((arrival_ms, i) => ({
      id: `t-${i + 1}`,
      stratum: 'all/short',
      tag: null,
      request: { messages: [{ role: 'user', content: `question ${i}` }], max_tokens: 3 },
      reference: null,
      logged_response: null,
      arrival_ms
    }))
    await writeFile(join(dir, 'traffic.jsonl'), set.map(x => `${JSON.stringify(x)}\n`).join(''))
    // Seven requests per block: six gaps, one whole cycle of the set's gaps whatever the offset.
    const text = gateText(
      b.baseUrl,
      c.baseUrl,
      'workload: { prompts: traffic, file: traffic.jsonl }\nrate: [4]\narrival: traffic\nrequests_per_level: 21\nrepetitions: 3'
    )
    const config = parseGateConfig(text, join(dir, 'gate.yml'))
    const { report, timings } = await runLoad(config, { env: {} })
    expect(report.errors).toEqual([])
    expect(report.settings.arrival).toBe('traffic')
    const mean = 480
    const expected = [0, 0, 1200, 300, 900, mean].map(g => (g * 250) / mean).sort((x, y) => x - y)
    const byBlock = new Map<string, typeof timings>()
    for (const t of timings) byBlock.set(`${t.side}:${t.repetition}`, [...(byBlock.get(`${t.side}:${t.repetition}`) ?? []), t])
    expect(byBlock.size).toBe(6)
    const dueGapsOf = (key: string): number[] => {
      const sent = [...(byBlock.get(key) ?? [])].sort((x, y) => x.index - y.index)
      expect(sent).toHaveLength(7)
      for (const t of sent) {
        // A send may leave up to 1 ms before its due time (no timer is set for less), never more.
        const early = t.scheduled_ms! - t.send_ms
        expect({ index: t.index, early: early <= 1 ? 'not early' : early }).toEqual({ index: t.index, early: 'not early' })
      }
      return sent.slice(1).map((t, i) => t.scheduled_ms! - sent[i].scheduled_ms!)
    }
    for (const repetition of [0, 1, 2]) {
      const baseline = dueGapsOf(`baseline:${repetition}`)
      const candidate = dueGapsOf(`candidate:${repetition}`)
      const sorted = [...baseline].sort((x, y) => x - y)
      sorted.forEach((gap, i) => expect(gap).toBeCloseTo(expected[i], 6))
      // Block pair i: the same gaps in the same order on both sides.
      candidate.forEach((gap, i) => expect(gap).toBeCloseTo(baseline[i], 6))
    }
  }, 60_000)
})
