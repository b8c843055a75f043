/**
 * The one start/stop sequence of launched deployments, for the quality half (runSides: helm-run
 * per side) and the load half alone (runLaunchedLoad: no helm-run): on the schedule
 * (side-schedule.ts), each launched side is started and waited for, measured, held while the load half
 * runs (with every side up at that moment), and stopped on every path. A side that is not
 * launched is a server that is always up: nothing to start or stop.
 */
import { GateError } from '../errors.js'
import type { Side } from '../model/verdict.js'
import type { ProbeResult } from '../server/readiness.js'
import type { Launcher } from './launcher.js'
import { sidesUpWhileHeld } from './load-while-up.js'
import { runOnSchedule } from './side-schedule.js'

export interface LaunchedSideSteps<T> {
  side(item: T): Side
  /** The side's work while its server is up (helm-run); nothing for the load half alone. */
  measure(item: T): Promise<void>
  /**
   * While the measured sides are still up, before they are stopped: `up` are the sides up at that
   * moment (the launched ones held, plus those not launched). Not called when nothing is launched.
   */
  whileUp?(up: Side[]): Promise<void>
  /** A launched side's server is ready. */
  ready?(item: T, probe: ProbeResult): void
  /** A launched side's server could not be started or did not get ready (the schedule stops there when sequential). */
  failed(item: T, error: GateError): void
}

export async function withLaunchedSides<T>(
  launcher: Launcher | null,
  items: T[],
  schedule: 'sequential' | 'concurrent',
  steps: LaunchedSideSteps<T>
): Promise<void> {
  const launched = (side: Side): boolean => launcher?.launches(side) ?? false
  await runOnSchedule(items, schedule, {
    up: async item => {
      const side = steps.side(item)
      if (!launcher || !launched(side)) return true
      try {
        // Started first: an optional call skips its arguments when there is nothing to call.
        const probe = await launcher.up(side)
        steps.ready?.(item, probe)
        return true
      } catch (error) {
        if (!(error instanceof GateError)) throw error
        steps.failed(item, error)
        return false
      }
    },
    measure: item => steps.measure(item),
    hold: async held => {
      const up = sidesUpWhileHeld(held.map(steps.side).filter(launched), launched)
      if (up.length > 0) await steps.whileUp?.(up)
    },
    down: async item => {
      const side = steps.side(item)
      if (launcher && launched(side)) await launcher.down(side)
    }
  })
}
