/** A load half for the report.html tests: two levels, ratios, checks of each verdict, untrusted text. */
import type { LoadCheckResult, LoadFigures, LoadReport } from '../../src/model/load-report.js'

/** Goes into every server- or config-derived text the page shows. */
export const LOAD_PAYLOAD = '<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script>'

/** One side's figures at one level: throughput and TTFT p99 set, the other percentiles derived. */
export function figures(tps: number, ttftP99: number): LoadFigures {
  const p = { p50: ttftP99 / 2, p90: ttftP99 * 0.9, p99: ttftP99, mean: ttftP99 / 2 }
  return {
    requests: 10,
    ok: 10,
    failed: 0,
    timed_out: 0,
    duration_s: 1,
    request_throughput: tps / 100,
    output_tokens_per_second: tps,
    goodput: null,
    error_rate: 0,
    output_tokens: tps,
    mean_output_tokens: 100,
    ttft_ms: p,
    itl_ms: p,
    tpot_ms: p,
    latency_ms: p
  }
}

function check(over: Partial<LoadCheckResult>): LoadCheckResult {
  return {
    metric: 'output_tokens_per_second',
    level: 64,
    kind: 'min_ratio',
    threshold: 1.3,
    baseline: 4000,
    candidate: 6400,
    ratio: { estimate: 1.6, low: 1.52, high: 1.68 },
    pairs: 3,
    verdict: 'pass',
    pairs_needed: null,
    reason: 'the whole interval is above 1.3',
    ...over
  }
}

export function makeLoadReport(over: Partial<LoadReport> = {}): LoadReport {
  return {
    verdict: 'fail',
    headline: `Performance: fail ${LOAD_PAYLOAD}`,
    skipped: null,
    mode: 'concurrency',
    levels: [1, 64],
    settings: {
      repetitions: 3,
      requests_per_block: 100,
      seconds_per_block: null,
      warmup_requests: 20,
      timeout_seconds: 120,
      arrival: null,
      confidence: 0.95,
      percentile_method: 'Hyndman-Fan type 7',
      interval_method: 'block-pair log-ratio t interval',
      prompts: 'synthetic',
      seed: 0
    },
    sides: {
      baseline: { api: 'chat', model: LOAD_PAYLOAD, ignore_eos: true, usage: true },
      candidate: { api: 'chat', model: 'm', ignore_eos: true, usage: true }
    },
    blocks: [],
    summary: [
      { level: 1, baseline: figures(100, 20), candidate: figures(160, 15) },
      { level: 64, baseline: figures(4000, 300), candidate: figures(6400, 200) }
    ],
    ratios: [
      {
        level: 1,
        metric: 'output_tokens_per_second',
        baseline: 100,
        candidate: 160,
        ratio: { estimate: 1.6, low: 1.4, high: 1.8 },
        pairs: 3,
        reason: null
      },
      {
        level: 64,
        metric: 'output_tokens_per_second',
        baseline: 4000,
        candidate: 6400,
        ratio: { estimate: 1.6, low: 1.52, high: 1.68 },
        pairs: 3,
        reason: null
      },
      {
        level: 64,
        metric: 'ttft_ms.p99',
        baseline: 300,
        candidate: 200,
        ratio: { estimate: 2 / 3, low: 0.55, high: 0.8 },
        pairs: 3,
        reason: null
      }
    ],
    checks: [
      check({}),
      check({
        metric: 'ttft_ms.p99',
        kind: 'max_ratio',
        threshold: 0.9,
        baseline: 300,
        candidate: 200,
        ratio: { estimate: 2 / 3, low: 0.55, high: 0.8 },
        verdict: 'inconclusive',
        pairs_needed: 5,
        reason: LOAD_PAYLOAD
      }),
      check({
        metric: 'error_rate',
        kind: 'max',
        threshold: 0,
        baseline: 0,
        candidate: 0.02,
        ratio: null,
        pairs: 0,
        verdict: 'fail',
        reason: 'candidate 2% > 0%'
      })
    ],
    errors: [],
    warnings: [],
    notes: [`note ${LOAD_PAYLOAD}`],
    timings_file: 'load-timings.jsonl',
    ...over
  }
}
