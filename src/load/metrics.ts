/**
 * The figures of a block, or of a side's blocks pooled at one level, from per-request timings.
 * Pure. Percentiles are Hyndman & Fan type 7 (linear interpolation, NumPy's default) over the
 * successful requests; ITL percentiles pool every gap of every successful request (as vLLM's
 * benchmark does). Failed requests count in the error rate and against goodput, never in the
 * time percentiles (docs/load.md).
 */
import type { SloBound } from '../config/load-types.js'
import type { LoadFigures, Percentiles } from '../model/load-report.js'
import { quantileSorted } from '../stats/quantile.js'
import type { RequestTiming } from './types.js'

export const PERCENTILE_METHOD = 'Hyndman-Fan type 7 (linear interpolation), over successful requests'

export function percentiles(values: number[]): Percentiles {
  if (values.length === 0) return { p50: null, p90: null, p99: null, mean: null }
  const sorted = Float64Array.from(values).sort()
  let sum = 0
  for (const v of values) sum += v
  return {
    p50: quantileSorted(sorted, 0.5),
    p90: quantileSorted(sorted, 0.9),
    p99: quantileSorted(sorted, 0.99),
    mean: sum / values.length
  }
}

/** TPOT of one request: (latency - TTFT) / (output tokens - 1); null for one-token answers. */
export function tpotOf(t: RequestTiming): number | null {
  if (t.status !== 'ok' || t.ttft_ms === null || t.latency_ms === null || t.output_tokens < 2) return null
  return (t.latency_ms - t.ttft_ms) / (t.output_tokens - 1)
}

/** Whether a successful request meets every SLO bound. */
export function meetsSlo(t: RequestTiming, slo: readonly SloBound[]): boolean {
  if (t.status !== 'ok') return false
  for (const bound of slo) {
    let value: number | null
    if (bound.metric === 'ttft') value = t.ttft_ms
    else if (bound.metric === 'latency') value = t.latency_ms
    else if (bound.metric === 'tpot') value = tpotOf(t)
    else value = t.itl_ms.length === 0 ? 0 : quantileSorted(Float64Array.from(t.itl_ms).sort(), bound.percentile / 100)
    if (value === null || !(value <= bound.maxMs)) {
      // A one-token answer has no TPOT: it cannot violate a TPOT bound.
      if (bound.metric === 'tpot' && value === null && t.output_tokens < 2) continue
      return false
    }
  }
  return true
}

/**
 * `durationS`: the wall time the requests occupied (a block's, or the sum of a side's blocks'
 * when pooling), so throughputs are per second of load, not per second of the whole run.
 */
export function figures(timings: readonly RequestTiming[], durationS: number, slo: readonly SloBound[]): LoadFigures {
  const ok = timings.filter(t => t.status === 'ok')
  const ttft: number[] = []
  const itl: number[] = []
  const tpot: number[] = []
  const latency: number[] = []
  let tokens = 0
  let good = 0
  for (const t of ok) {
    if (t.ttft_ms !== null) ttft.push(t.ttft_ms)
    if (t.latency_ms !== null) latency.push(t.latency_ms)
    for (const gap of t.itl_ms) itl.push(gap)
    const p = tpotOf(t)
    if (p !== null) tpot.push(p)
    tokens += t.output_tokens
    if (slo.length > 0 && meetsSlo(t, slo)) good++
  }
  const timedOut = timings.filter(t => t.status === 'timeout').length
  const per = (n: number): number => (durationS > 0 ? n / durationS : 0)
  return {
    requests: timings.length,
    ok: ok.length,
    failed: timings.length - ok.length,
    timed_out: timedOut,
    duration_s: durationS,
    request_throughput: per(ok.length),
    output_tokens_per_second: per(tokens),
    goodput: slo.length > 0 ? per(good) : null,
    error_rate: timings.length > 0 ? (timings.length - ok.length) / timings.length : 0,
    output_tokens: tokens,
    mean_output_tokens: ok.length > 0 ? tokens / ok.length : null,
    ttft_ms: percentiles(ttft),
    itl_ms: percentiles(itl),
    tpot_ms: percentiles(tpot),
    latency_ms: percentiles(latency)
  }
}

/** The value of a named check metric (`ttft_p99`, `goodput`, ...) in a set of figures. */
export function metricValue(f: LoadFigures, metric: string): number | null {
  switch (metric) {
    case 'output_tokens_per_second':
      return f.output_tokens_per_second
    case 'request_throughput':
      return f.request_throughput
    case 'goodput':
      return f.goodput
    case 'error_rate':
      return f.error_rate
  }
  const match = /^(ttft|itl|tpot|latency)_(p50|p90|p99)$/.exec(metric)
  if (!match) return null
  const group = f[`${match[1]}_ms` as 'ttft_ms' | 'itl_ms' | 'tpot_ms' | 'latency_ms']
  return group[match[2] as 'p50' | 'p90' | 'p99']
}
