/** Shared builders for the statistics tests (not a test file: jest matches *.test.ts only). */
import type { PairedCluster, StatisticsSettings } from '../../src/stats/types.js'

export function settings(overrides: Partial<StatisticsSettings> = {}): StatisticsSettings {
  return {
    confidence: 0.95,
    resamples: 10000,
    seed: 0,
    minOverlap: 0.95,
    interval: 'auto',
    flipTolerance: 1e-9,
    ...overrides
  }
}

const BOTH: PairedCluster = { baseline: [1], candidate: [1] }
const WIN: PairedCluster = { baseline: [0], candidate: [1] }
const LOSS: PairedCluster = { baseline: [1], candidate: [0] }
const NEITHER: PairedCluster = { baseline: [0], candidate: [0] }

/** Single-trial 0/1 clusters with the given 2x2 counts (shared objects: read-only use). */
export function binaryClusters(both: number, wins: number, losses: number, neither: number): PairedCluster[] {
  const out: PairedCluster[] = []
  for (let i = 0; i < both; i++) out.push(BOTH)
  for (let i = 0; i < wins; i++) out.push(WIN)
  for (let i = 0; i < losses; i++) out.push(LOSS)
  for (let i = 0; i < neither; i++) out.push(NEITHER)
  return out
}

export function singleTrial(baseline: number[], candidate: number[]): PairedCluster[] {
  return baseline.map((b, i) => ({ baseline: [b], candidate: [candidate[i]] }))
}

export function mean(values: ArrayLike<number>): number {
  let total = 0
  for (let i = 0; i < values.length; i++) total += values[i]
  return total / values.length
}

export function sampleSd(values: ArrayLike<number>): number {
  const m = mean(values)
  let squares = 0
  for (let i = 0; i < values.length; i++) squares += (values[i] - m) ** 2
  return Math.sqrt(squares / (values.length - 1))
}

/** Standard normal density. */
export function normalDensity(x: number): number {
  return Math.exp(-(x * x) / 2) / Math.sqrt(2 * Math.PI)
}

/**
 * Standard deviation of the difference between the `tail` quantile of two independent bootstraps of
 * `resamples` draws each, for a roughly normal bootstrap distribution with standard deviation
 * `spread`: sqrt(2) * sqrt(tail (1 - tail) / B) / density at that quantile.
 */
export function quantileDifferenceSd(tail: number, z: number, resamples: number, spread: number): number {
  return (Math.SQRT2 * Math.sqrt((tail * (1 - tail)) / resamples) * spread) / normalDensity(z)
}
