/**
 * The measurements a gate takes, in the order they run while the sides are up and join the report
 * (src/model/measurement.ts): the quality half (helm-run or the runner command on each side; its
 * output folders are what the others are given), the traffic replay, token-level fidelity, then
 * the load half (the performance half runs after the others, never at the same time:
 * docs/load.md). A new measurement is a folder of its own and one line here: its definition in
 * MEASUREMENT_DEFINITIONS (its section, plan lines: model/measurement-part.ts) and its run in
 * measurementsFor (docs/development.md "Adding a measurement").
 */
import type { GateConfig } from '../config/types.js'
import { fidelityRunFor } from '../fidelity/run-fidelity.js'
import { loadMeasurementFor, type LoadHalf } from '../launch/load-measurement.js'
import type { SideMeasurement } from '../model/measurement.js'
import type { MeasurementDefinition, PlanContext } from '../model/measurement-part.js'
import type { GateSection } from '../config/sections.js'
import { FIDELITY } from '../fidelity/fidelity-definition.js'
import { TRAFFIC } from '../replay/traffic-definition.js'
import type { Side } from '../model/verdict.js'
import type { PlannedSides } from '../plan/run-plan.js'
import { trafficReplayFor } from '../replay/run-traffic.js'

export interface MeasurementSettings {
  /** false: a shard or a baseline-only run, which only runs and records: nothing is measured. */
  compare: boolean
  /** The load half's way of running, or null when it does not run. */
  load: LoadHalf | null
  outDir: string
  cwd: string
  env: NodeJS.ProcessEnv
  progress: (line: string) => void
  baseRef: string | null
  sequential?: boolean
  /** The sides the quality half runs here (the others are given). */
  toRun: readonly Side[]
  /** The run plan's sides: each measurement takes each side's endpoint and key from it. */
  plan: PlannedSides
  /** The quality half on the sides run here (src/runner/run-sides.ts); none when every side is given. */
  quality?: SideMeasurement | null
}

export function measurementsFor(config: GateConfig, s: MeasurementSettings): SideMeasurement[] {
  const { compare, outDir, env, progress, plan } = s
  const measurements: (SideMeasurement | null)[] = [
    s.quality ?? null,
    trafficReplayFor(config, compare, { outDir, env, progress, sides: plan }),
    fidelityRunFor(config, compare, { env, progress, endpoints: plan.endpoints }),
    loadMeasurementFor(config, compare ? s.load : null, { ...s, sides: plan })
  ]
  return measurements.filter((m): m is SideMeasurement => m !== null)
}

/**
 * Each measurement's definition, in the order they run: what config loading, `plan` and the
 * renderers loop over instead of naming measurements (they are handed this list; config/ and
 * report/ are below and may not import a measurement's folder).
 */
export const MEASUREMENT_DEFINITIONS: readonly MeasurementDefinition[] = [TRAFFIC, FIDELITY]

/**
 * The gate-file sections the list owns, for config loading (config/load.ts `sections`). Fidelity's
 * is still read by config/load.ts itself until every caller passes this list, so it is left out.
 */
export function gateSections(definitions: readonly MeasurementDefinition[] = MEASUREMENT_DEFINITIONS): GateSection[] {
  return definitions.flatMap(d => (d.section && d.key !== 'fidelity' ? [d.section] : []))
}

/** What `plan` prints for the measurements, each its own lines in the order they run. */
export async function measurementPlanLines(
  config: GateConfig,
  context: PlanContext,
  definitions: readonly MeasurementDefinition[] = MEASUREMENT_DEFINITIONS
): Promise<string[]> {
  const lines: string[] = []
  for (const definition of definitions) if (definition.planLines) lines.push(...(await definition.planLines(config, context)))
  return lines
}
