/**
 * Stratified, seeded sampling of a traffic set (docs/traffic.md, "Building a set"). Strata are the
 * tag crossed with a prompt-length bucket; each stratum gets a share proportional to its size
 * (largest remainders), with every stratum given at least one request when the count allows, so a
 * rare tag is not lost to rounding. Within a stratum a seeded shuffle picks the requests: the same
 * pool, count and seed give the same set on every machine.
 */
import { createRandom } from '../stats/random.js'

export const LENGTH_BUCKETS = ['short', 'medium', 'long'] as const
export type LengthBucket = (typeof LENGTH_BUCKETS)[number]

/**
 * The bucket bounds: the pool's tertiles of prompt length in characters, so every bucket holds
 * about a third of the log whatever its lengths are. `short` is below `low`, `long` at or above
 * `high`.
 */
export interface BucketBounds {
  low: number
  high: number
}

export function bucketBounds(lengths: readonly number[]): BucketBounds {
  if (lengths.length === 0) return { low: 0, high: 0 }
  const sorted = [...lengths].sort((a, b) => a - b)
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  return { low: at(1 / 3), high: at(2 / 3) }
}

export function bucketOf(length: number, bounds: BucketBounds): LengthBucket {
  if (length < bounds.low) return 'short'
  if (length < bounds.high) return 'medium'
  return 'long'
}

/**
 * How many to take from each stratum: proportional by largest remainders, at least one each when
 * `count` is at least the number of strata (else one each from the largest strata), never more
 * than a stratum has. Strata are visited in name order so ties break the same way every time.
 */
export function allocate(sizes: ReadonlyMap<string, number>, count: number): Map<string, number> {
  const names = [...sizes.keys()].sort()
  const total = names.reduce((s, n) => s + (sizes.get(n) as number), 0)
  const out = new Map<string, number>(names.map(n => [n, 0]))
  if (count >= total) {
    for (const n of names) out.set(n, sizes.get(n) as number)
    return out
  }
  if (count < names.length) {
    const largest = [...names].sort((a, b) => (sizes.get(b) as number) - (sizes.get(a) as number) || (a < b ? -1 : 1))
    for (const n of largest.slice(0, count)) out.set(n, 1)
    return out
  }
  const quota = new Map(names.map(n => [n, (count * (sizes.get(n) as number)) / total]))
  for (const n of names) out.set(n, Math.min(sizes.get(n) as number, Math.max(1, Math.floor(quota.get(n) as number))))
  let sum = names.reduce((s, n) => s + (out.get(n) as number), 0)
  const gap = (n: string): number => (quota.get(n) as number) - (out.get(n) as number)
  while (sum < count) {
    const open = names.filter(n => (out.get(n) as number) < (sizes.get(n) as number))
    const next = open.reduce((best, n) => (gap(n) > gap(best) ? n : best), open[0])
    out.set(next, (out.get(next) as number) + 1)
    sum++
  }
  while (sum > count) {
    // The floor of one each overshot: take back from the strata most over their share.
    const over = names.filter(n => (out.get(n) as number) > 1)
    const next = over.reduce((best, n) => (gap(n) < gap(best) ? n : best), over[0])
    out.set(next, (out.get(next) as number) - 1)
    sum--
  }
  return out
}

/** `take` of `items` chosen by a seeded shuffle of the stratum's own stream, in their original order. */
export function pick<T>(items: readonly T[], take: number, seed: number, stratum: string): T[] {
  if (take >= items.length) return [...items]
  const random = createRandom(seed, `traffic:${stratum}`)
  const order = items.map((_, i) => i)
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.below(i + 1)
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  return order
    .slice(0, take)
    .sort((a, b) => a - b)
    .map(i => items[i])
}
