/**
 * scripts/seam-counts.mjs on this tree: the numbers docs/development.md shows ("Where the sides
 * are held"), and the seam they guard: one file brings launched sides up, the schedule is resolved
 * once, nothing hands the holder a callback (the quality half is a measurement like the others,
 * listed first), only the run plan looks
 * API keys up, builds the sides' endpoints and computes the fingerprint; one builder makes every
 * comparison row and the comparison imports nothing of one harness.
 */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'

const SCRIPT = join(REPO_ROOT, 'scripts', 'seam-counts.mjs')

describe('seam-counts', () => {
  it('finds one holder of the sides, one schedule resolution and the counts the development guide shows', async () => {
    const result = await run(process.execPath, [SCRIPT, REPO_ROOT], { cwd: REPO_ROOT })
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
    const lines = result.stdout.trim().split('\n')
    expect(lines).toContain('bring a launched side up (Launcher#up): 3 in 1 files (src/launch/side-holder.ts)')
    expect(lines).toContain('resolve the schedule (launch.schedule read): 1 in 1 files (src/plan/run-plan.ts)')
    // The comparison's seam: one row builder, and compare.ts imports nothing of one harness.
    expect(lines).toContain('comparison rows built ({ ci, n_needed, max_drop } literals): 1 in 1 files (src/gate/comparison-row.ts)')
    expect(lines).toContain('harness-specific imports of gate/compare.ts: 0 ()')
    // The run plan is what runs: keys looked up, endpoints built and the fingerprint computed there alone.
    expect(lines.find(line => line.startsWith('API key lookups'))).toMatch(/^API key lookups: \d+ in 1 files \(src\/plan\/run-plan\.ts\)$/)
    expect(lines).toContain('endpoint rebuilds ({ baseUrl, model } outside config/): 1 in 1 files (src/plan/run-plan.ts)')
    expect(lines).toContain('fingerprint computed (gateFingerprint called): 1 in 1 files (src/plan/run-plan.ts)')
    // The holder calls the quality half through the measurement interface (the one climb), never a callback.
    expect(lines.find(line => line.startsWith('runGate to either'))).toMatch(
      /^runGate to either: \d+ stops, 1 climbs, 0 callbacks handed down/
    )
    expect(lines).toContain('callbacks holdOnSchedule takes: 0 ()')
    expect(lines.find(line => line.startsWith('measurements implementing SideMeasurement'))).toContain(
      'src/runner/run-sides.ts:QualityMeasurement'
    )
    expect(lines.find(line => line.startsWith('measurements listed in pipeline/measurements.ts'))).toMatch(
      /^measurements listed in pipeline\/measurements\.ts: 4 \(s\.quality \?\? null, trafficReplayFor, fidelityRunFor, loadMeasurementFor\)$/
    )
    // A measurement's slice: the renderers, the decision line and plan loop over the parts and name no measurement.
    const fidelity = lines.find(line => line.startsWith('files outside its folder naming fidelity')) ?? ''
    expect(fidelity).toMatch(/^files outside its folder naming fidelity: \d+ in \d+ files \(/)
    for (const file of ['src/report/decision.ts', 'src/report/markdown.ts', 'src/report/html-client.ts', 'src/cli/commands/plan.ts'])
      expect(fidelity).not.toContain(file)
    expect(fidelity).toContain('src/pipeline/measurements.ts')
  }, 180_000)
})
