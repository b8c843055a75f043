/**
 * The performance half alone (`helm-gate load`, `run --only load`, and a full run's load half when
 * the launched sides are up one at a time or were not left up) for a gate that launches its
 * servers: one measurement, the load half, while the one holder of the sides keeps them up
 * (src/launch/side-holder.ts): both launched on a sequential schedule, swapped between blocks
 * A B B A; otherwise each launched side started once and held up. Stopped on every path; the
 * report is the load half's own, never patched. No helm-run is involved.
 * A side that cannot be launched is an error of the load half (its message quotes the server's
 * log), never a pass.
 */
import { resolve } from 'node:path'
import type { GateConfig } from '../config/types.js'
import { runLoad } from '../load/run-load.js'
import type { LoadOutcome } from '../load/load-run.js'
import type { MeasurementInputs } from '../plan/measurement-inputs.js'
import { planSides } from '../plan/run-plan.js'
import { launchesAny } from './load-while-up.js'
import { SideHolder, withLauncher } from './side-holder.js'

/**
 * What the launched load half is given: what every measurement is given, less `toRun` (both sides
 * are launched here, whatever the quality half ran). `plan` is optional because the performance
 * half alone (`helm-gate load`, runLoadOnlyGate) makes no run plan: the sides are then resolved
 * from the gate file. `outDir` is where `logs/<side>-server.log` go.
 */
export type LaunchedLoadOptions = Omit<MeasurementInputs, 'toRun' | 'plan'> & Partial<Pick<MeasurementInputs, 'plan'>>

export async function runLaunchedLoad(config: GateConfig, options: LaunchedLoadOptions): Promise<LoadOutcome> {
  const { cwd, env, progress, baseRef } = options
  const sides = options.plan ?? planSides(config, env)
  return withLauncher(config, { outDir: resolve(cwd, options.outDir), cwd, env, progress, baseRef, sides }, launcher => {
    // One measurement while the holder keeps the sides up: swapped one at a time, or both held up.
    // A side that cannot be brought up is the load half's error, naming the side and the block.
    const holder = launcher ? new SideHolder(launcher, config, progress, options.sequential) : undefined
    return runLoad(config, { env, progress, endpoints: sides.endpoints }, holder)
  })
}

/** For `runLoadHalf`'s `measured`: the launched load half when the gate launches, else undefined. */
export function launchedLoadFor(config: GateConfig, options: LaunchedLoadOptions): (() => Promise<LoadOutcome>) | undefined {
  return launchesAny(config) ? () => runLaunchedLoad(config, options) : undefined
}
