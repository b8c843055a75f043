/**
 * Each measurement's definition (model/measurement-part.ts): its gate-file section and its `plan`
 * lines, in the order the measurements run. Kept apart from measurements.ts, which makes their
 * runs, so that what only loads a gate file (`compare`, `load`, `power`) does not load every
 * measurement's client, launcher and load generator: a definition's plan lines are imported when
 * `plan` asks for them (docs/benchmarks.md "Against the previous release").
 */
import type { GateSection } from '../config/sections.js'
import type { GateConfig } from '../config/types.js'
import { FIDELITY } from '../fidelity/fidelity-definition.js'
import type { MeasurementDefinition, PlanContext } from '../model/measurement-part.js'
import { TRAFFIC } from '../replay/traffic-definition.js'

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
