/**
 * The load half as a measurement (src/model/measurement.ts). Where it is measured is decided
 * here, once: a gate whose servers are launched and left both up by the quality half is measured
 * while they are up (`hold`, src/launch/load-while-up.ts); when the quality half did not leave
 * both up (an archived baseline, shards that ran in other jobs, launched sides up one at a time)
 * both are launched again for the load half alone (src/launch/launched-load.ts); servers that are
 * always up are measured after the quality half. `attach` joins its report to the quality half's.
 */
import type { GateConfig } from '../config/types.js'
import { attachLoad } from '../load/combine.js'
import { qualityAlone, rejoinParts } from '../model/join-part.js'
import { runLoadHalf } from '../load/run-half.js'
import type { LoadOutcome } from '../load/load-run.js'
import type { MeasurementContext, SideMeasurement } from '../model/measurement.js'
import type { Report } from '../model/report.js'
import type { Side } from '../model/verdict.js'
import type { MeasurementInputs } from '../plan/measurement-inputs.js'
import { runLaunchedLoad } from './launched-load.js'
import { launchesAny, LoadWhileUp } from './load-while-up.js'
import { holdsOneAtATime } from './side-holder.js'

/**
 * How the load half runs: the adapter's say (the action's job-log group and fork rule). Whether it
 * runs at all is the adapter's too (the gate file's `load:`, `--only`, the action's `load` input).
 */
export interface LoadHalf {
  /** Runs the load half under a heading of its own (the action's job-log group). */
  section?: <T>(run: () => Promise<T>) => Promise<T>
  /** Called before the servers are launched again for the load half alone: the action's fork rule. */
  beforeRelaunch?: () => void
}

/**
 * What the load half is given: every field of what each measurement is given. `toRun` says whether
 * the quality half leaves both launched sides up; `outDir` takes load-timings.jsonl, and the server
 * logs of a relaunch.
 */
export type LoadMeasurementOptions = MeasurementInputs

export class LoadMeasurement implements SideMeasurement {
  readonly name = 'the load half (both sides under load, blocks A B B A; docs/load.md)'
  /** Launched sides left both up by the quality half: measured while they are. */
  private readonly whileUp: LoadWhileUp | null

  constructor(
    private readonly config: GateConfig,
    private readonly half: LoadHalf,
    private readonly options: LoadMeasurementOptions
  ) {
    // Launched sides up one at a time are swapped between load blocks after the quality half
    // (src/launch/side-holder.ts): measuring each while it is up for helm-run would not interleave.
    const leftUp =
      launchesAny(config) &&
      !holdsOneAtATime(config, options.sequential) &&
      (['baseline', 'candidate'] as const).every(side => options.toRun.includes(side))
    this.whileUp = leftUp
      ? new LoadWhileUp(config, { env: options.env, progress: options.progress, endpoints: options.plan.endpoints })
      : null
  }

  async hold(up: Side[], outputs: Partial<Record<Side, string>>): Promise<void> {
    await this.whileUp?.hold(up, outputs)
  }

  /** Servers that are always up are measured in `attach`, after the quality half is compared. */
  async holdAlwaysUp(): Promise<void> {}

  /** The load half joined to the quality half's report: measured already, or measured now. */
  async attach(report: Report, context: MeasurementContext): Promise<Report> {
    const { config, options, whileUp } = this
    const { env, progress } = options
    // A launched gate whose quality half did not leave both servers up: launch them for the load half alone.
    const relaunch = !whileUp && launchesAny(config)
    if (relaunch) this.half.beforeRelaunch?.()
    const run = async (): Promise<Report> => {
      if (!whileUp) progress('helm-gate: quality half done; the load half starts (docs/load.md)')
      if (relaunch) {
        progress(
          holdsOneAtATime(config, options.sequential)
            ? 'helm-gate: the launched servers are up one at a time (sequential schedule): the load half swaps them between blocks A B B A'
            : 'helm-gate: the servers the gate file launches are not up after the quality half: launching both for the load half'
        )
      }
      const measured: (() => Promise<LoadOutcome>) | undefined = whileUp
        ? () => whileUp.result()
        : relaunch
          ? // Server logs append to the output folder's logs/<side>-server.log, after the quality half's.
            () => runLaunchedLoad(config, options)
          : undefined
      const loaded = await runLoadHalf(config, options.outDir, {
        env,
        progress,
        gateSetOutput: context.paths.baseline,
        endpoints: options.plan.endpoints,
        measured
      })
      // The parts (fidelity, ...) keep their own verdicts: the performance half joins the quality
      // half alone, and the parts join again after (report.json's `quality` is quality's own).
      return rejoinParts(attachLoad(qualityAlone(report), loaded.report), report.parts ?? [])
    }
    return this.half.section ? this.half.section(run) : run()
  }
}

/** The load half of a gate that runs it (the adapter's `load`), or null. */
export function loadMeasurementFor(config: GateConfig, half: LoadHalf | null, options: LoadMeasurementOptions): LoadMeasurement | null {
  return half ? new LoadMeasurement(config, half, options) : null
}
