/**
 * Fidelity's whole slice as the lists see it (model/measurement-part.ts): its key, its gate-file
 * section and its `plan` lines. Its running is FidelityRun (run-fidelity.ts); its part of the
 * report is fidelity-part.ts, joined by `attach`.
 */
import { parseFidelityWithSides, type FidelitySettings } from '../config/fidelity.js'
import type { GateConfig } from '../config/types.js'
import type { MeasurementDefinition } from '../model/measurement-part.js'

/** The gate-file section's settings, wherever config loading put them (its own key, or the list's). */
export function fidelitySettingsOf(config: GateConfig): FidelitySettings | null {
  return config.fidelity ?? ((config.sections?.fidelity as FidelitySettings | undefined) || null)
}

export const FIDELITY: MeasurementDefinition = {
  key: 'fidelity',
  section: { key: 'fidelity', parse: (fields, context) => parseFidelityWithSides(fields, context.deployments) },
  async planLines(config, context) {
    const fidelity = fidelitySettingsOf(config)
    if (!fidelity) return []
    // Imported when `plan` asks: the route detection and the run plan behind them are more than
    // config loading, which reads this definition for every command, should load.
    const { fidelityPlanLines } = await import('./fidelity-plan-lines.js')
    return fidelityPlanLines({ ...config, fidelity }, context.env, undefined, context.endpoints)
  }
}
