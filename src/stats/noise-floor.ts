/**
 * Answers without references, judged against the noise floor (docs/method.md "Traffic gates:
 * against the noise floor"). The baseline ran twice (B1, B2) and the candidate once (C) on the
 * same instances. Per instance, the candidate's change from B1 is paired with the baseline's own
 * change from B1 (B2), and the question is non-inferiority on the excess:
 * - disagreement: D_i = 1[C_i != B1_i], N_i = 1[B2_i != B1_i]; excess = mean(D) - mean(N), a
 *   paired difference of 0/1 outcomes, so the paired-proportions interval (Tango) applies;
 * - similarity: d_i = sim(B2_i, B1_i) - sim(C_i, B1_i), continuous: the cluster bootstrap.
 * Both reuse the paired engine with the noise floor as the "baseline" value and the candidate's
 * change as the "candidate" value, so the verdict rules, the small-sample guard and the coverage
 * study are the same as for every other comparison. Pure.
 */
import { estimatePaired } from './paired.js'
import { decideVerdict } from './decide-verdict.js'
import type { PairedCluster, PairedEstimate, StatisticsSettings, VerdictDecision } from './types.js'

/** Excess disagreement: `noise[i]` = N_i, `change[i]` = D_i (0/1); delta = mean(D) - mean(N). */
export function excessDisagreement(noise: number[], change: number[], settings: StatisticsSettings): PairedEstimate {
  return estimatePaired(pairs(noise, change), settings)
}

/**
 * Similarity lost beyond the noise floor: `floor[i]` = sim(B2_i, B1_i), `kept[i]` = sim(C_i, B1_i);
 * delta = mean(kept - floor) = -mean(d), so a loss is a negative delta (higher is better).
 */
export function similarityLoss(floor: number[], kept: number[], settings: StatisticsSettings): PairedEstimate {
  return estimatePaired(pairs(floor, kept), settings)
}

/** pass when the whole interval of the excess lies below `margin`, fail when above, inconclusive otherwise. */
export function decideExcess(estimate: PairedEstimate, margin: number, confidence?: number): VerdictDecision {
  return decideVerdict(estimate, margin, 'lower', confidence)
}

/** pass when the whole interval of the similarity lost lies below `margin` (delta above -margin). */
export function decideSimilarityLoss(estimate: PairedEstimate, margin: number, confidence?: number): VerdictDecision {
  return decideVerdict(estimate, margin, 'higher', confidence)
}

function pairs(baseline: number[], candidate: number[]): PairedCluster[] {
  if (baseline.length !== candidate.length) throw new RangeError('the noise floor and the candidate need one value per instance each')
  return baseline.map((b, i) => ({ baseline: [b], candidate: [candidate[i]] }))
}
