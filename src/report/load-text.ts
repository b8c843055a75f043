/** Names and numbers of the load half, shared by its markdown and console renderings. */
import type { LoadCheckResult, LoadReport } from '../model/load-report.js'

const UNITS: Record<string, string> = {
  output_tokens_per_second: 'tok/s',
  request_throughput: 'req/s',
  goodput: 'req/s',
  error_rate: ''
}

export function loadValue(metric: string, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—'
  if (metric === 'error_rate') return `${Number((value * 100).toPrecision(3))}%`
  const unit = UNITS[metric] ?? 'ms'
  const text = Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3)
  return `${text} ${unit}`
}

/** `metric ≥ 1.3×`; `name` formats the metric name (a code span in markdown). */
export function checkName(c: LoadCheckResult, name: (metric: string) => string = m => m): string {
  const op = c.kind === 'min_ratio' || c.kind === 'min' ? '≥' : '≤'
  const bound = c.kind.endsWith('ratio') ? `${c.threshold}×` : loadValue(c.metric, c.threshold)
  return `${name(c.metric)} ${op} ${bound}`
}

export function levelLabel(load: LoadReport, level: number): string {
  return load.mode === 'concurrency' ? `c=${level}` : `${level}/s`
}

export function ratioText(c: { ratio: { estimate: number; low: number; high: number } | null }): string {
  if (!c.ratio) return '—'
  const f = (x: number): string => x.toFixed(x >= 10 ? 1 : 3)
  return `${f(c.ratio.estimate)}× [${f(c.ratio.low)}, ${f(c.ratio.high)}]`
}
