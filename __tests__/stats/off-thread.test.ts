/**
 * The information-only intervals (efficiency ratios of quantiles, the answer-length ratio of
 * means) on worker threads: the same figures and the same expected errors as in process, and a
 * worker that cannot start costs the overlap, never the result.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GuardError } from '../../src/errors.js'
import { ratioOfMeans } from '../../src/stats/mean-ratio.js'
import { ratioOfMeansOffThread, ratiosOfQuantilesOffThread, workerPath, WORKER_FILE } from '../../src/stats/off-thread.js'
import { ratiosOfQuantiles } from '../../src/stats/ratio.js'
import type { StatisticsSettings } from '../../src/stats/types.js'

// The committed bundle's worker (check-dist keeps it equal to the sources).
const BUNDLED_WORKER = fileURLToPath(new URL(`../../dist/${WORKER_FILE}`, import.meta.url))
const settings = { confidence: 0.95, resamples: 2000, seed: 3 } as StatisticsSettings

function times(n: number, seed: number, scale = 1): number[] {
  let s = seed
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return (0.05 + (s / 2 ** 32) * 2) * scale
  })
}

describe('ratiosOfQuantilesOffThread', () => {
  const baseline = times(400, 1)
  const candidate = times(400, 2, 1.2)

  it('gives, from the bundled worker, exactly the in-process estimates', async () => {
    const expected = ratiosOfQuantiles(baseline, candidate, [0.5, 0.9], settings)
    const [fromWorker, again] = await Promise.all([
      ratiosOfQuantilesOffThread(baseline, candidate, [0.5, 0.9], settings, BUNDLED_WORKER),
      ratiosOfQuantilesOffThread(baseline, candidate, [0.5, 0.9], settings, BUNDLED_WORKER)
    ])
    expect(fromWorker).toEqual(expected)
    expect(again).toEqual(expected)
    expect(fromWorker[0].low).toBeLessThan(fromWorker[0].high)
  })

  it('rejects with the same GuardError the in-process call throws', async () => {
    const zeros = baseline.map(() => 0)
    const call = ratiosOfQuantilesOffThread(zeros, candidate, [0.5], settings, BUNDLED_WORKER)
    await expect(call).rejects.toBeInstanceOf(GuardError)
    await expect(call).rejects.toMatchObject({ code: 'stats.ratio_zero_baseline' })
  })

  it('computes in process when the worker file cannot start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'helm-gate-worker-'))
    const broken = join(dir, 'broken-worker.mjs')
    writeFileSync(broken, 'throw new Error("this worker does not start")\n')
    const expected = ratiosOfQuantiles(baseline, candidate, [0.5], settings)
    await expect(ratiosOfQuantilesOffThread(baseline, candidate, [0.5], settings, broken)).resolves.toEqual(expected)
  })

  it('finds no worker beside the TypeScript sources, and finds the bundled one beside dist/', () => {
    expect(workerPath(new URL('../../src/stats/off-thread.ts', import.meta.url).href)).toBeNull()
    expect(workerPath(new URL('../../dist/cli.js', import.meta.url).href)).toBe(BUNDLED_WORKER)
  })
})

describe('ratioOfMeansOffThread', () => {
  const baseline = times(300, 5, 40).map(Math.round)
  const candidate = times(300, 6, 48).map(Math.round)

  it('gives, from the bundled worker, exactly the in-process estimate, beside a quantile task on the pool', async () => {
    const expected = ratioOfMeans(baseline, candidate, settings)
    // Both tasks at once: the pool gives them to two workers (or queues them on one core).
    const [lengths, quantiles] = await Promise.all([
      ratioOfMeansOffThread(baseline, candidate, settings, BUNDLED_WORKER),
      ratiosOfQuantilesOffThread(baseline, candidate, [0.5], settings, BUNDLED_WORKER)
    ])
    expect(lengths).toEqual(expected)
    expect(lengths.low).toBeLessThan(lengths.estimate)
    expect(lengths.high).toBeGreaterThan(lengths.estimate)
    expect(quantiles).toEqual(ratiosOfQuantiles(baseline, candidate, [0.5], settings))
  })

  it('rejects with the same GuardError the in-process call throws', async () => {
    const call = ratioOfMeansOffThread(
      baseline.map(() => 0),
      candidate,
      settings,
      BUNDLED_WORKER
    )
    await expect(call).rejects.toBeInstanceOf(GuardError)
    await expect(call).rejects.toMatchObject({ code: 'stats.ratio_zero_baseline' })
  })
})
