/**
 * One load half in progress (docs/load.md): its options and outcome, the report it fills, the
 * checks before any request (beginLoad), and the switch that swaps launched sides between blocks.
 */
import type { GateConfig } from '../config/types.js'
import type { LoadSettings } from '../config/load-types.js'
import type { SideSwitchKind } from '../config/launch.js'
import type { LoadReport, LoadSide, UpPeriod } from '../model/load-report.js'
import { GateError } from '../errors.js'
import { planSides, type SideEndpoint } from '../plan/run-plan.js'
import type { Side } from '../model/verdict.js'
import { LOG_RATIO_METHOD } from '../stats/log-ratio.js'
import type { Target } from './stream-client.js'
import { PERCENTILE_METHOD } from './metrics.js'
import type { RequestTiming } from './types.js'

export interface LoadRunOptions {
  env: Record<string, string | undefined>
  /**
   * Each side's endpoint and key from the run plan (src/plan/run-plan.ts); resolved from the gate
   * file and `env` by the plan's own function when not given (the load half run on its own).
   */
  endpoints?: Record<Side, SideEndpoint | null>
  /** Progress lines (one per block). */
  progress?: (line: string) => void
  /** The quality half's HELM output of the baseline, for `prompts: gate-set`. */
  gateSetOutput?: string | null
}

export interface LoadOutcome {
  report: LoadReport
  timings: RequestTiming[]
}

/** The two sides of the load half, the baseline first (its reports and notes list them so). */
export const LOAD_SIDES: LoadSide[] = ['baseline', 'candidate']

function emptyReport(config: GateConfig, load: LoadSettings): LoadReport {
  const side = (s: LoadSide) => {
    const d = config.deployments?.[s]
    return {
      api: d && d.kind === 'server' ? d.api : 'unknown',
      model: d && d.kind === 'server' ? d.model : 'unknown',
      ignore_eos: null,
      usage: null
    }
  }
  return {
    verdict: 'error',
    headline: '',
    skipped: null,
    mode: load.mode,
    levels: load.levels,
    settings: {
      repetitions: load.repetitions,
      requests_per_block: load.requestsPerLevel === null ? null : Math.ceil(load.requestsPerLevel / load.repetitions),
      seconds_per_block: load.durationSeconds === null ? null : load.durationSeconds / load.repetitions,
      warmup_requests: load.warmupRequests,
      timeout_seconds: load.timeoutSeconds,
      arrival: load.mode === 'rate' ? load.arrival : null,
      confidence: config.statistics.confidence,
      percentile_method: PERCENTILE_METHOD,
      interval_method: LOG_RATIO_METHOD,
      prompts: load.workload.prompts,
      seed: load.seed
    },
    sides: { baseline: side('baseline'), candidate: side('candidate') },
    interleaved: true,
    blocks: [],
    summary: [],
    ratios: [],
    checks: [],
    errors: [],
    warnings: [],
    notes: [],
    timings_file: null
  }
}

export function levelName(load: LoadSettings, level: number): string {
  return load.mode === 'concurrency' ? `concurrency ${level}` : `rate ${level}/s`
}

/** One load half in progress: the settings, the report being filled and the two targets (runLoad). */
export interface LoadRun {
  config: GateConfig
  load: LoadSettings
  report: LoadReport
  targets: Record<LoadSide, Target>
  timeoutMs: number
  say: (line: string) => void
  /** performance.now() when the load half started: request send times count from here. */
  origin: number
  /** performance.now() when the load half began (its probes included), for "after how long". */
  began: number
  /** Records an error, making the outcome an error. */
  fail(code: string, message: string, field?: string): LoadOutcome
}

/** The checks before any request (a load section, server deployments on both sides). */
export function beginLoad(config: GateConfig, options: LoadRunOptions): LoadRun | LoadOutcome {
  const load = config.load
  if (!load) throw new Error('runLoad needs a load: section')
  const report = emptyReport(config, load)
  const fail = (code: string, message: string, field?: string): LoadOutcome => {
    report.errors.push({ code, message, ...(field ? { field } : {}) })
    report.verdict = 'error'
    report.headline = `Performance: error: ${message}`
    return { report, timings: [] }
  }
  const deployments = config.deployments
  if (!deployments) return fail('load.no_deployments', 'the load half needs deployments (base_url and model of each side)', 'deployments')
  for (const side of LOAD_SIDES) {
    if (deployments[side].kind !== 'server') {
      return fail(
        'load.prod_env',
        `the load half needs deployments.${side} as api/base_url/model, not a prod_env reference or a runner command`,
        `deployments.${side}`
      )
    }
  }
  // The plan's endpoints are the targets: both are servers (checked above).
  const endpoints = options.endpoints ?? planSides(config, options.env).endpoints
  const targets = { baseline: endpoints.baseline as Target, candidate: endpoints.candidate as Target }
  const say = options.progress ?? (() => {})
  const now = performance.now()
  return { config, load, report, targets, timeoutMs: load.timeoutSeconds * 1000, say, origin: now, began: now, fail }
}

export function isOutcome(value: unknown): value is LoadOutcome {
  return typeof value === 'object' && value !== null && 'report' in value && 'timings' in value
}

/**
 * Brings launched sides up one at a time between blocks, for servers that cannot be up together
 * (src/launch/side-holder.ts). The load half calls it before a block of the side that is not up,
 * then probes (the first time) and warms that side again: the warm-up is never measured.
 */
export interface SideSwitch {
  /** How each side is swapped; null: the side is always up. */
  readonly switches: Record<LoadSide, SideSwitchKind | null>
  /** False: both sides stay up once brought up (no swaps); the blocks alternate as for servers always up. */
  readonly oneAtATime: boolean
  /**
   * Makes `side` the one that is up (the other stopped or asleep) and waits until it is ready.
   * Throws a GateError naming the side and `stage` when it cannot.
   */
  bringUp(side: LoadSide, stage: string): Promise<void>
  /** Takes the side that is up down at the end of the load half, on every path. Never throws. */
  release(): Promise<void>
  /** The periods each side was up, so far. */
  periods(): Record<LoadSide, UpPeriod[]>
}

/** A swap that failed: names the side and the block it was for. */
export class SwapError extends GateError {}
