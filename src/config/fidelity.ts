/**
 * The gate file's `fidelity:` section (docs/gate-file.md, docs/fidelity.md): token-level agreement
 * of the candidate with the baseline, measured on the baseline's own greedy answers. Absent =
 * nothing runs and nothing is probed.
 */
import { ConfigError } from '../errors.js'
import { Fields } from './validate.js'
import { ANSWER_LENGTH_METRIC, bandOf } from './answer-length-band.js'

/** Every per-instance figure a check can gate, with the bound it takes and its perfect value. */
export const FIDELITY_METRICS = ['top1_agreement', 'kld_mean', 'kld_max', 'delta_p_mean', 'answer_length_ratio'] as const
export type FidelityMetric = (typeof FIDELITY_METRICS)[number]

/**
 * The value a candidate identical to the baseline has, and which bounds make sense: agreement and
 * delta-p can only get worse downwards (a `min`), divergences upwards (a `max`); the length ratio
 * both ways.
 */
export const METRIC_SHAPE: Record<FidelityMetric, { perfect: number; bounds: readonly ('min' | 'max')[] }> = {
  top1_agreement: { perfect: 1, bounds: ['min'] },
  kld_mean: { perfect: 0, bounds: ['max'] },
  kld_max: { perfect: 0, bounds: ['max'] },
  delta_p_mean: { perfect: 0, bounds: ['min'] },
  answer_length_ratio: { perfect: 1, bounds: ['min', 'max'] }
}

export interface FidelityCheck {
  metric: FidelityMetric
  bound: 'min' | 'max'
  value: number
}

export interface FidelitySettings {
  /** The first N prompts of the gate set (or the traffic set) are scored. */
  instances: number
  /** The baseline's greedy answer is cut at this many tokens. */
  maxAnswerTokens: number
  /** Alternatives asked per position (the server's limit is checked when it is probed). */
  topK: number
  /** 1: the baseline is scored against a second pass of itself (the A/A floor); 0: the floor is taken as perfect. */
  baselineReruns: 0 | 1
  checks: FidelityCheck[]
  requestTimeoutSeconds: number
}

export function parseFidelity(f: Fields): FidelitySettings {
  f.allow(['instances', 'max_answer_tokens', 'top_k', 'baseline_reruns', 'checks', 'request_timeout_seconds'])
  const instances = f.integer('instances', 100, 1, 100000)
  const maxAnswerTokens = f.integer('max_answer_tokens', 64, 1, 4096)
  const topK = f.integer('top_k', 20, 1, 1000)
  const baselineReruns = f.integer('baseline_reruns', 1, 0, 1) as 0 | 1
  const list = f.list('checks') ?? []
  const checks = list.flatMap((item, i) => parseCheck(f, i, item))
  const requestTimeoutSeconds = f.number('request_timeout_seconds', 120, n => n > 0 && n <= 3600, 'seconds between 0 and 3600')
  f.done()
  return { instances, maxAnswerTokens, topK, baselineReruns, checks, requestTimeoutSeconds }
}

/**
 * One check of the list; `answer_length_ratio` takes a band as in every other section
 * (`{ metric: answer_length_ratio, min: 0.8, max: 1.25 }`), which becomes one check per bound.
 */
function parseCheck(parent: Fields, i: number, item: unknown): FidelityCheck[] {
  const c = Fields.of(parent.source, parent.at(`checks[${i}]`), item).allow(['metric', 'min', 'max'])
  const metric = c.choice('metric', FIDELITY_METRICS, undefined)
  if (metric === ANSWER_LENGTH_METRIC) {
    const band = bandOf(c, c.path)
    c.done()
    return [
      ...(band.min === null ? [] : [{ metric, bound: 'min' as const, value: band.min }]),
      ...(band.max === null ? [] : [{ metric, bound: 'max' as const, value: band.max }])
    ]
  }
  const shape = METRIC_SHAPE[metric]
  const given = (['min', 'max'] as const).filter(b => c.has(b))
  if (given.length !== 1) {
    c.fail('metric', `${c.path} needs exactly one of min, max (${shape.bounds.join(' or ')} for ${metric})`, item)
  }
  const bound = given[0]
  if (!shape.bounds.includes(bound)) {
    c.fail(bound, `${metric} is bounded with ${shape.bounds.join(' or ')}, not ${bound}`)
  }
  // The bound must leave room for a perfect candidate (a min above it fails everything) and stay in
  // the metric's range (agreement >= 0, delta-p >= -1).
  const lowest = metric === 'delta_p_mean' ? -1 : 0
  const value =
    bound === 'min'
      ? c.number(bound, undefined, n => n >= lowest && n < shape.perfect, `a number from ${lowest} up to (not including) ${shape.perfect}`)
      : c.number(bound, undefined, n => n > shape.perfect, `a number above ${shape.perfect}`)
  c.raw(bound === 'min' ? 'max' : 'min')
  c.done()
  return [{ metric, bound, value }]
}

/**
 * The section with the gate file's sides: fidelity sends its own requests, so both sides must be
 * servers (a URL helm-gate can reach), launched or always up.
 */
export function parseFidelityWithSides(
  f: Fields,
  deployments: Record<'baseline' | 'candidate', { kind: string }> | null
): FidelitySettings {
  const settings = parseFidelity(f)
  for (const side of ['baseline', 'candidate'] as const) {
    const deployment = deployments?.[side]
    if (!deployment || deployment.kind !== 'server') {
      throw new ConfigError(
        'config.invalid',
        `fidelity scores token probabilities over HTTP: deployments.${side} must be a server (base_url, model), not ${deployment ? deployment.kind : 'absent'}`,
        { file: f.source, field: `deployments.${side}`, value: deployment?.kind ?? null }
      )
    }
  }
  return settings
}
