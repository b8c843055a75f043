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
  /** When the block's first request was sent and its last answer ended (ISO times). */
  started_at?: string
  ended_at?: string
  /** CPU time the load client (this process) used during the block, milliseconds (process.cpuUsage). */
  client_cpu_ms?: number
  /** That CPU time as a share of the host's (all cores) over the block's wall time. */
  client_cpu_share?: number
}

/** How the two sides were up while the blocks ran (docs/launch.md, "Interleaving one at a time"). */
export type LoadSchedule =
  /** Both sides up at once: the blocks alternate A B B A with no swap. */
  | 'both-up'
  /** Launched sides up one at a time, swapped before each block of the other side: A B B A. */
  | 'swapped'
  /** Each side's blocks in its own period (swapping impossible or over the budget). */
  | 'periods'

/** One period in which a side's server was up (awake, for a sleep switch), ISO times. */
export interface UpPeriod {
  /** Swap started (start or wake requested). */
  from: string
  /** Ready: answering and, from the second period on, the model listed again. */
  ready: string
  /** Stopped or put to sleep; null when still up at the end (servers always up). */
  to: string | null
}

/** One swap between blocks: the other side taken down and this one brought up and warmed. */
export interface SwapRecord {
  /** The side brought up. */
  side: LoadSide
  /** The block it was brought up for, e.g. `block 3/8 at concurrency 4`; `the probe` before the blocks. */
  before: string
  /** Down, up and ready, milliseconds (the warm-up excluded). */
  ms: number
}

export interface LoadTimeline {
  schedule: LoadSchedule
  /** Why this schedule (one sentence, shown in the decision line when it is `periods`). */
  why: string
  /** How each launched side was swapped (null: not launched, always up). */
  switches: Record<LoadSide, 'restart' | 'sleep' | 'none' | null>
  /** The measured cost of one swap, the median over the swaps (ms); null without swaps. */
  swap_cost_ms: number | null
  swap_budget_seconds: number
  swaps: SwapRecord[]
  up: Record<LoadSide, UpPeriod[]>
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
  /**
   * Synthetic prompts: how they were sized (the baseline server's /tokenize, or one word per
   * token), the counts asked for and realized, and each side's mean prompt tokens by its usage.
   */
  prompt_tokens?: {
    sized_by: 'server' | 'words'
    tokenizer: string | null
    prompts: number
    requested_mean: number
    realized_mean: number | null
    realized_min: number | null
    realized_max: number | null
    served: Record<LoadSide, number | null>
  }
  /** Launched servers: when each side was up, and the swaps between blocks. */
  timeline?: LoadTimeline
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
