import { describe, expect, it } from '@jest/globals'
import type { GateConfig, GatedRun } from '../../src/config/types.js'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import type { Comparison, Report } from '../../src/model/report.js'
import { applyStoppedChecks } from '../../src/runner/staged-quality.js'
import type { StoppedCheck } from '../../src/sequential/staged-gate.js'

const RUN: GatedRun = {
  entry: 'simple_mcqa',
  match: null,
  metric: 'exact_match',
  split: null,
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
}
const CONFIG: GateConfig = { version: 1, source: 'gate.yml', helm: null, deployments: null, runs: [RUN], statistics: DEFAULT_STATISTICS }

const row = (over: Partial<Comparison>): Comparison =>
  ({
    entry: 'simple_mcqa',
    metric: 'exact_match',
    perturbation: null,
    gated: true,
    verdict: 'pass',
    reason: 'The interval clears.',
    ...over
  }) as Comparison

function report(comparisons: Comparison[]): Report {
  return { verdict: 'pass', headline: 'h', errors: [], warnings: [], comparisons } as unknown as Report
}

const STOP: StoppedCheck = {
  key: 'runs[0]',
  entry: 'simple_mcqa',
  metric: 'exact_match',
  decision: 'inconclusive',
  certain: false,
  stoppedAt: 79,
  budget: 79,
  looks: [{ n: 79, low: -0.1, high: 0.05, decision: 'inconclusive' }],
  requestsSpent: 158,
  requestsFixed: 158
}

describe('applyStoppedChecks', () => {
  it("gives the gated clean row the sequence's decision, never the fixed interval's, and the verdict follows", () => {
    const clean = row({})
    const perturbed = row({ perturbation: 'typos', gated: false })
    const out = applyStoppedChecks(report([clean, perturbed]), CONFIG, [STOP])
    expect(clean.verdict).toBe('inconclusive')
    expect(clean.sequential).toEqual({
      stopped_at: 79,
      budget: 79,
      decision: 'inconclusive',
      certain: false,
      looks: STOP.looks,
      requests_spent: 158,
      requests_fixed: 158
    })
    expect(perturbed.sequential).toBeUndefined()
    expect(out.verdict).toBe('inconclusive')
    expect(out.headline).toContain('inconclusive')
  })

  it('fails closed: a gated row that no stage decided is an error, never its fixed-n verdict', () => {
    const undecided = row({ verdict: 'pass' })
    const out = applyStoppedChecks(report([undecided]), CONFIG, [])
    expect(undecided.sequential).toBeUndefined()
    expect(out.errors.map(e => e.code)).toEqual(['sequential.row_undecided'])
    expect(out.verdict).toBe('error')
  })

  it('keeps an error verdict when the report has errors', () => {
    const failed = report([row({})])
    failed.errors.push({ code: 'sequential.stage_failed', message: 'stage 1 failed' })
    expect(applyStoppedChecks(failed, CONFIG, [{ ...STOP, decision: 'pass', certain: true }]).verdict).toBe('error')
  })
})
