/**
 * The `load` section of report.json: the performance half (docs/load.md). Snake_case like the
 * rest of the published report; times in milliseconds, throughputs per second.
 */
import type { ReportIssue, Verdict } from './verdict.js'

export type LoadSide = 'baseline' | 'candidate'
export type CheckVerdict = 'pass' | 'fail' | 'inconclusive' | 'error'

export interface Percentiles {
  p50: number | null
  p90: number | null
  p99: number | null
  mean: number | null
}

/** The figures of one block (or of one side's blocks pooled at a level). */
export interface LoadFigures {
  requests: number
  ok: number
  failed: number
  timed_out: number
  /** From the first request sent to the last response finished, seconds. */
  duration_s: number
  request_throughput: number
  output_tokens_per_second: number
  /** Successful requests meeting every SLO, per second (null without an SLO). */
  goodput: number | null
  error_rate: number
  output_tokens: number
  mean_output_tokens: number | null
  ttft_ms: Percentiles
  itl_ms: Percentiles
  tpot_ms: Percentiles
  latency_ms: Percentiles
}

export interface LoadBlock extends LoadFigures {
  side: LoadSide
  level: number
  /** Position in the level's run order (0-based): A B B A A B ... */
  position: number
  /** The side's block number at this level (0-based): block i of each side forms pair i. */
  repetition: number
}

export interface LoadInterval {
  estimate: number
  low: number
  high: number
}

export interface LoadRatio {
  level: number
  metric: string
  baseline: number | null
  candidate: number | null
  /** Candidate/baseline over the block pairs; null with `reason` when undefined. */
  ratio: LoadInterval | null
  pairs: number
  reason: string | null
}

export interface LoadCheckResult {
  metric: string
  level: number
  /** `min_ratio`, `max_ratio` (ratio checks) or `min`, `max` (the candidate's pooled value). */
  kind: 'min_ratio' | 'max_ratio' | 'min' | 'max'
  threshold: number
  baseline: number | null
  candidate: number | null
  ratio: LoadInterval | null
  pairs: number
  verdict: CheckVerdict
  /** For an inconclusive ratio check: block pairs that would resolve it (null: more will not). */
  pairs_needed: number | null
  reason: string
}

export interface LoadSideInfo {
  api: string
  model: string
  /** Whether the server accepted `ignore_eos`/`min_tokens` (probed once); null when not probed. */
  ignore_eos: boolean | null
  /** Whether output token counts came from the server's `usage` (false: content chunks counted). */
  usage: boolean | null
}

export interface LoadSummary {
  level: number
  baseline: LoadFigures
  candidate: LoadFigures
}

export interface LoadReport {
  verdict: Verdict
  headline: string
  /** Why the load half did not run (only with `load.baseline: optional`); null when it ran. */
  skipped: string | null
  mode: 'concurrency' | 'rate'
  levels: number[]
  settings: {
    repetitions: number
    requests_per_block: number | null
    seconds_per_block: number | null
    warmup_requests: number
    timeout_seconds: number
    arrival: string | null
    confidence: number
    percentile_method: string
    interval_method: string
    prompts: string
    seed: number
  }
  sides: { baseline: LoadSideInfo; candidate: LoadSideInfo }
  /**
   * The blocks alternated between the sides A B B A (true), or each side's blocks ran in its own
   * period (false: launched servers up one at a time; drift between the periods not cancelled).
   */
  interleaved?: boolean
  blocks: LoadBlock[]
  summary: LoadSummary[]
  ratios: LoadRatio[]
  checks: LoadCheckResult[]
  errors: ReportIssue[]
  warnings: ReportIssue[]
  notes: string[]
  /** The per-request timings file in the output folder (JSONL), when written. */
  timings_file: string | null
}
