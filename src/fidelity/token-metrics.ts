/**
 * Token-level fidelity of one instance (docs/fidelity.md): the candidate scored on the baseline's
 * greedy answer, position by position. Pure: numbers in, numbers out.
 *
 * Servers report only the top-k of each next-token distribution. The KL divergence is taken over
 * the tokens both sides reported (the shared top-k) plus one bucket holding everything else on
 * each side (1 minus the reported mass). That bucketing is a deterministic merge of vocabulary
 * cells applied to both distributions alike, so by the data-processing inequality the bucketed KL
 * is a lower bound of the full KL(B || C). Tokens only one side reported go to the bucket: their
 * probability on the other side is unknown, and guessing it would make the figure neither exact
 * nor a bound.
 */

/** One reported alternative: a token (an id, or the token's text where a server gives no ids) and its log-probability. */
export interface TopEntry {
  token: string
  logprob: number
  /** The token's text where the server gives it beside the id (shown in report.html, never compared). */
  text?: string
}

/** One position of an answer as a side reported it. */
export interface PositionDistribution {
  /** The token at this position in the answer being scored (the baseline's token, forced on the candidate). */
  token: string
  /** Its log-probability on this side; exact even when it is outside the top-k. */
  logprob: number
  /** The top-k alternatives, most likely first. */
  top: TopEntry[]
  /** The token's text where the server gives it beside the id (shown in report.html, never compared). */
  text?: string
}

/** One position for the reviewer: the baseline's token, the candidate's most likely one, and delta-p. */
export interface TokenCell {
  /** The baseline's token (its text, else its id as the server named it). */
  baseline: string
  /** The candidate's most likely token at this position (text, else id); null when it reported none. */
  candidate: string | null
  /** p_C(y_t) - p_B(y_t). */
  deltaP: number
}

export interface PositionFidelity {
  /** 1 when both sides' most likely token is the same, else 0. */
  top1: number
  /** Bucketed KL(B || C) in nats (a lower bound of the full KL). */
  kl: number
  /** p_C(y_t) - p_B(y_t) for the baseline's token y_t. */
  deltaP: number
  /** The baseline's probability mass outside the shared top-k (the bucket). */
  restMass: number
}

/**
 * The smallest rest mass the candidate side is taken to have. Reported probabilities are rounded
 * (llama.cpp sends floats), so 1 - sum can come out as 0 or a hair below while the baseline still
 * puts mass there; the floor keeps the bound finite. It is far below the masses that matter
 * (1e-9 of probability changes the KL by at most rB * ln(rB / 1e-9)).
 */
export const REST_MASS_FLOOR = 1e-9

export function positionFidelity(baseline: PositionDistribution, candidate: PositionDistribution): PositionFidelity {
  if (baseline.token !== candidate.token) {
    throw new RangeError(`the candidate was scored on token ${candidate.token}, not the baseline's ${baseline.token}`)
  }
  const bTop = argmax(baseline.top)
  const cTop = argmax(candidate.top)
  const cMap = new Map(candidate.top.map(e => [e.token, Math.exp(e.logprob)]))
  let kl = 0
  let sharedB = 0
  let sharedC = 0
  const seen = new Set<string>()
  for (const e of baseline.top) {
    if (seen.has(e.token)) continue
    seen.add(e.token)
    const pc = cMap.get(e.token)
    if (pc === undefined) continue
    const pb = Math.exp(e.logprob)
    sharedB += pb
    sharedC += pc
    if (pb > 0) kl += pb * (e.logprob - Math.log(pc))
  }
  const restB = clamp01(1 - sharedB)
  const restC = Math.max(REST_MASS_FLOOR, clamp01(1 - sharedC))
  if (restB > REST_MASS_FLOOR) kl += restB * Math.log(restB / restC)
  return {
    top1: bTop !== null && bTop === cTop ? 1 : 0,
    // A sum of rounded terms can dip a hair below zero; the divergence itself never does.
    kl: Math.max(0, kl),
    deltaP: Math.exp(candidate.logprob) - Math.exp(baseline.logprob),
    restMass: restB
  }
}

export interface InstanceFidelity {
  /** Positions scored (the baseline's answer length in tokens). */
  positions: number
  top1Agreement: number
  klMean: number
  klMax: number
  deltaPMean: number
  /** Mean baseline mass in the bucket. */
  restMassMean: number
  /**
   * The first position (0-based) where the candidate's most likely token is not the baseline's
   * token: where the candidate's own greedy answer leaves the baseline's. null when it never does.
   */
  firstDivergence: number | null
  /** Per position, for the instances report.html shows side by side. */
  cells?: TokenCell[]
}

/**
 * Per-instance means over positions (the instance, not the token, is the unit: tokens of one
 * answer are correlated). An answer with no tokens has nothing to score and is refused.
 */
export function instanceFidelity(baseline: PositionDistribution[], candidate: PositionDistribution[]): InstanceFidelity {
  if (baseline.length === 0) throw new RangeError('an empty answer has no positions to score')
  if (baseline.length !== candidate.length) {
    throw new RangeError(`the candidate was scored on ${candidate.length} positions, the baseline's answer has ${baseline.length}`)
  }
  let top1 = 0
  let kl = 0
  let klMax = 0
  let dp = 0
  let rest = 0
  let firstDivergence: number | null = null
  const cells: TokenCell[] = []
  for (let t = 0; t < baseline.length; t++) {
    const p = positionFidelity(baseline[t], candidate[t])
    const top = topEntry(candidate[t].top)
    cells.push({
      baseline: baseline[t].text ?? baseline[t].token,
      candidate: top === null ? null : (top.text ?? top.token),
      deltaP: p.deltaP
    })
    top1 += p.top1
    kl += p.kl
    klMax = Math.max(klMax, p.kl)
    dp += p.deltaP
    rest += p.restMass
    if (firstDivergence === null && argmax(candidate[t].top) !== baseline[t].token) firstDivergence = t
  }
  const n = baseline.length
  return {
    positions: n,
    top1Agreement: top1 / n,
    klMean: kl / n,
    klMax,
    deltaPMean: dp / n,
    restMassMean: rest / n,
    firstDivergence,
    cells
  }
}

/** The most likely reported token (the first of equals, as servers list them), or null for an empty list. */
export function argmax(top: TopEntry[]): string | null {
  return topEntry(top)?.token ?? null
}

function topEntry(top: TopEntry[]): TopEntry | null {
  let best: TopEntry | null = null
  for (const e of top) if (best === null || e.logprob > best.logprob) best = e
  return best
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x
}
