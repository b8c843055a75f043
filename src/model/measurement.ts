/**
 * A measurement taken while a gate's sides are up: the quality half (helm-run or the runner
 * command per side, src/runner/run-sides.ts) first, then the traffic replay, token-level fidelity,
 * the load half. The one holder of the sides (src/launch/side-holder.ts) calls `hold` while the
 * sides are up; runGate (src/pipeline/run-gate.ts) calls `holdAlwaysUp` for servers no launch
 * brings up, then `attach`, which returns the report with the measurement's own part joined. The measurements a gate takes are listed in one place
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
   * true: held on every side of the schedule as it comes up, servers always up included (the
   * quality half, which makes the output folders the others are given). Otherwise held only while
   * a launched side is up, and servers that are always up come in `holdAlwaysUp`.
   */
  readonly everySide?: boolean
  /**
   * While sides are up, before they are stopped: `up` are the sides up at that moment (the
   * launched ones held, plus those always up; with `everySide`, the sides just brought up);
   * `outputs` the HELM output folders of the sides on the schedule.
   */
  hold(up: Side[], outputs: Partial<Record<Side, string>>): Promise<void>
  /** After the quality half: the sides no launch brings up are servers that are always up. */
  holdAlwaysUp(outputs: Record<Side, string>): Promise<void>
  /** The report with this measurement's own part joined (its rows, errors, notes, verdict). */
  attach(report: Report, context: MeasurementContext): Report | Promise<Report>
}
