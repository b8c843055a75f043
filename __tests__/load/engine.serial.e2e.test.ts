/**
 * The load half against real fake-engine processes with a known truth: equal engines, a
 * candidate that decodes 1.6x faster, a slower one, an erroring one, one that does not stream,
 * and the measured TTFT against the engine's own record of when it emitted each token.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import { runLoad } from '../../src/load/run-load.js'
import { quantile } from '../../src/stats/quantile.js'
import { startEngine, type EngineOptions, type FakeEngine } from '../../test-support/fake-engine/harness.js'
import { modelCapacity } from '../../test-support/fake-engine/engine.mjs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run } from '../support/spawn.js'
import { CLI, gateText, loadGate } from './load-helpers.js'

// Prefill is made negligible so that a decode speed-up is the throughput speed-up (the truth).
const ENGINE: EngineOptions = { maxNumSeqs: 64, prefillBaseMs: 0.05, prefillPerTokenMs: 0.001, decodeBaseMs: 6, decodePerSeqMs: 0.05 }

let engines: FakeEngine[] = []
afterEach(async () => {
  await Promise.all(engines.map(e => e.stop()))
  engines = []
})

async function pair(baseline: EngineOptions, candidate: EngineOptions): Promise<[FakeEngine, FakeEngine]> {
  const started = await Promise.all([startEngine({ ...ENGINE, ...baseline }), startEngine({ ...ENGINE, ...candidate })])
  engines.push(...started)
  return started
}

const WORKLOAD = `workload: { prompts: synthetic, input_tokens: { mean: 50, stddev: 10, min: 10, max: 100 }, output_tokens: { mean: 32 } }
concurrency: [4, 16]
requests_per_level: 96
warmup_requests: 2
repetitions: 3
timeout_seconds: 20`

describe('load half against fake engines', () => {
  test('equal engines: every ratio interval contains 1 and the non-regression checks pass', async () => {
    // The same engine process serves both sides: on a shared machine two processes do not get the
    // same CPU share, and that would be a real (if unwanted) difference between two deployments.
    const engine = await startEngine(ENGINE)
    engines.push(engine)
    const config = loadGate(
      engine.baseUrl,
      engine.baseUrl,
      // Six pairs: on a shared 2-core machine blocks vary with the neighbours' load, and with four
      // pairs a 99% t interval (t = 5.84 at 3 degrees of freedom) left a check inconclusive.
      `${WORKLOAD.replace('requests_per_level: 96', 'requests_per_level: 144').replace('repetitions: 3', 'repetitions: 6')}
checks:
  - { metric: output_tokens_per_second, min_ratio: 0.75 }
  - { metric: latency_p50, max_ratio: 1.33 }
  - { metric: error_rate, max: 0 }`
    )
    // 99% intervals: 16 ratios are checked at once, and at 95% one in twenty would miss 1 by chance.
    config.statistics.confidence = 0.99
    const { report } = await runLoad(config, { env: {} })
    expect(report.errors).toEqual([])
    expect(report.ratios.length).toBeGreaterThanOrEqual(14)
    for (const r of report.ratios) expect([r.metric, r.level, r.ratio]).not.toEqual([r.metric, r.level, null])
    // Timer-quantised figures (ITL p50 is one decode step) can vary so little between blocks that
    // a t interval is a few tenths of a percent wide: equal engines must then be within 5% of 1.
    // Sixteen 99% intervals are read at once, so even with equal truths one misses now and then
    // (CI once saw TTFT p50 at 16 streams do so): at most one may miss, and none by more than 10%.
    // A real difference between the sides moves several figures together and still fails here.
    const misses = report.ratios.filter(r => !(r.ratio!.low <= 1.05 && 0.95 <= r.ratio!.high))
    const shown = misses.map(r => `${r.metric} at ${r.level}: [${r.ratio!.low}, ${r.ratio!.high}]`)
    expect(misses.length <= 1 ? [] : shown).toEqual([])
    for (const r of misses) {
      expect([r.metric, r.level, r.ratio!.low <= 1.1 && 0.9 <= r.ratio!.high]).toEqual([r.metric, r.level, true])
    }
    expect(report.checks.map(x => [x.metric, x.level, x.verdict])).toEqual([
      ['output_tokens_per_second', 4, 'pass'],
      ['output_tokens_per_second', 16, 'pass'],
      ['latency_p50', 4, 'pass'],
      ['latency_p50', 16, 'pass'],
      ['error_rate', 4, 'pass'],
      ['error_rate', 16, 'pass']
    ])
    expect(report.verdict).toBe('pass')
    // ABBA: each level ran 6 blocks per side, alternating, never both at once.
    expect(
      report.blocks
        .filter(x => x.level === 16)
        .map(x => x.side[0])
        .join('')
    ).toBe('bccbbccbbccb')
    expect(report.sides.baseline.ignore_eos).toBe(true)
    expect(report.sides.baseline.usage).toBe(true)
  }, 90_000)

  test("a 1.6x faster decode: the claim passes, and the throughput ratio is never above the engines' truth (1.59x at 16 streams)", async () => {
    const [b, c] = await pair({}, { decodeSpeedup: 1.6 })
    const { report } = await runLoad(
      // Five blocks a side: with three, the t interval (2 degrees of freedom) is so wide that one slow
      // block leaves the claim inconclusive although the truth (1.6) is well above the bar.
      loadGate(
        b.baseUrl,
        c.baseUrl,
        `${WORKLOAD.replace('repetitions: 3', 'repetitions: 5')}\nchecks:\n  - { metric: output_tokens_per_second, concurrency: 16, min_ratio: 1.3 }`
      ),
      { env: {} }
    )
    // The truth at 16 streams, from the engines' own model: a 1.6x faster decode gives about 1.59x
    // the throughput, because prefill (the step that admits the 16 new requests) is not sped up.
    const workload = { promptTokens: 50, outputTokens: 32, concurrency: 16 }
    const truth = modelCapacity({ ...ENGINE, decodeSpeedup: 1.6 }, workload) / modelCapacity(ENGINE, workload)
    expect(truth).toBeGreaterThan(1.58)
    expect(truth).toBeLessThan(1.6)
    const truthAt4 =
      modelCapacity({ ...ENGINE, decodeSpeedup: 1.6 }, { ...workload, concurrency: 4 }) /
      modelCapacity(ENGINE, { ...workload, concurrency: 4 })
    // Only what a busy neighbour cannot break is asserted. The engines' steps are timers, and every
    // step also pays the machine's overhead (timer lateness, the event loop, the neighbours), which
    // is the same on both sides: the measured ratio is (6 + o) / (3.75 + o), pulled below the truth
    // by as much as the machine is busy. CI saw [1.55, 1.598] and later an upper end of 1.5921
    // against 1.5928: right about the engines, a figure of the machine. So the upper end is not
    // held to the truth; the lower end is, with 2% for chance (a 95% interval's lower end is above
    // an unbiased truth one time in 40, and the bias makes it rarer still), and the claim must pass.
    for (const [level, truthAtLevel] of [
      [16, truth],
      [4, truthAt4]
    ] as const) {
      const ratio = report.ratios.find(r => r.metric === 'output_tokens_per_second' && r.level === level)!.ratio!
      expect([level, ratio.low <= truthAtLevel * 1.02]).toEqual([level, true])
      expect([level, ratio.low <= ratio.estimate && ratio.estimate <= ratio.high]).toEqual([level, true])
      expect([level, ratio.low > 1.3]).toEqual([level, true])
    }
    expect(report.checks).toHaveLength(1)
    expect(report.checks[0].verdict).toBe('pass')
    expect(report.verdict).toBe('pass')
  }, 90_000)

  test('a slower candidate: the claim fails', async () => {
    const [b, c] = await pair({}, { decodeSpeedup: 0.7 })
    const { report } = await runLoad(
      loadGate(b.baseUrl, c.baseUrl, `${WORKLOAD}\nchecks:\n  - { metric: output_tokens_per_second, concurrency: 16, min_ratio: 1.3 }`),
      { env: {} }
    )
    expect(report.checks[0].verdict).toBe('fail')
    expect(report.checks[0].ratio!.high).toBeLessThan(1)
    expect(report.verdict).toBe('fail')
    expect(report.headline).toMatch(/^Performance: fail: output_tokens_per_second at concurrency 16/)
  }, 90_000)

  test('an erroring candidate: its error rate is reported and the error-rate check fails', async () => {
    const [b, c] = await pair({}, { errorRate: 0.2, seed: 3 })
    const { report, timings } = await runLoad(
      loadGate(
        b.baseUrl,
        c.baseUrl,
        `${WORKLOAD}\nchecks:\n  - { metric: error_rate, max: 0 }\n  - { metric: output_tokens_per_second, min_ratio: 0.5 }`
      ),
      { env: {} }
    )
    const rates = report.summary.map(s => s.candidate.error_rate)
    for (const rate of rates) expect(rate).toBeGreaterThan(0.05)
    for (const s of report.summary) expect(s.baseline.error_rate).toBe(0)
    const failed = timings.filter(t => t.side === 'candidate' && t.status !== 'ok')
    expect(failed.length).toBe(report.summary.reduce((n, s) => n + s.candidate.failed, 0))
    expect(failed[0].error).toMatch(/HTTP 500/)
    const errorChecks = report.checks.filter(x => x.metric === 'error_rate')
    expect(errorChecks.map(x => x.verdict)).toEqual(['fail', 'fail'])
    expect(report.verdict).toBe('fail')
  }, 90_000)

  test('a server that does not stream: a clear error, no load run', async () => {
    const [b, c] = await pair({}, { noStream: true })
    const { report, timings } = await runLoad(loadGate(b.baseUrl, c.baseUrl, `${WORKLOAD}\nchecks:\n  - { metric: error_rate, max: 0 }`), {
      env: {}
    })
    expect(report.verdict).toBe('error')
    expect(report.errors).toHaveLength(1)
    expect(report.errors[0].code).toBe('load.not_streaming')
    expect(report.errors[0].message).toMatch(/^candidate: .* does not stream: .*application\/json/)
    expect(timings).toEqual([])
  }, 30_000)

  test('an unreachable baseline is an error, or a loud skip with load.baseline: optional', async () => {
    const [c] = await Promise.all([startEngine(ENGINE)])
    engines.push(c)
    const dead = 'http://127.0.0.1:9/v1'
    const required = await runLoad(loadGate(dead, c.baseUrl, `${WORKLOAD}\nchecks:\n  - { metric: error_rate, max: 0 }`), { env: {} })
    expect(required.report.verdict).toBe('error')
    expect(required.report.errors[0].message).toMatch(/baseline: .* not reachable.*needs the baseline deployment live/)
    expect(required.report.errors[0].code).toBe('load.unreachable')
    const optional = await runLoad(
      loadGate(dead, c.baseUrl, `${WORKLOAD}\nbaseline: optional\nchecks:\n  - { metric: error_rate, max: 0 }`),
      { env: {} }
    )
    expect(optional.report.skipped).toMatch(/SKIPPED/)
    expect(optional.report.warnings.map(w => w.code)).toEqual(['load.skipped'])
  }, 30_000)

  // The clock of the generator as shipped: the bundled CLI in its own process, as a user runs it,
  // against one engine (the sides take turns, never both at once). Only what cannot depend on the
  // machine's load is asserted here: every request measured once, in order, and never earlier than
  // the engine's own record (the client's interval contains the engine's: send before arrival,
  // first token emitted before it is read). How close the measurement is to the record is a figure
  // of the machine, not a property of the code: `bench/load.mjs` prints it against GuideLLM and
  // AIPerf at 1, 64 and 256 streams (docs/benchmarks.md).
  for (const streams of [1, 64]) {
    test(`measured TTFT is never earlier than the engine's own record, for every request, at ${streams} concurrent streams`, async () => {
      // Time constants of a real engine's order (an 8B model on one GPU): 0.05 ms per prompt
      // token of prefill, a decode step of 8 ms + 0.1 ms per running sequence.
      const engine = await startEngine({ maxNumSeqs: 64, prefillBaseMs: 1, prefillPerTokenMs: 0.05, decodeBaseMs: 8, decodePerSeqMs: 0.1 })
      engines.push(engine)
      const dir = await mkdtemp(join(tmpdir(), 'helm-gate-load-'))
      try {
        const gate = join(dir, 'gate.yml')
        await writeFile(
          gate,
          gateText(
            engine.baseUrl,
            engine.baseUrl,
            // Varied lengths, as in real traffic: the streams do not all finish in the same step.
            `workload: { prompts: synthetic, input_tokens: { mean: 200 }, output_tokens: { mean: 24, stddev: 8, min: 4, max: 48 } }
concurrency: [${streams}]
requests_per_level: ${streams === 1 ? 30 : 192}
repetitions: 3
checks:
  - { metric: error_rate, max: 0 }`,
            'completions'
          )
        )
        const out = join(dir, 'out')
        const finished = await run(process.execPath, [CLI, 'load', '--config', gate, '--out', out, '--quiet'])
        expect(finished.stderr).toBe('')
        expect(finished.code).toBe(0)
        const timings = (await readFile(join(out, 'load-timings.jsonl'), 'utf8'))
          .trim()
          .split('\n')
          .map(line => JSON.parse(line) as { id: string; ttft_ms: number; send_ms: number; side: string; block: number; status: string })
        expect(timings).toHaveLength(streams === 1 ? 60 : 384)
        expect(timings.filter(t => t.status !== 'ok')).toEqual([])
        // Blocks one after the other: every request of a block sent after every request of the one before.
        const blocks = [...new Set(timings.map(t => t.block))].sort((x, y) => x - y)
        expect(blocks).toHaveLength(6)
        const sends = blocks.map(b => timings.filter(t => t.block === b).map(t => t.send_ms))
        for (let b = 1; b < sends.length; b++) expect(Math.min(...sends[b])).toBeGreaterThanOrEqual(Math.max(...sends[b - 1]))
        // Each request the engine saw exactly once, under the id the generator recorded.
        const records = new Map((await engine.records()).map(r => [r.id, r]))
        expect(new Set(timings.map(t => t.id)).size).toBe(timings.length)
        expect(timings.filter(t => !records.has(t.id)).map(t => t.id)).toEqual([])
        // Never earlier than the engine's record (0.001 ms: the timings file's rounding).
        const early = timings.filter(t => t.ttft_ms < records.get(t.id)!.ttft_ms - 0.001)
        expect(early.map(t => [t.id, t.ttft_ms, records.get(t.id)!.ttft_ms])).toEqual([])
        // And so the median too; the engine's record is a real time, not zero.
        const p50 = quantile(
          timings.map(t => t.ttft_ms),
          0.5
        )
        const p50Truth = quantile(
          timings.map(t => records.get(t.id)!.ttft_ms),
          0.5
        )
        expect(p50Truth).toBeGreaterThan(0)
        expect(p50).toBeGreaterThanOrEqual(p50Truth)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    }, 90_000)
  }
})
