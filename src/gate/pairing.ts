/**
 * Pairs the two sides instance by instance (docs/method.md "Pairing"). The key of a value is
 * (instance, train trial, perturbation); the resampling unit is the instance with its
 * perturbation: all trials of one instance move together (cluster bootstrap).
 */
import type { MetricValue } from '../model/harness.js'
import type { PairedCluster } from '../stats/types.js'

export interface PairedData {
  clusters: PairedCluster[]
  /** Cluster keys in the order of `clusters` (sorted, so the result never depends on file order). */
  clusterKeys: string[]
  /** Per cluster, the trial indices in the order of the values. */
  trials: number[][]
  pairs: number
  unmatched: { baseline: number; candidate: number }
  dropped: { baseline: number; candidate: number }
  /** Keys on both sides whose value is a measurement on one side only. */
  oneSided: number
  /**
   * Keys measured on both sides (or on neither) / keys of the larger side. A value measured on
   * one side only counts as missing: HELM removes NaN stats from the file (so the key goes
   * missing), and a count-0 or NaN value left in the file is the same failure; it must not
   * shrink the comparison silently to the instances that worked. Keys unmeasured on both sides
   * (a stat that does not apply to that instance) say nothing about either deployment.
   */
  overlap: number
  keys: { baseline: number; candidate: number }
}

export function clusterKey(instanceId: string, perturbation: string | null): string {
  return perturbation === null ? instanceId : `${instanceId}\u0000${perturbation}`
}

function valueKey(v: MetricValue): string {
  return `${clusterKey(v.instanceId, v.perturbation)}\u0000${v.trainTrialIndex}`
}

function index(values: MetricValue[]): Map<string, MetricValue> {
  const byKey = new Map<string, MetricValue>()
  for (const v of values) byKey.set(valueKey(v), v)
  return byKey
}

export function pairValues(baseline: MetricValue[], candidate: MetricValue[]): PairedData {
  const b = index(baseline)
  const c = index(candidate)
  let matched = 0
  let pairs = 0
  const dropped = { baseline: 0, candidate: 0 }
  let oneSided = 0
  const byCluster = new Map<string, { trial: number; b: number; c: number }[]>()
  for (const [key, bv] of b) {
    const cv = c.get(key)
    if (!cv) continue
    matched++
    if (bv.value === null || cv.value === null) {
      if (bv.value === null) dropped.baseline++
      if (cv.value === null) dropped.candidate++
      if ((bv.value === null) !== (cv.value === null)) oneSided++
      continue
    }
    const ck = clusterKey(bv.instanceId, bv.perturbation)
    let list = byCluster.get(ck)
    if (!list) byCluster.set(ck, (list = []))
    list.push({ trial: bv.trainTrialIndex, b: bv.value, c: cv.value })
    pairs++
  }
  const clusterKeys = [...byCluster.keys()].sort()
  const clusters: PairedCluster[] = []
  const trials: number[][] = []
  for (const key of clusterKeys) {
    const list = byCluster.get(key)!.sort((x, y) => x.trial - y.trial)
    clusters.push({ baseline: list.map(x => x.b), candidate: list.map(x => x.c) })
    trials.push(list.map(x => x.trial))
  }
  const larger = Math.max(b.size, c.size)
  return {
    clusters,
    clusterKeys,
    trials,
    pairs,
    unmatched: { baseline: b.size - matched, candidate: c.size - matched },
    dropped,
    oneSided,
    overlap: larger === 0 ? 0 : (matched - oneSided) / larger,
    keys: { baseline: b.size, candidate: c.size }
  }
}

/**
 * Per-instance worst case over the clean instance and its perturbed variants (docs/method.md
 * "Robustness"). Only variants present on both sides enter, so that a variant missing on one
 * side cannot make that side look better; missing variants are caught by the per-perturbation
 * overlap guard.
 */
export function worstCase(
  baseline: MetricValue[],
  candidate: MetricValue[],
  direction: 'higher' | 'lower'
): { baseline: MetricValue[]; candidate: MetricValue[] } {
  const c = index(candidate)
  const pick = direction === 'higher' ? Math.min : Math.max
  const worstB = new Map<string, MetricValue>()
  const worstC = new Map<string, MetricValue>()
  const fold = (into: Map<string, MetricValue>, v: MetricValue): void => {
    const key = `${v.instanceId}\u0000${v.trainTrialIndex}`
    const prev = into.get(key)
    if (!prev) {
      into.set(key, { ...v, perturbation: null })
    } else if (prev.value !== null) {
      into.set(key, { ...prev, value: v.value === null ? null : pick(prev.value, v.value) })
    }
  }
  for (const bv of baseline) {
    const cv = c.get(valueKey(bv))
    if (!cv) continue
    fold(worstB, bv)
    fold(worstC, cv)
  }
  return { baseline: [...worstB.values()], candidate: [...worstC.values()] }
}

export interface Imputed {
  baseline: MetricValue[]
  candidate: MetricValue[]
  /** Keys whose value was imputed, per side. */
  imputedKeys: { baseline: string[]; candidate: string[] }
}

/**
 * Both sides completed for the worst-case bound (docs/method.md "Missing data: the worst-case
 * bound"): a key measured on one side only gets `fill.candidate` (the metric's worst) where the
 * candidate lacks it and `fill.baseline` (its best) where the baseline lacks it. Keys measured on
 * neither side say nothing about either deployment and stay out.
 */
export function imputeMissing(baseline: MetricValue[], candidate: MetricValue[], fill: { baseline: number; candidate: number }): Imputed {
  const b = index(baseline)
  const c = index(candidate)
  const out: Imputed = { baseline: [], candidate: [], imputedKeys: { baseline: [], candidate: [] } }
  const keys = new Set([...b.keys(), ...c.keys()])
  for (const key of keys) {
    const bv = b.get(key)
    const cv = c.get(key)
    const measuredB = bv !== undefined && bv.value !== null
    const measuredC = cv !== undefined && cv.value !== null
    if (!measuredB && !measuredC) continue
    const like = (measuredB ? bv : cv) as MetricValue
    if (measuredB) out.baseline.push(bv)
    else {
      out.baseline.push({ ...like, value: fill.baseline, occurrences: 1 })
      out.imputedKeys.baseline.push(key)
    }
    if (measuredC) out.candidate.push(cv)
    else {
      out.candidate.push({ ...like, value: fill.candidate, occurrences: 1 })
      out.imputedKeys.candidate.push(key)
    }
  }
  return out
}
