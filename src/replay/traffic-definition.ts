/**
 * The traffic replay's slice as the lists see it (model/measurement-part.ts): its key and its
 * `plan` lines. Its section is still read by config/load.ts (the fidelity and load sections read
 * the traffic set too); its running is TrafficReplay (run-traffic.ts).
 */
import type { MeasurementDefinition } from '../model/measurement-part.js'
import { trafficPlanLines } from './traffic-plan-lines.js'

export const TRAFFIC: MeasurementDefinition = {
  key: 'traffic',
  async planLines(config) {
    return config.traffic ? trafficPlanLines(config.traffic, config.statistics.confidence) : []
  }
}
