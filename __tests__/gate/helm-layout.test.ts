import { describe, expect, it } from '@jest/globals'
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunDefaults } from '../../src/model/harness.js'
import { cliConfig, comparer, errorCodes } from './compare-helpers.js'
import { copyToTemp, editJson } from '../support/fixture-copy.js'
import { BASELINE_SUITE, FLEX_BASELINE_SUITE, FLEX_DEGRADED_SUITE, FLEX_EQUIVALENT_SUITE, REASONING_RUN } from '../helm/read/fixtures.js'

const defaults: RunDefaults = {
  metric: 'exact_match',
  split: 'test',
  maxDrop: 0.1,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
}
const compare = comparer(cliConfig(2000), defaults)
const FLEX_RUN = 'synthetic_reasoning_mode=pattern_match,model=simple_model1'
const warningCodes = (report: { warnings: { code: string }[] }): string[] => report.warnings.map(w => w.code)

describe('compareOutputs on real crfm-helm 0.2.1 runs written the way FlexLLMGen writes them', () => {
  it('passes an equivalent candidate and names every guard 0.2.x output cannot support', async () => {
    const report = await compare(FLEX_BASELINE_SUITE, FLEX_EQUIVALENT_SUITE)
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('pass')
    expect(report.comparisons[0].n).toBeGreaterThanOrEqual(20)
    expect(warningCodes(report)).toEqual(
      expect.arrayContaining(['helm_0_2.cache_unverified', 'helm_0_2.no_request_times', 'helm_0_2.model_unverified', 'sides.same_content'])
    )
    const sameContent = report.warnings.find(w => w.code === 'sides.same_content')
    expect(sameContent?.message).toMatch(/record no request times/)
    const model = report.warnings.find(w => w.code === 'helm_0_2.model_unverified')
    expect(model?.value).toBe('"simple/model1"')
    // No request times: no efficiency figures, and the warning says why.
    expect(report.efficiency).toEqual([])
  })

  it('refuses a 0.2.1 run whose instance references changed on one side (answer-key drift)', async () => {
    const cand = copyToTemp(FLEX_BASELINE_SUITE)
    editJson<{ request_states: { instance: { references: { output: { text: string } }[] } }[] }>(
      join(cand, FLEX_RUN, 'scenario_state.json'),
      s => void (s.request_states[0].instance.references[0].output.text = 'X = + * kiwi')
    )
    const report = await compare(FLEX_BASELINE_SUITE, cand)
    expect(report.verdict).toBe('error')
    expect(errorCodes(report)).toEqual(['guard.answer_key_drift'])
    expect(report.errors[0].message).toContain('instance id10394')
    expect(report.errors[0].message).toContain('correct answer baseline "X = + * X", candidate "X = + * kiwi"')
  })

  it("compares FlexLLMGen's working folders (runs/<run>/) as given, one suite per side", async () => {
    // What FlexLLMGen leaves in the folder it ran in: runs/<run name>/ (its --run-path).
    const working = (suite: string): string => {
      const folder = mkdtempSync(join(tmpdir(), 'helm-gate-flexllmgen-'))
      cpSync(join(suite, FLEX_RUN), join(folder, 'runs', FLEX_RUN), { recursive: true })
      return folder
    }
    const report = await compare(working(FLEX_BASELINE_SUITE), working(FLEX_DEGRADED_SUITE))
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('fail')
    expect(report.comparisons[0].run).toBe((await compare(FLEX_BASELINE_SUITE, FLEX_DEGRADED_SUITE)).comparisons[0].run)
  })

  it('fails a degraded candidate', async () => {
    const report = await compare(FLEX_BASELINE_SUITE, FLEX_DEGRADED_SUITE)
    expect(report.errors).toEqual([])
    expect(report.verdict).toBe('fail')
    expect(report.comparisons[0].delta).toBeLessThan(-0.2)
    expect(report.comparisons[0].losses).toBeGreaterThan(0)
    expect(report.comparisons[0].wins).toBe(0)
  })

  it('refuses a 0.2.x side against a 0.5.16 side as version drift, whichever side is older', async () => {
    const modern = join(BASELINE_SUITE, REASONING_RUN)
    for (const [b, c] of [
      [modern, FLEX_BASELINE_SUITE],
      [FLEX_BASELINE_SUITE, modern]
    ]) {
      const report = await compare(b, c)
      expect(report.verdict).toBe('error')
      expect(errorCodes(report)).toEqual(['guard.helm_version_drift'])
      expect(report.errors[0].message).toMatch(/HELM 0\.2\.x output .*HELM 0\.4 or later|HELM 0\.4 or later output .*HELM 0\.2\.x/)
      expect(report.comparisons).toEqual([])
    }
  })

  it('gives no 0.2.x warnings when both sides are 0.5.16', async () => {
    const report = await compare(join(BASELINE_SUITE, REASONING_RUN), join(BASELINE_SUITE, REASONING_RUN))
    expect(warningCodes(report).filter(c => c.startsWith('helm_0_2.'))).toEqual([])
  })
})
