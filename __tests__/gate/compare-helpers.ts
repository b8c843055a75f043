/** compareOutputs as the plain CLI calls it (no gate file), with test-sized statistics. */
import { copyToTemp } from '../support/fixture-copy.js'
import { DEFAULT_STATISTICS, type GateConfig } from '../../src/config/types.js'
import { compareOutputs } from '../../src/gate/compare.js'
import type { RunDefaults } from '../../src/model/harness.js'
import type { Report } from '../../src/model/report.js'

export function cliConfig(resamples: number): GateConfig {
  return {
    version: 1,
    source: '(test)',
    helm: null,
    deployments: null,
    runs: [],
    statistics: { ...DEFAULT_STATISTICS, resamples }
  }
}

export function comparer(config: GateConfig, defaults: RunDefaults) {
  return (b: string, c: string, d: Partial<RunDefaults> = {}, cfg: GateConfig = config): Promise<Report> =>
    compareOutputs(b, c, cfg, { defaults: { ...defaults, ...d } })
}

export const errorCodes = (report: Report): string[] => report.errors.map(e => e.code)

const twins = new Map<string, string>()

/**
 * A copy of a fixture suite in a temporary directory: the same evidence as another file would be
 * refused (sides.same_file), so a run compared with itself reads its twin on the candidate side.
 */
export function twin(suite: string): string {
  let copy = twins.get(suite)
  if (!copy) twins.set(suite, (copy = copyToTemp(suite)))
  return copy
}
