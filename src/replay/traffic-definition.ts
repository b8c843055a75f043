/**
 * The traffic replay's slice as the lists see it (model/measurement-part.ts): its key and its
 * `plan` lines. Its section is still read by config/load.ts (the fidelity and load sections read
 * the traffic set too); its running is TrafficReplay (run-traffic.ts).
 */
import type { MeasurementDefinition } from '../model/measurement-part.js'

export const TRAFFIC: MeasurementDefinition = {
  key: 'traffic',
  async planLines(config) {
    if (!config.traffic) return []
    // Imported when `plan` asks (as fidelity's): config loading reads this definition for every command.
    const { trafficPlanLines } = await import('./traffic-plan-lines.js')
    return trafficPlanLines(config.traffic, config.statistics.confidence)
  }
}
