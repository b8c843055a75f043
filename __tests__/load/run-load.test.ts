/** What the probes of the two sides mean, before any load: which error, and what it tells to do. */
import { describe, expect, test } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { beginLoad, isOutcome, judgeProbes, type LoadRun } from '../../src/load/run-load.js'
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
