/**
 * The gate file's optional `load:` section: the performance half (docs/load.md). Validated by
 * `config/load-section.ts`; left out of the fingerprint because load results are never archived
 * (they are comparable only within one job on one machine).
 */

export type PromptSource = 'synthetic' | 'gate-set' | 'file' | 'traffic'
/** `traffic`: the traffic set's own arrival pattern (its `arrival_ms`), scaled to each rate. */
export type Arrival = 'poisson' | 'constant' | 'traffic'

/** A token-count distribution: a normal draw, rounded and clipped to [min, max]. */
export interface TokenDistribution {
  mean: number
  stddev: number
  min: number
  max: number
}

export interface Workload {
  prompts: PromptSource
  inputTokens: TokenDistribution
  outputTokens: TokenDistribution
  /**
   * For `prompts: file`: a JSONL of OpenAI request bodies; for `prompts: traffic`: a frozen traffic
   * set (config/traffic-set.ts). Resolved against the gate file's folder.
   */
  file: string | null
}

/** The load metrics a check or an SLO can name (docs/load.md defines each). */
export const RATIO_METRICS = [
  'output_tokens_per_second',
  'request_throughput',
  'goodput',
  'ttft_p50',
  'ttft_p90',
  'ttft_p99',
  'itl_p50',
  'itl_p90',
  'itl_p99',
  'tpot_p50',
  'tpot_p90',
  'tpot_p99',
  'latency_p50',
  'latency_p90',
  'latency_p99'
] as const
export type RatioMetric = (typeof RATIO_METRICS)[number]
export type LoadMetric = RatioMetric | 'error_rate'
export const LOAD_METRICS: readonly LoadMetric[] = [...RATIO_METRICS, 'error_rate']

/** Metrics where a larger value is better (throughputs); every other metric is a time or a rate of errors. */
export const HIGHER_IS_BETTER: ReadonlySet<LoadMetric> = new Set(['output_tokens_per_second', 'request_throughput', 'goodput'])

export interface LoadCheck {
  metric: LoadMetric
  /** The level the check applies to; null = every level. */
  level: number | null
  /** Candidate/baseline ratio bounds (the whole interval must be on the good side). */
  minRatio: number | null
  maxRatio: number | null
  /** Absolute bounds on the candidate's pooled value (metric units: ms, 1/s or a fraction). */
  min: number | null
  max: number | null
}

/**
 * A service-level objective for one request. For TTFT, TPOT and latency (one value per request)
 * the percentile key changes nothing; for ITL it is the percentile of the request's own gaps.
 */
export interface SloBound {
  metric: 'ttft' | 'itl' | 'tpot' | 'latency'
  /** Percentile of the request's own values (ITL); 100 = every gap. */
  percentile: number
  maxMs: number
}

export interface LoadSettings {
  workload: Workload
  /** Closed-loop concurrency levels, or open-loop rates (requests per second). */
  mode: 'concurrency' | 'rate'
  levels: number[]
  arrival: Arrival
  /** Requests per side per level, split evenly over the blocks; or null with `durationSeconds`. */
  requestsPerLevel: number | null
  /** Seconds per side per level, split evenly over the blocks. */
  durationSeconds: number | null
  warmupRequests: number
  /** Blocks per side per level (= adjacent pairs), at least 3. */
  repetitions: number
  timeoutSeconds: number
  slo: SloBound[]
  checks: LoadCheck[]
  /** `required`: an unreachable baseline is an error; `optional`: the load half is skipped, loudly. */
  baseline: 'required' | 'optional'
  /** Seed of the synthetic workload and the open-loop arrivals. */
  seed: number
  /**
   * Launched sides up one at a time (sequential schedule): the most time the swaps between blocks
   * may take (seconds, their measured cost times their number); over it, each side is measured in
   * its own period and the decision line says so (docs/launch.md, "Interleaving one at a time").
   */
  swapBudgetSeconds: number
  /** Warn when the load client's CPU time is above this share of the host's CPU time in a block. */
  clientCpuWarnShare: number
}
