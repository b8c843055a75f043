/**
 * The measurements a gate takes, in the order they run while the sides are up and join the report
 * (src/model/measurement.ts): the quality half (helm-run or the runner command on each side; its
 * output folders are what the others are given), the traffic replay, token-level fidelity, then
 * the load half (the performance half runs after the others, never at the same time:
 * docs/load.md). A new measurement is a folder of its own and one line here: its definition in
 * MEASUREMENT_DEFINITIONS (measurement-definitions.ts: its section, plan lines) and its run in
 * measurementsFor (docs/development.md "Adding a measurement").
 */
import type { GateConfig } from '../config/types.js'
import { fidelityRunFor } from '../fidelity/run-fidelity.js'
import { loadMeasurementFor, type LoadHalf } from '../launch/load-measurement.js'
import type { SideMeasurement } from '../model/measurement.js'
import type { MeasurementInputs } from '../plan/measurement-inputs.js'
import { trafficReplayFor } from '../replay/run-traffic.js'

/** What runGate gives the measurements: what every measurement is given, plus what the pipeline adds. */
export interface MeasurementSettings extends MeasurementInputs {
  /** false: a shard or a baseline-only run, which only runs and records: nothing is measured. */
  compare: boolean
  /** The load half's way of running, or null when it does not run. */
  load: LoadHalf | null
  /** The quality half on the sides run here (src/runner/run-sides.ts); none when every side is given. */
  quality?: SideMeasurement | null
}

export function measurementsFor(config: GateConfig, s: MeasurementSettings): SideMeasurement[] {
  const { compare, env, progress, plan } = s
  const measurements: (SideMeasurement | null)[] = [
    s.quality ?? null,
    trafficReplayFor(config, compare, s),
    fidelityRunFor(config, compare, { env, progress, endpoints: plan.endpoints }),
    loadMeasurementFor(config, compare ? s.load : null, s)
  ]
  return measurements.filter((m): m is SideMeasurement => m !== null)
}
