/**
 * Strict validation of the gate file's `load:` section (types in `load-types.ts`, the method in
 * docs/load.md). Like the rest of the gate file, an unknown key, a wrong type or an impossible
 * value is an error naming its key path, e.g. `load.checks[1].max_ratio`.
 */
import {
  LOAD_METRICS,
  RATIO_METRICS,
  type LoadCheck,
  type LoadMetric,
  type LoadSettings,
  type SloBound,
  type TokenDistribution,
  type Workload
} from './load-types.js'
import { Fields } from './validate.js'

const MAX_TOKENS = 1_000_000
/** Ten minutes of swapping: a few dozen restarts of a server that loads in seconds. */
export const DEFAULT_SWAP_BUDGET_SECONDS = 600
/** A quarter of the host: above it the client competes with a CPU engine for the cores. */
export const DEFAULT_CLIENT_CPU_WARN_SHARE = 0.25

export function parseLoad(f: Fields): LoadSettings {
  f.allow([
    'workload',
    'concurrency',
    'rate',
    'arrival',
    'requests_per_level',
    'duration_seconds',
    'warmup_requests',
    'repetitions',
    'timeout_seconds',
    'slo',
    'checks',
    'baseline',
    'seed',
    'swap_budget_seconds',
    'client_cpu_warn_share'
  ])
  const workloadFields = f.object('workload')
  const workload = parseWorkload(workloadFields ?? Fields.of(f.source, f.at('workload'), {}))

  const { mode, levels, arrival } = parseOfferedLoad(f, workload)
  const { requestsPerLevel, durationSeconds, warmupRequests, repetitions } = parseRequestCounts(f)
  const timeoutSeconds = f.number('timeout_seconds', 120, n => n > 0 && n <= 3600, 'seconds between 0 and 3600')
  const sloFields = f.object('slo')
  const slo = sloFields ? parseSlo(sloFields) : []
  const checkList = f.list('checks') ?? []
  const checks = checkList.map((item, i) => parseCheck(Fields.of(f.source, `${f.at('checks')}[${i}]`, item), mode, levels))
  if (checks.some(c => c.metric === 'goodput') && slo.length === 0) {
    f.fail('slo', `${f.path} has a goodput check but no slo to define a good request`, null)
  }
  const baseline = f.choice('baseline', ['required', 'optional'] as const, 'required')
  const seed = f.integer('seed', 0, 0, 2 ** 32 - 1)
  const swapBudgetSeconds = f.number(
    'swap_budget_seconds',
    DEFAULT_SWAP_BUDGET_SECONDS,
    n => n >= 0 && n <= 86_400,
    'seconds between 0 and 86400'
  )
  const clientCpuWarnShare = f.number(
    'client_cpu_warn_share',
    DEFAULT_CLIENT_CPU_WARN_SHARE,
    n => n > 0 && n <= 1,
    'a share between 0 and 1'
  )
  f.done()
  return {
    workload,
    mode,
    levels,
    arrival,
    requestsPerLevel,
    durationSeconds,
    warmupRequests,
    repetitions,
    timeoutSeconds,
    slo,
    checks,
    baseline,
    seed,
    swapBudgetSeconds,
    clientCpuWarnShare
  }
}

/** Closed loop (concurrency levels) or open loop (rates), and how an open loop's requests arrive. */
function parseOfferedLoad(f: Fields, workload: Workload): Pick<LoadSettings, 'mode' | 'levels' | 'arrival'> {
  const concurrency = f.list('concurrency')
  const rate = f.list('rate')
  if (concurrency && rate) f.fail('rate', `${f.path} sets both concurrency and rate; choose closed loop or open loop`)
  if (!concurrency && !rate) f.fail('concurrency', `${f.path} needs concurrency (closed-loop levels) or rate (requests per second)`, null)
  const mode = concurrency ? 'concurrency' : 'rate'
  const levels = parseLevels(f, mode, (concurrency ?? rate) as unknown[])
  const arrival = f.choice('arrival', ['poisson', 'constant', 'traffic'] as const, 'poisson')
  if (mode === 'concurrency' && f.has('arrival')) f.fail('arrival', `${f.at('arrival')} applies only to rate (open loop)`)
  if (arrival === 'traffic' && workload.prompts !== 'traffic') {
    f.fail('arrival', `${f.at('arrival')} is traffic, which replays a traffic set's arrival times: it needs workload.prompts: traffic`)
  }
  return { mode, levels, arrival }
}

/** How many requests each level gets (a count or a duration), the warm-up and the repetition blocks. */
function parseRequestCounts(f: Fields): Pick<LoadSettings, 'requestsPerLevel' | 'durationSeconds' | 'warmupRequests' | 'repetitions'> {
  const requestsPerLevel = f.has('requests_per_level')
    ? f.integer('requests_per_level', undefined, 1, 10_000_000)
    : (f.raw('requests_per_level'), null)
  const durationSeconds = f.optionalNumber('duration_seconds', n => n > 0 && n <= 24 * 3600, 'seconds between 0 and 86400')
  if (requestsPerLevel !== null && durationSeconds !== null) {
    f.fail('duration_seconds', `${f.path} sets both requests_per_level and duration_seconds; choose one`)
  }
  if (requestsPerLevel === null && durationSeconds === null) {
    f.fail('requests_per_level', `${f.path} needs requests_per_level or duration_seconds`, null)
  }
  const warmupRequests = f.integer('warmup_requests', 0, 0, 1_000_000)
  const repetitions = f.integer('repetitions', 3, 3, 1000)
  if (requestsPerLevel !== null && requestsPerLevel < repetitions) {
    f.fail('requests_per_level', `${f.at('requests_per_level')} must be at least repetitions (${repetitions}): every block needs a request`)
  }
  return { requestsPerLevel, durationSeconds, warmupRequests, repetitions }
}

function parseLevels(f: Fields, mode: 'concurrency' | 'rate', list: unknown[]): number[] {
  const key = mode
  if (list.length === 0) f.fail(key, `${f.at(key)} must list at least one level`)
  const seen = new Set<number>()
  return list.map((value, i) => {
    const ok =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (mode === 'concurrency' ? Number.isInteger(value) && value >= 1 && value <= 10_000 : value > 0 && value <= 100_000)
    if (!ok) {
      f.fail(
        key,
        `${f.at(key)}[${i}] must be ${mode === 'concurrency' ? 'an integer from 1 to 10000' : 'a rate in requests per second (> 0)'}`,
        value
      )
    }
    if (seen.has(value as number)) f.fail(key, `${f.at(key)}[${i}] repeats the level ${String(value)}`, value)
    seen.add(value as number)
    return value as number
  })
}

function parseWorkload(f: Fields): Workload {
  f.allow(['prompts', 'input_tokens', 'output_tokens', 'file'])
  const prompts = f.choice('prompts', ['synthetic', 'gate-set', 'file', 'traffic'] as const, 'synthetic')
  const input = f.object('input_tokens')
  const output = f.object('output_tokens')
  const file = f.string('file', null)
  const withFile = prompts === 'file' || prompts === 'traffic'
  if (withFile && file === null) {
    f.fail(
      'file',
      `${f.at('file')} is required with prompts: ${prompts}${prompts === 'traffic' ? ' (the traffic set, e.g. traffic.jsonl)' : ''}`,
      null
    )
  }
  if (!withFile && file !== null) f.fail('file', `${f.at('file')} applies only to prompts: file or traffic`)
  if (prompts === 'traffic' && file !== null && !file.endsWith('.jsonl')) {
    f.fail('file', `${f.at('file')} must be a traffic set (.jsonl), as written by helm-gate traffic build`)
  }
  if ((prompts === 'gate-set' || prompts === 'traffic') && input) {
    const whose = prompts === 'gate-set' ? "HELM's prompts are used as they are" : "the traffic set's prompts are used as they are"
    f.fail('input_tokens', `${f.at('input_tokens')} does not apply to prompts: ${prompts} (${whose})`)
  }
  f.done()
  return {
    prompts,
    inputTokens: input ? parseDistribution(input) : { mean: 512, stddev: 128, min: 16, max: 4096 },
    outputTokens: output ? parseDistribution(output) : { mean: 256, stddev: 0, min: 1, max: 256 },
    file
  }
}

function parseDistribution(f: Fields): TokenDistribution {
  f.allow(['mean', 'stddev', 'min', 'max'])
  const mean = f.integer('mean', undefined, 1, MAX_TOKENS)
  const stddev = f.number('stddev', 0, n => n >= 0 && n <= MAX_TOKENS, 'a number >= 0')
  const min = f.integer('min', stddev === 0 ? mean : 1, 1, MAX_TOKENS)
  const max = f.integer('max', stddev === 0 ? mean : MAX_TOKENS, 1, MAX_TOKENS)
  if (min > mean) f.fail('min', `${f.at('min')} must not exceed mean (${mean})`)
  if (max < mean) f.fail('max', `${f.at('max')} must not be below mean (${mean})`)
  f.done()
  return { mean, stddev, min, max }
}

function parseSlo(f: Fields): SloBound[] {
  f.allow(['ttft_ms', 'itl_ms', 'tpot_ms', 'latency_ms'])
  const bounds: SloBound[] = []
  for (const metric of ['ttft', 'itl', 'tpot', 'latency'] as const) {
    const key = `${metric}_ms`
    const value = f.raw(key)
    if (value === undefined || value === null) continue
    if (typeof value === 'number') {
      if (!(Number.isFinite(value) && value > 0)) f.fail(key, `${f.at(key)} must be milliseconds > 0`)
      bounds.push({ metric, percentile: 100, maxMs: value })
      continue
    }
    const inner = Fields.of(f.source, f.at(key), value)
    const keys = Object.keys(value as object)
    if (keys.length !== 1) f.fail(key, `${f.at(key)} must be milliseconds or one percentile, e.g. { p99: 80 }`)
    const match = /^p(\d{1,2}(?:\.\d+)?|100)$/.exec(keys[0])
    if (!match) return inner.fail(keys[0], `${inner.at(keys[0])} is not a percentile key such as p50, p90 or p99`)
    const percentile = Number(match[1])
    if (!(percentile > 0 && percentile <= 100)) inner.fail(keys[0], `${inner.at(keys[0])} must name a percentile in (0, 100]`)
    const maxMs = inner.number(keys[0], undefined, n => n > 0, 'milliseconds > 0')
    inner.done()
    bounds.push({ metric, percentile, maxMs })
  }
  f.done()
  return bounds
}

function parseCheck(f: Fields, mode: 'concurrency' | 'rate', levels: number[]): LoadCheck {
  f.allow(['metric', 'concurrency', 'rate', 'min_ratio', 'max_ratio', 'min', 'max'])
  const metric = f.choice('metric', LOAD_METRICS, undefined) as LoadMetric
  const other = mode === 'concurrency' ? 'rate' : 'concurrency'
  if (f.has(other)) f.fail(other, `${f.at(other)} does not apply: the levels are given as ${mode}`)
  f.raw(other)
  const level = f.optionalNumber(mode, n => levels.includes(n), `one of the levels in load.${mode} (${levels.join(', ')})`)
  const minRatio = f.optionalNumber('min_ratio', n => n > 0, 'a ratio > 0')
  const maxRatio = f.optionalNumber('max_ratio', n => n > 0, 'a ratio > 0')
  const min = f.optionalNumber('min', n => n >= 0, 'a number >= 0')
  const max = f.optionalNumber('max', n => n >= 0, 'a number >= 0')
  const set = [minRatio, maxRatio, min, max].filter(v => v !== null).length
  if (set !== 1) f.fail('metric', `${f.path} needs exactly one of min_ratio, max_ratio, min, max`, null)
  if (metric === 'error_rate' && (minRatio !== null || maxRatio !== null)) {
    f.fail(
      minRatio !== null ? 'min_ratio' : 'max_ratio',
      `${f.path}: error_rate takes an absolute bound (max), not a ratio: a baseline with no errors has no ratio`
    )
  }
  if (metric === 'error_rate' && max !== null && max > 1) f.fail('max', `${f.at('max')} must be a fraction in [0, 1]`)
  if (!(RATIO_METRICS as readonly string[]).includes(metric) && metric !== 'error_rate') f.fail('metric', `${f.at('metric')} is unknown`)
  f.done()
  return { metric, level, minRatio, maxRatio, min, max }
}
