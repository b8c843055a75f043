import { describe, expect, it } from '@jest/globals'
import { clusterBootstrap } from '../../src/stats/bootstrap.js'
import { createRandom } from '../../src/stats/random.js'

/** Mean and standard deviation of the resampled means. */
function moments(samples: Float64Array): { mean: number; sd: number } {
  let sum = 0
  for (const x of samples) sum += x
  const mean = sum / samples.length
  let ss = 0
  for (const x of samples) ss += (x - mean) ** 2
  return { mean, sd: Math.sqrt(ss / (samples.length - 1)) }
}

describe('clusterBootstrap index paths', () => {
  // With sums[k] = k, a resample's mean is the mean of n uniform indices: its expectation is
  // (n - 1) / 2 and its sd is sqrt((n^2 - 1) / 12 / n). A biased index draw (plain modulo
  // over-weights low indices) shifts the mean by many standard errors.
  it.each([
    ['two indices per 32-bit draw (n <= 65536)', 5000, 2000],
    ['one index per draw (n > 65536)', 70000, 200]
  ])('draws every index equally often: %s', (_path, n, resamples) => {
    const sums = Float64Array.from({ length: n }, (_, k) => k)
    const { mean, sd } = moments(clusterBootstrap(sums, null, 1, resamples, createRandom(11, 'paths')))
    const expectedSd = Math.sqrt((n * n - 1) / 12 / n)
    expect(Math.abs(mean - (n - 1) / 2)).toBeLessThan((4 * expectedSd) / Math.sqrt(resamples))
    expect(sd / expectedSd).toBeGreaterThan(0.85)
    expect(sd / expectedSd).toBeLessThan(1.15)
  })

  it('weights clusters of unequal size by their pairs on both paths', () => {
    for (const n of [300, 70000]) {
      // Half the clusters have 3 trials with d = 1 each (sum 3), half 1 trial with d = 0.
      const sums = Float64Array.from({ length: n }, (_, k) => (k % 2 === 0 ? 3 : 0))
      const sizes = Float64Array.from({ length: n }, (_, k) => (k % 2 === 0 ? 3 : 1))
      const { mean } = moments(clusterBootstrap(sums, sizes, 0, n > 65536 ? 50 : 2000, createRandom(5)))
      expect(mean).toBeCloseTo(0.75, 2)
    }
  })

  it('is deterministic for a seed', () => {
    const sums = Float64Array.from({ length: 999 }, (_, k) => Math.sin(k))
    const a = clusterBootstrap(sums, null, 1, 300, createRandom(3))
    const b = clusterBootstrap(sums, null, 1, 300, createRandom(3))
    expect(Array.from(a)).toEqual(Array.from(b))
  })
})
