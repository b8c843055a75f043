import { describe, expect, test } from '@jest/globals'
import type { LoadCheck } from '../../src/config/load-types.js'
import { evaluateCheck, evaluateChecks, worstVerdict } from '../../src/load/ratio-checks.js'
import { figures, metricValue, meetsSlo, percentiles, tpotOf } from '../../src/load/metrics.js'
import { abbaOrder } from '../../src/load/abba-order.js'
import type { RequestTiming } from '../../src/load/types.js'
import type { LoadBlock, LoadSummary } from '../../src/model/load-report.js'

function timing(over: Partial<RequestTiming>): RequestTiming {
  return {
    side: 'baseline',
    level: 1,
    block: 0,
    repetition: 0,
    index: 0,
    send_ms: 0,
    ttft_ms: 10,
    itl_ms: [5, 5, 5],
    latency_ms: 25,
    output_tokens: 4,
    tokens_from: 'usage',
    prompt_tokens: 10,
    status: 'ok',
    error: null,
    id: null,
    ...over
  }
}

/** Blocks whose throughput is `tps[i]` per side, at level 8. */
function blocks(base: number[], cand: number[]): { blocks: LoadBlock[]; summary: LoadSummary } {
  const make = (side: 'baseline' | 'candidate', tps: number, repetition: number): LoadBlock => {
    const f = figures([timing({ side, output_tokens: tps })], 1, [])
    return { ...f, side, level: 8, position: 0, repetition }
  }
  const all = [...base.map((t, i) => make('baseline', t, i)), ...cand.map((t, i) => make('candidate', t, i))]
  const pooled = (side: 'baseline' | 'candidate', values: number[]) =>
    figures(
      values.map(v => timing({ side, output_tokens: v })),
      values.length,
      []
    )
  return { blocks: all, summary: { level: 8, baseline: pooled('baseline', base), candidate: pooled('candidate', cand) } }
}

const claim = (over: Partial<LoadCheck>): LoadCheck => ({
  metric: 'output_tokens_per_second',
  level: 8,
  minRatio: null,
  maxRatio: null,
  min: null,
  max: null,
  ...over
})

describe('load checks', () => {
  test('min_ratio: pass when the whole interval is above, fail when below, inconclusive across', () => {
    const fast = blocks([100, 102, 98], [160, 165, 158])
    expect(evaluateCheck(claim({ minRatio: 1.3 }), fast.blocks, fast.summary, 0.95).verdict).toBe('pass')
    const slow = blocks([100, 102, 98], [90, 93, 88])
    const failed = evaluateCheck(claim({ minRatio: 1.3 }), slow.blocks, slow.summary, 0.95)
    expect(failed.verdict).toBe('fail')
    expect(failed.ratio!.high).toBeLessThan(1)
    const noisy = blocks([100, 100, 100], [120, 150, 135])
    const open = evaluateCheck(claim({ minRatio: 1.3 }), noisy.blocks, noisy.summary, 0.95)
    expect(open.verdict).toBe('inconclusive')
    expect(open.pairs_needed).toBeGreaterThan(3)
    expect(open.reason).toMatch(/block pairs \(repetitions\) would resolve it/)
  })

  test('max_ratio mirrors min_ratio', () => {
    const same = blocks([100, 101, 99], [100, 100, 100])
    expect(evaluateCheck(claim({ maxRatio: 1.1 }), same.blocks, same.summary, 0.95).verdict).toBe('pass')
    expect(evaluateCheck(claim({ maxRatio: 0.9 }), same.blocks, same.summary, 0.95).verdict).toBe('fail')
  })

  test("absolute checks read the candidate's pooled value; an unmeasurable metric is an error", () => {
    const b = blocks([100, 100, 100], [50, 50, 50])
    expect(evaluateCheck(claim({ metric: 'error_rate', max: 0 }), b.blocks, b.summary, 0.95).verdict).toBe('pass')
    expect(evaluateCheck(claim({ min: 60 }), b.blocks, b.summary, 0.95)).toMatchObject({ verdict: 'fail', candidate: 50 })
    const zero = blocks([100, 100, 100], [0, 0, 0])
    const ratio = evaluateCheck(claim({ minRatio: 1 }), zero.blocks, zero.summary, 0.95)
    expect(ratio.verdict).toBe('error')
    expect(ratio.reason).toMatch(/candidate is 0/)
  })

  test('a check without a level applies to every level', () => {
    const b = blocks([100, 100, 100], [100, 100, 100])
    const other = { ...b.summary, level: 16 }
    expect(
      evaluateChecks([claim({ level: null, metric: 'error_rate', max: 0 })], b.blocks, [b.summary, other], 0.95).map(c => c.level)
    ).toEqual([8, 16])
  })

  test('the worse verdict: error > fail > inconclusive > pass', () => {
    expect(worstVerdict(['pass', 'inconclusive'])).toBe('inconclusive')
    expect(worstVerdict(['fail', 'inconclusive', 'pass'])).toBe('fail')
    expect(worstVerdict(['fail', 'error'])).toBe('error')
    expect(worstVerdict([])).toBe('pass')
  })
})

describe('load metrics', () => {
  test('percentiles are type 7 over successful requests; failures count in the error rate and against goodput', () => {
    expect(percentiles([1, 2, 3, 4])).toEqual({ p50: 2.5, p90: 3.7, p99: 3.9699999999999998, mean: 2.5 })
    const ts = [
      timing({ ttft_ms: 10 }),
      timing({ ttft_ms: 30 }),
      timing({ status: 'error', ttft_ms: null, latency_ms: null, output_tokens: 0 })
    ]
    const f = figures(ts, 2, [{ metric: 'ttft', percentile: 100, maxMs: 20 }])
    expect(f.ttft_ms.p50).toBe(20)
    expect(f.error_rate).toBeCloseTo(1 / 3, 12)
    expect(f.request_throughput).toBe(1)
    expect(f.output_tokens_per_second).toBe(4)
    expect(f.goodput).toBe(0.5)
    expect(f.itl_ms.p50).toBe(5)
    expect(metricValue(f, 'ttft_p50')).toBe(20)
    expect(metricValue(f, 'goodput')).toBe(0.5)
  })

  test('TPOT is (latency - TTFT) / (tokens - 1); an ITL SLO reads the percentile of the request’s own gaps', () => {
    expect(tpotOf(timing({ ttft_ms: 10, latency_ms: 40, output_tokens: 4 }))).toBe(10)
    expect(tpotOf(timing({ output_tokens: 1 }))).toBeNull()
    const gaps = timing({ itl_ms: [...Array(99).fill(5), 500] })
    expect(meetsSlo(gaps, [{ metric: 'itl', percentile: 50, maxMs: 10 }])).toBe(true)
    expect(meetsSlo(gaps, [{ metric: 'itl', percentile: 100, maxMs: 10 }])).toBe(false)
  })
})

describe('block order', () => {
  test('A B B A A B: the sides alternate, pairs are adjacent', () => {
    expect(abbaOrder(4).map(b => `${b.side[0]}${b.repetition}`)).toEqual(['b0', 'c0', 'c1', 'b1', 'b2', 'c2', 'c3', 'b3'])
  })
})
