/**
 * The one place that holds launched sides up. `holdOnSchedule` brings each launched side up on
 * the schedule (side-schedule.ts), waits for it, holds it while the measurements
 * (src/model/measurement.ts: the quality half first, then traffic replay, fidelity, the load half)
 * take their part with every side up at that moment, and stops it on every path. The load half alone (`SideHolder`) swaps or holds them. `withLauncher`
 * is the one opening and closing of the launcher for the load half and `plan --measure-swap`.
 *
 * For the load half: when they cannot be up together
 * (both launched on a sequential schedule: one accelerator), before a block of the side that is
 * down it takes the other side down (stopped, or put to sleep with `switch: sleep`) and brings
 * this one up (started again, or woken), waiting until it serves the model. Otherwise (a
 * concurrent schedule, or one side always up) each launched side is started once and held up
 * until the release. It records each side's up periods for the report and the manifest. The load
 * half (src/load/block-schedule.ts) decides when to swap; stopping everything on every path stays
 * with the launcher's `close`.
 */
import type { SideSwitchKind } from '../config/launch.js'
import type { GateConfig } from '../config/types.js'
import { ConfigError, GateError } from '../errors.js'
import type { LoadSide, UpPeriod } from '../model/load-report.js'
import type { SideMeasurement } from '../model/measurement.js'
import type { Side } from '../model/verdict.js'
import type { SideSwitch } from '../load/load-run.js'
import { childProcessEnv } from '../secrets/child-env.js'
import type { ProbeResult } from '../server/readiness.js'
import { Launcher } from './launcher.js'
import { trackedTempDir } from '../process/registry.js'
import { runOnSchedule } from './side-schedule.js'
import { planSides, scheduleOf, type PlannedSides } from '../plan/run-plan.js'

const SIDES: LoadSide[] = ['baseline', 'candidate']

export class SideHolder implements SideSwitch {
  readonly switches: Record<LoadSide, SideSwitchKind | null>
  /** One side up at a time (both launched, sequential): swapped; otherwise each stays up once brought up. */
  readonly oneAtATime: boolean
  private upNow: LoadSide | null = null
  /** Both up at once: the launched sides brought up so far. */
  private readonly held = new Set<LoadSide>()
  /** Sides started and now asleep (switch: sleep): woken, not started, when brought up again. */
  private readonly asleep = new Set<LoadSide>()
  private readonly up: Record<LoadSide, UpPeriod[]> = { baseline: [], candidate: [] }

  constructor(
    private readonly launcher: Launcher,
    config: GateConfig,
    private readonly progress: (line: string) => void,
    sequential?: boolean
  ) {
    const kind = (side: LoadSide): SideSwitchKind | null =>
      launcher.launches(side) ? (config.launch?.sides[side]?.switch ?? 'restart') : null
    this.switches = { baseline: kind('baseline'), candidate: kind('candidate') }
    this.oneAtATime = holdsOneAtATime(config, sequential)
  }

  async bringUp(side: LoadSide, stage: string): Promise<void> {
    if (!this.oneAtATime) return this.holdUp(side)
    if (this.upNow === side) return
    if (this.upNow !== null) await this.takeDown(this.upNow)
    const from = new Date().toISOString()
    if (this.asleep.has(side)) {
      this.progress(`[${side}] waking the server for ${stage}`)
      await this.launcher.wake(side)
      this.asleep.delete(side)
    } else {
      await this.launcher.up(side)
    }
    this.up[side].push({ from, ready: new Date().toISOString(), to: null })
    this.upNow = side
  }

  /** Takes what is up down at the end (the launcher's close stops what is asleep). */
  async release(): Promise<void> {
    if (this.upNow !== null) await this.takeDown(this.upNow, true)
    for (const side of this.held) {
      await this.launcher.down(side)
      this.closePeriod(side)
    }
    this.held.clear()
  }

  periods(): Record<LoadSide, UpPeriod[]> {
    return { baseline: this.up.baseline.map(p => ({ ...p })), candidate: this.up.candidate.map(p => ({ ...p })) }
  }

  /** Both up at once: a launched side is started once and stays up until the release; one not launched is always up. */
  private async holdUp(side: LoadSide): Promise<void> {
    if (this.switches[side] === null || this.held.has(side)) return
    const from = new Date().toISOString()
    // Held before it is ready: a failed start is still stopped by the release.
    this.held.add(side)
    await this.launcher.up(side)
    this.up[side].push({ from, ready: new Date().toISOString(), to: null })
  }

  private async takeDown(side: LoadSide, last = false): Promise<void> {
    try {
      // Asleep between blocks keeps the weights off the accelerator but the server resident; at
      // the end there is nothing to wake for, so it is stopped.
      if (this.switches[side] === 'sleep' && !last) {
        await this.launcher.sleep(side)
        this.asleep.add(side)
      } else {
        await this.launcher.down(side)
      }
    } finally {
      this.closePeriod(side)
      this.upNow = null
    }
  }

  private closePeriod(side: LoadSide): void {
    const periods = this.up[side]
    const open = periods[periods.length - 1]
    if (open && open.to === null) open.to = new Date().toISOString()
  }
}

/** Does the load half hold the launched sides up one at a time (both launched, sequential)? */
export function holdsOneAtATime(config: GateConfig, sequential: boolean | undefined): boolean {
  const sides = config.launch?.sides ?? {}
  return scheduleOf(config.launch, sequential) === 'sequential' && SIDES.every(side => sides[side] !== undefined)
}

/** A side on the quality half's schedule and its HELM output folder (known before anything runs). */
export interface ScheduledSide {
  side: Side
  output: string
}

/** What the holder saw of a launched side: its readiness probe, or why it could not be brought up or got ready. */
export type SideSeen = { probe: ProbeResult; error?: undefined } | { probe?: undefined; error: GateError }

/**
 * The sides on the schedule, in order: each launched side is started and waited for, held while
 * every measurement takes its part (the quality half first: helm-run or the runner command, whose
 * output folders the others are given), and stopped on every path. A measurement held on every
 * side (`everySide`, the quality half) gets the sides just brought up, always-up servers included;
 * the others get the sides up while a launched side is held (those, plus every side that is not
 * launched) and take servers that are always up after the quality half (`holdAlwaysUp`). A side
 * that could not come up stops a sequential schedule. Returns what it saw of each launched side.
 */
export async function holdOnSchedule(
  launcher: Launcher | null,
  sides: readonly ScheduledSide[],
  schedule: 'sequential' | 'concurrent',
  measurements: readonly SideMeasurement[]
): Promise<Partial<Record<Side, SideSeen>>> {
  const launched = (side: Side): boolean => launcher?.launches(side) ?? false
  const outputs = Object.fromEntries(sides.map(s => [s.side, s.output])) as Partial<Record<Side, string>>
  const seen: Partial<Record<Side, SideSeen>> = {}
  await runOnSchedule(
    sides.map(s => s.side),
    schedule,
    {
      up: async side => {
        if (!launcher || !launched(side)) return true
        try {
          seen[side] = { probe: await launcher.up(side) }
          return true
        } catch (error) {
          if (!(error instanceof GateError)) throw error
          seen[side] = { error }
          return false
        }
      },
      hold: async held => {
        const launchedUp = sidesUpWhileHeld(held.filter(launched), launched)
        for (const measurement of measurements) {
          const up = measurement.everySide ? held : launchedUp
          if (up.length > 0) await measurement.hold(up, outputs)
        }
      },
      down: async side => {
        if (launcher && launched(side)) await launcher.down(side)
      }
    }
  )
  return seen
}

/**
 * The sides up while `held` (launched sides between their measurement and their stop) are held:
 * those, plus every side that is not launched (a server that is always up).
 */
export function sidesUpWhileHeld(held: Side[], launched: (side: Side) => boolean): Side[] {
  if (held.length === 0) return []
  const always = (['baseline', 'candidate'] as const).filter(side => !launched(side) && !held.includes(side))
  return [...held, ...always]
}

export interface OpenLauncherOptions {
  /** Where `logs/<side>-server.log` go (absolute); by default the temporary folder, removed after. */
  outDir?: string
  cwd: string
  env: NodeJS.ProcessEnv
  baseRef: string | null
  progress: (line: string) => void
  /** The run plan's sides (endpoints, key names, secrets); resolved from the gate file when not given. */
  sides?: PlannedSides
}

/**
 * The launcher of the gate file's launched sides, open while `use` runs (null when nothing is
 * launched), with the deployments' API keys masked in the servers' logs and kept out of their
 * environment; every server stopped and the temporary folder removed on every path.
 */
export async function withLauncher<T>(
  config: GateConfig,
  options: OpenLauncherOptions,
  use: (launcher: Launcher | null) => Promise<T>
): Promise<T> {
  const sides = options.sides ?? planSides(config, options.env)
  const temp = trackedTempDir()
  let launcher: Launcher | null = null
  try {
    launcher = await Launcher.open({
      config,
      endpoints: sides.endpoints,
      cwd: options.cwd,
      env: childProcessEnv(options.env, sides.keyNames),
      baseRef: options.baseRef,
      outDir: options.outDir ?? temp.path,
      secrets: sides.secrets,
      progress: options.progress,
      tempDir: temp.path
    })
    return await use(launcher)
  } finally {
    await launcher?.close()
    await temp.remove()
  }
}

/**
 * `plan --measure-swap`: the cost of one swap as the load half pays it, measured now with the
 * gate file's own launch commands: the candidate brought up, then the baseline (the candidate
 * stopped or put to sleep, the baseline started or woken and ready). Everything is stopped after,
 * and the servers' logs go to a temporary folder that is removed.
 */
export async function measureSwap(config: GateConfig, options: OpenLauncherOptions): Promise<number> {
  return withLauncher(config, options, async launcher => {
    if (!launcher || !holdsOneAtATime(config, true))
      throw new ConfigError('plan.measure_swap', '--measure-swap needs both sides launched', { file: config.source, field: 'deployments' })
    const holder = new SideHolder(launcher, config, options.progress, true)
    try {
      await holder.bringUp('candidate', 'the swap measurement')
      const started = performance.now()
      await holder.bringUp('baseline', 'the swap measurement')
      return Math.round(performance.now() - started)
    } finally {
      await holder.release()
    }
  })
}
