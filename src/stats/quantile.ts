/** Sample quantiles, one definition everywhere so intervals and medians are reproducible. */
import { UsageError } from '../errors.js'
import { ceil, floor, isInteger, min } from './math.js'

/**
 * Hyndman & Fan type 7 (linear interpolation between order statistics; R's and NumPy's default)
 * on an ascending array.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length
  if (n === 0) return NaN
  const h = (n - 1) * q
  const below = floor(h)
  const above = min(below + 1, n - 1)
  const fraction = h - below
  const a = sorted[below]
  const b = sorted[above]
  // a === b also covers two equal infinities, where a + 0 * (b - a) would be NaN.
  return fraction === 0 || a === b ? a : a + fraction * (b - a)
}

export function quantile(values: readonly number[], q: number): number {
  return quantileSorted(Float64Array.from(values).sort(), q)
}

/** The central `confidence` interval of a bootstrap sample (sorted in place). */
export function percentileInterval(samples: Float64Array, confidence: number): [number, number] {
  samples.sort()
  const tail = (1 - confidence) / 2
  return [quantileSorted(samples, tail), quantileSorted(samples, 1 - tail)]
}

export function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) {
    throw new UsageError('stats.bad_confidence', 'The confidence level must lie strictly between 0 and 1.', {
      field: 'statistics.confidence',
      value: confidence
    })
  }
}

/**
 * A percentile interval needs at least one resample in each tail, or its bounds are just the
 * extreme resamples (with resamples = 1 the interval would have zero width and could pass).
 */
export function checkResamples(resamples: number, confidence: number): void {
  const minimum = ceil(2 / (1 - confidence))
  if (!isInteger(resamples) || resamples < minimum) {
    throw new UsageError(
      'stats.too_few_resamples',
      `The bootstrap needs an integer number of resamples of at least ${minimum} at confidence ${confidence}.`,
      { field: 'statistics.resamples', value: resamples }
    )
  }
}
