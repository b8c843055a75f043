/**
 * The decision line names fidelity when its checks decide (docs/fidelity.md): the checks are
 * decided by the real fidelity statistics on simulated per-instance values, the verdict is joined
 * as the pipeline joins it (fidelity's worst check into the quality half), and with a load half by
 * the real attachLoad.
 */
import { describe, expect, test } from '@jest/globals'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import { decideFidelityCheck, type InstanceScores } from '../../src/fidelity/fidelity-stats.js'
import type { InstanceFidelity } from '../../src/fidelity/token-metrics.js'
import { attachLoad } from '../../src/load/combine.js'
import type { FidelityReport } from '../../src/model/fidelity-report.js'
import type { Report, Verdict } from '../../src/model/report.js'
import { decide } from '../../src/report/decision.js'
import { sampleLoad } from './markdown-load.test.js'
import { makeComparison, makeReport } from './make-report.js'

const settings = { ...DEFAULT_STATISTICS, resamples: 2000 }

function rows(kl: number, n = 60): InstanceScores[] {
  return Array.from({ length: n }, (_, i) => {
    const candidate: InstanceFidelity = {
      positions: 10,
      top1Agreement: 1,
      klMean: kl * (0.5 + (i % 5) / 4),
      klMax: kl * 2,
      deltaPMean: 0,
      restMassMean: 0,
      firstDivergence: null
    }
    return { id: `i${i}`, candidate, floor: null, baselineTokens: 10, candidateTokens: 10, rerunTokens: null }
  })
}

function fidelityPart(kl: number): FidelityReport {
  return {
    route: 'llamacpp-forced-grammar',
    teacherForced: true,
    topK: 20,
    instances: 60,
    positions: 600,
    restMassMean: 0,
    floorMeasured: false,
    figures: [],
    checks: [decideFidelityCheck({ metric: 'kld_mean', bound: 'max', value: 0.02 }, rows(kl), settings)],
    worst: [],
    cost: [],
    notes: []
  }
}

const ORDER: Verdict[] = ['pass', 'inconclusive', 'fail', 'error']

/** The quality report with fidelity attached as FidelityRun.attach joins it: the worse verdict wins. */
function withFidelity(quality: Report, fidelity: FidelityReport): Report {
  const own = fidelity.checks.reduce<Verdict>((w, c) => (ORDER.indexOf(c.verdict) > ORDER.indexOf(w) ? c.verdict : w), 'pass')
  const verdict = ORDER.indexOf(own) > ORDER.indexOf(quality.verdict) ? own : quality.verdict
  return { ...quality, verdict, fidelity }
}

const passing = (): Report => makeReport({ verdict: 'pass', comparisons: [makeComparison({ run: 'a' }), makeComparison({ run: 'b' })] })

describe('decide with fidelity', () => {
  test('a failed fidelity check decides: the line names fidelity first with its figure and bound', () => {
    const report = withFidelity(passing(), fidelityPart(0.05))
    expect(report.fidelity!.checks[0].verdict).toBe('fail')
    const d = decide(report)
    expect(d.verdict).toBe('fail')
    expect(d.line).toMatch(/^Fail: fidelity \(kld_mean 0\.05\d* \[0\.0\d+, 0\.0\d+\], needs ≤ 0\.02\); 2\/2 gated passed$/)
  })

  test('a passing fidelity section follows the quality counts', () => {
    const d = decide(withFidelity(passing(), fidelityPart(0.001)))
    expect(d.line).toBe('Pass: 2/2 gated passed; fidelity 1/1 checks passed')
  })

  test('when a quality comparison fails, it decides and fidelity says its own verdict after it', () => {
    const failing = makeReport({ verdict: 'fail', comparisons: [makeComparison({ run: 'a', verdict: 'fail' })] })
    const d = decide(withFidelity(failing, fidelityPart(0.05)))
    expect(d.line).toMatch(/^Fail: 0\/1 gated passed, 1 failed; fidelity fail \(kld_mean /)
  })

  test('with a load half, fidelity deciding the quality half is named in the quality part', () => {
    const load = sampleLoad({ verdict: 'pass', checks: [] })
    const d = decide(attachLoad(withFidelity(passing(), fidelityPart(0.05)), load))
    expect(d.decidedBy).toBe('quality')
    expect(d.line).toMatch(/^Fail: fidelity \(kld_mean .*needs ≤ 0\.02\); quality 2\/2 passed; performance /)
  })
})
