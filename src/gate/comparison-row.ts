/**
 * The one builder of a comparison row (a line of the report's comparisons): from a paired
 * estimate and the tolerated drop, the statistic, its interval, the flips (wins, losses,
 * unchanged), the verdict and the instances needed. Every comparison makes its rows here: HELM
 * runs and lm-eval tasks (comparisons.ts), the traffic replay's checks (src/replay/judge.ts).
 * Pure.
 */
import { counted } from '../words.js'
import type { ChangeDirection, ChangedExample, Comparison, WorstCase } from '../model/report.js'
import type { StatisticsSettings } from '../config/types.js'
import { decideVerdict } from '../stats/index.js'
import type { Direction, PairedEstimate, VerdictDecision } from '../stats/types.js'

/**
 * A percentile bootstrap on a handful of instances under-covers badly (with one instance it has
 * zero width), so it could pass on no evidence. Below this many resampling units a bootstrap
 * interval can fail or be inconclusive, never pass. The analytic 0/1 intervals stay honest at
 * small n and are not capped.
 */
export const MIN_BOOTSTRAP_UNITS = 20

export function smallSampleGuard(decision: VerdictDecision, n: number, method: string): VerdictDecision {
  if (decision.verdict !== 'pass' || !method.startsWith('bootstrap') || n >= MIN_BOOTSTRAP_UNITS) return decision
  return {
    verdict: 'inconclusive',
    nNeeded: MIN_BOOTSTRAP_UNITS,
    reason: `Only ${counted(n, 'instance')}: a bootstrap interval needs at least ${MIN_BOOTSTRAP_UNITS} to be trusted, so this cannot pass; use more instances.`
  }
}

/** The verdict of a paired estimate against the tolerated drop, small samples never passing on a bootstrap. */
export function pairedDecision(
  estimate: PairedEstimate,
  maxDrop: number,
  direction: Direction,
  statistics: StatisticsSettings
): VerdictDecision {
  return smallSampleGuard(decideVerdict(estimate, maxDrop, direction, statistics.confidence), estimate.n, estimate.ci.method)
}

/** What names a row and what it was decided against; the rest comes from the estimate and the decision. */
export interface RowIdentity {
  id: string
  run: string
  entry: Comparison['entry']
  metric: string
  split: string | null
  perturbation: string | null
  gated: boolean
  direction: Direction
  unmatched: Comparison['unmatched']
  dropped: Comparison['dropped']
  max_drop: number
  max_relative_drop: number | null
}

export function comparisonRow(
  identity: RowIdentity,
  estimate: PairedEstimate,
  decision: VerdictDecision,
  rest: { worstCase?: WorstCase; reason: string; examples: ChangedExample[]; direction?: ChangeDirection }
): Comparison {
  return {
    id: identity.id,
    run: identity.run,
    entry: identity.entry,
    metric: identity.metric,
    split: identity.split,
    perturbation: identity.perturbation,
    gated: identity.gated,
    direction: identity.direction,
    binary: estimate.binary,
    n: estimate.n,
    pairs: estimate.pairs,
    unmatched: identity.unmatched,
    dropped: identity.dropped,
    baseline_mean: estimate.baselineMean,
    candidate_mean: estimate.candidateMean,
    delta: estimate.delta,
    ci: { level: estimate.ci.level, low: estimate.ci.low, high: estimate.ci.high, method: estimate.ci.method },
    ...(rest.worstCase ? { worst_case: rest.worstCase } : {}),
    wins: estimate.wins,
    losses: estimate.losses,
    unchanged: estimate.unchanged,
    p_value: estimate.pValue,
    ...(rest.direction ? { change_direction: rest.direction } : {}),
    max_drop: identity.max_drop,
    max_relative_drop: identity.max_relative_drop,
    verdict: decision.verdict,
    n_needed: decision.nNeeded,
    reason: rest.reason,
    examples: rest.examples
  }
}
