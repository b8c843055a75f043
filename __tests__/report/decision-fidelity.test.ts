/**
 * The decision line names fidelity when its checks decide (docs/fidelity.md): the checks are
 * decided by the real fidelity statistics on simulated per-instance values, the part is joined
 * as the pipeline joins it (fidelity's own part beside the quality half, model/join-part.ts), and
 * with a load half by the real attachLoad as LoadMeasurement.attach calls it.
 */
import { describe, expect, test } from '@jest/globals'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import { decideFidelityCheck, type InstanceScores } from '../../src/fidelity/fidelity-stats.js'
import type { InstanceFidelity } from '../../src/fidelity/token-metrics.js'
import { attachLoad } from '../../src/load/combine.js'
import type { FidelityReport } from '../../src/model/fidelity-report.js'
import type { Report } from '../../src/model/report.js'
import { joinPart, qualityAlone, rejoinParts } from '../../src/model/join-part.js'
import { fidelityPart } from '../../src/fidelity/fidelity-part.js'
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

function fidelityReport(kl: number): FidelityReport {
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

/** The quality report with fidelity's part joined as FidelityRun.attach joins it. */
function withFidelity(quality: Report, fidelity: FidelityReport): Report {
  return joinPart(quality, fidelityPart(fidelity, []), { fidelity })
}

const passing = (): Report => makeReport({ verdict: 'pass', comparisons: [makeComparison({ run: 'a' }), makeComparison({ run: 'b' })] })

describe('decide with fidelity', () => {
  test('a failed fidelity check decides: the line names fidelity first with its figure and bound', () => {
    const report = withFidelity(passing(), fidelityReport(0.05))
    expect(report.fidelity!.checks[0].verdict).toBe('fail')
    const d = decide(report)
    expect(d.verdict).toBe('fail')
    expect(d.line).toMatch(/^Fail: fidelity \(kld_mean 0\.05\d* \[0\.0\d+, 0\.0\d+\], needs ≤ 0\.02\); quality 2\/2 passed$/)
    expect(d.decidedBy).toBe('fidelity')
    // report.json files fidelity's verdict under its own part, never under quality.
    expect(report.quality?.verdict).toBe('pass')
  })

  test('a passing fidelity part follows the quality half', () => {
    const d = decide(withFidelity(passing(), fidelityReport(0.001)))
    expect(d.line).toBe('Pass: quality 2/2 passed; fidelity 1/1 checks passed')
  })

  test('when a quality comparison fails, it decides and fidelity says its own verdict after it', () => {
    const failing = makeReport({ verdict: 'fail', comparisons: [makeComparison({ run: 'a', verdict: 'fail' })] })
    const d = decide(withFidelity(failing, fidelityReport(0.001)))
    expect(d.decidedBy).toBe('quality')
    expect(d.line).toMatch(/^Fail: quality 1\/1 failed \(a exact_match .*\); fidelity 1\/1 checks passed$/)
    // Both fail: both decide, quality first.
    const both = decide(withFidelity(failing, fidelityReport(0.05)))
    expect(both.decidedBy).toBe('both')
    expect(both.line).toMatch(/^Fail: quality 1\/1 failed \(.*\); fidelity \(kld_mean /)
  })

  test('with a load half, fidelity deciding is named as its own part', () => {
    const load = sampleLoad({ verdict: 'pass', checks: [] })
    const joined = withFidelity(passing(), fidelityReport(0.05))
    // As LoadMeasurement.attach joins it: the load half to the quality half alone, then the parts again.
    const report = rejoinParts(attachLoad(qualityAlone(joined), load), joined.parts ?? [])
    expect(report.verdict).toBe('fail')
    expect(report.quality?.verdict).toBe('pass')
    const d = decide(report)
    expect(d.decidedBy).toBe('fidelity')
    expect(d.line).toMatch(/^Fail: fidelity \(kld_mean .*needs ≤ 0\.02\); quality 2\/2 passed; performance /)
  })
})
