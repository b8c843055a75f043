/**
 * A measurement taken while a gate's sides are up, beside the quality half: the traffic replay,
 * token-level fidelity, the load half. The one holder of the sides (src/launch/side-holder.ts)
 * calls `hold` while launched sides are up; runGate (src/pipeline/run-gate.ts) calls
 * `holdAlwaysUp` for servers no launch brings up, then `attach`, which returns the report with the
 * measurement's own part joined. The measurements a gate takes are listed in one place
 * (src/pipeline/measurements.ts): adding one is a folder of its own and a line there.
 */
import type { ChangedExample, Report } from './report.js'
import type { Side } from './verdict.js'

export interface MeasurementContext {
  /** Each side's HELM output directory (absolute), run here or given. */
  paths: Record<Side, string>
  /** Receives every changed answer per comparison, for report.html. */
  changedAnswers?: Map<string, ChangedExample[]>
  /** How many changed examples a comparison row shows. */
  examples?: number
}

export interface SideMeasurement {
  /** What it measures, as `plan` lists the measurements in the order they run. */
  readonly name: string
  /**
   * While launched sides are up, before they are stopped: `up` are the sides up at that moment
   * (the launched ones held, plus those always up); `outputs` their HELM output folders.
   */
  hold(up: Side[], outputs: Partial<Record<Side, string>>): Promise<void>
  /** After the quality half: the sides no launch brings up are servers that are always up. */
  holdAlwaysUp(outputs: Record<Side, string>): Promise<void>
  /** The report with this measurement's own part joined (its rows, errors, notes, verdict). */
  attach(report: Report, context: MeasurementContext): Report | Promise<Report>
}
