/**
 * What every measurement is given (src/model/measurement.ts), built once by runGate (and by `plan`,
 * to name the measurements) and handed to each measurement's `...For` in
 * src/pipeline/measurements.ts. A measurement's options are this type, or a `Pick` of the fields it
 * reads plus its own, never a list of the same fields again: a new measurement takes
 * `Pick<MeasurementInputs, ...>` and measurementsFor passes it the one object (docs/development.md
 * "Adding a measurement"). It lives beside the run plan, not in model/ with the measurement
 * interface, because `plan` is the plan's sides and model/ is below plan/.
 */
import type { Side } from '../model/verdict.js'
import type { PlannedSides } from './run-plan.js'

export interface MeasurementInputs {
  /** The output folder: each measurement's files, and a launched server's `logs/<side>-server.log`. */
  outDir: string
  /** Where relative paths resolve (a relative `outDir`, a launched server's command). */
  cwd: string
  /** The environment the keys are read from and launched servers start with. */
  env: NodeJS.ProcessEnv
  /** Short progress lines (the CLI's stderr, the action's job log). */
  progress: (line: string) => void
  /** The commit `checkout: base` launches (`--baseline-ref`); null when none was given. */
  baseRef: string | null
  /** One side after the other whatever the gate file says (`--sequential`). */
  sequential?: boolean
  /** The sides this invocation runs; the others are given (an archived baseline, merged shards). */
  toRun: readonly Side[]
  /** The run plan's sides (src/plan/run-plan.ts): each side's endpoint and key, the key names, the values to mask. */
  plan: PlannedSides
}
