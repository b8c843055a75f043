/** What the probes of the two sides mean, before any load: which error, and what it tells to do. */
import { describe, expect, test } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { beginLoad, isOutcome, type LoadRun } from '../../src/load/load-run.js'
import { judgeProbes } from '../../src/load/load-preflight.js'
import { chunkNote } from '../../src/load/finish-load.js'
import type { RequestTiming } from '../../src/load/types.js'
import type { StreamProbe } from '../../src/load/probe.js'
import type { LoadSide } from '../../src/model/load-report.js'
import { gateText } from './load-helpers.js'

const LOAD = 'concurrency: [2]\nrequests_per_level: 6\nchecks:\n  - { metric: error_rate, max: 0 }'
const up: StreamProbe = { reachable: true, streaming: true, ignoreEos: true, usage: true, problem: null }
const down: StreamProbe = {
  reachable: false,
  streaming: false,
  ignoreEos: false,
  usage: false,
  problem: 'connect ECONNREFUSED 127.0.0.1:9'
}

function loadRun(text: string): LoadRun {
  const run = beginLoad(parseGateConfig(text, 'gate.yml'), { env: {} })
  if (isOutcome(run)) throw new Error(`beginLoad failed: ${JSON.stringify(run.report.errors)}`)
  return run
}

/** The same gate with `launch:` added to one side's deployment. */
function launched(side: LoadSide): string {
  return gateText('http://127.0.0.1:9/v1', 'http://127.0.0.1:10/v1', LOAD).replace(
    new RegExp(`(  ${side}: \\{ api: chat, [^}]*)\\}`),
    `$1, launch: { command: [node, server.mjs] } }`
  )
}

describe('judgeProbes', () => {
  test('both sides up: go on', () => {
    expect(
      judgeProbes(loadRun(gateText('http://127.0.0.1:9/v1', 'http://127.0.0.1:10/v1', LOAD)), { baseline: up, candidate: up })
    ).toBeNull()
  })

  test('a baseline that is not launched and not reachable: load.unreachable with the archived-baseline hint', () => {
    const run = loadRun(gateText('http://127.0.0.1:9/v1', 'http://127.0.0.1:10/v1', LOAD))
    const outcome = judgeProbes(run, { baseline: down, candidate: up })
    expect(outcome?.report.errors).toEqual([
      {
        code: 'load.unreachable',
        message: expect.stringMatching(/^baseline: connect ECONNREFUSED .*reuses an archived baseline; set load\.baseline: optional/),
        field: 'deployments.baseline.base_url'
      }
    ])
  })

  test.each(['baseline', 'candidate'] as const)(
    'a launched %s that stopped answering points to its server log, not to archived baselines',
    side => {
      const text = launched(side)
      expect(text).toContain('launch: { command: [node, server.mjs] }')
      const outcome = judgeProbes(
        loadRun(text),
        side === 'baseline' ? { baseline: down, candidate: up } : { baseline: up, candidate: down }
      )
      expect(outcome?.report.verdict).toBe('error')
      const [error] = outcome?.report.errors ?? []
      expect(error.code).toBe('load.unreachable')
      expect(error.message).toBe(
        `${side}: connect ECONNREFUSED 127.0.0.1:9 (the launched ${side} server is not answering: its output is in logs/${side}-server.log)`
      )
      expect(error.message).not.toContain('archived')
    }
  )
})

describe('chunkNote', () => {
  const timing = (side: LoadSide, chunks: number, tokens: number, extra: Partial<RequestTiming> = {}): RequestTiming => ({
    side,
    level: 4,
    block: 0,
    repetition: 0,
    index: 0,
    send_ms: 0,
    ttft_ms: 10,
    itl_ms: Array.from({ length: chunks - 1 }, () => 1),
    latency_ms: 40,
    output_tokens: tokens,
    tokens_from: 'usage',
    prompt_tokens: 100,
    status: 'ok',
    error: null,
    id: null,
    ...extra
  })

  test("says when a side's chunks carry several tokens (llama.cpp holds back split UTF-8), so ITL is per chunk", () => {
    const timings = [timing('baseline', 16, 32), timing('baseline', 16, 32), timing('candidate', 32, 32)]
    expect(chunkNote('baseline', timings)).toBe(
      'The baseline sent 32 content chunks for 64 output tokens (2.00 tokens per chunk): its ITL is the gap between chunks, not between tokens; TPOT is per token.'
    )
    expect(chunkNote('candidate', timings)).toBeNull()
  })

  test('counts only successful requests whose tokens come from usage', () => {
    const timings = [
      timing('baseline', 30, 32),
      timing('baseline', 2, 32, { status: 'error' }),
      timing('baseline', 2, 32, { tokens_from: 'chunks' })
    ]
    expect(chunkNote('baseline', timings)).toBeNull()
    expect(chunkNote('candidate', timings)).toBeNull()
  })
})
