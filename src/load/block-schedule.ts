/**
 * The order of the blocks (docs/load.md): A B B A at each level, or each side in its own period
 * when swapping is impossible or over budget; the swaps between launched sides and their timeline.
 */
import { counted } from '../words.js'
import type { LoadSettings } from '../config/load-types.js'
import type { LoadReport, LoadSchedule, LoadSide, LoadTimeline, SwapRecord } from '../model/load-report.js'
import { GateError } from '../errors.js'
import { abbaOrder } from './abba-order.js'
import { LOAD_SIDES, SwapError, type SideSwitch } from './load-run.js'

export interface BlockAt {
  side: LoadSide
  level: number
  /** The level's index (the workload streams are named by it). */
  li: number
  repetition: number
  position: number
  /** Blocks at this level, for the progress line. */
  total: number
}

/** Every block of the load half in run order: A B B A at each level, or each side in its own period. */
export function blockPlan(load: LoadSettings, schedule: LoadSchedule): BlockAt[] {
  const total = 2 * load.repetitions
  if (schedule !== 'periods') {
    return load.levels.flatMap((level, li) => abbaOrder(load.repetitions).map(block => ({ ...block, level, li, total })))
  }
  return LOAD_SIDES.flatMap((side, si) =>
    load.levels.flatMap((level, li) =>
      Array.from({ length: load.repetitions }, (_, repetition) => ({
        side,
        level,
        li,
        repetition,
        position: si * load.repetitions + repetition,
        total
      }))
    )
  )
}

/** Swaps a plan needs, starting with the baseline up (after the probes). */
export function swapsNeeded(plan: Pick<BlockAt, 'side'>[]): number {
  let up: LoadSide = 'baseline'
  let swaps = 0
  for (const block of plan) {
    if (block.side !== up) swaps++
    up = block.side
  }
  return swaps
}

/**
 * Interleave by swapping, or fall back to one period per side: when a side cannot be swapped
 * (`switch: none`), or when the swaps A B B A needs, at the cost measured by the probes' swap,
 * would take longer than load.swap_budget_seconds.
 */
export function chooseSchedule(
  holder: Pick<SideSwitch, 'switches'>,
  load: LoadSettings,
  swaps: SwapRecord[]
): { schedule: LoadSchedule; why: string } {
  const fixed = LOAD_SIDES.find(side => holder.switches[side] === 'none')
  if (fixed) {
    return { schedule: 'periods', why: `swapping is impossible: deployments.${fixed}.launch.switch is none` }
  }
  const cost = medianMs(swaps)
  const needed = swapsNeeded(blockPlan(load, 'swapped'))
  const estimate = cost === null ? 0 : (needed * cost) / 1000
  if (estimate > load.swapBudgetSeconds) {
    return {
      schedule: 'periods',
      why: `swapping is over budget: ${counted(needed, 'swap')} at ${((cost ?? 0) / 1000).toFixed(1)} s each (measured) would take ${estimate.toFixed(0)} s, more than load.swap_budget_seconds (${load.swapBudgetSeconds} s)`
    }
  }
  return {
    schedule: 'swapped',
    why: `the launched sides are up one at a time (sequential schedule): swapped before each block of the other side, ${counted(needed, 'swap')} at ${((cost ?? 0) / 1000).toFixed(1)} s each (measured), within load.swap_budget_seconds (${load.swapBudgetSeconds} s)`
  }
}

function medianMs(swaps: SwapRecord[]): number | null {
  if (swaps.length === 0) return null
  const sorted = swaps.map(s => s.ms).sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function timelineOf(
  holder: SideSwitch,
  schedule: { schedule: LoadSchedule; why: string },
  swaps: SwapRecord[],
  load: LoadSettings
): LoadTimeline {
  return {
    schedule: schedule.schedule,
    why: schedule.why,
    switches: { ...holder.switches },
    swap_cost_ms: medianMs(swaps),
    swap_budget_seconds: load.swapBudgetSeconds,
    swaps: [...swaps],
    up: holder.periods()
  }
}

/** Each side measured in its own period: said in the report, first among the notes. */
export function markPeriods(report: LoadReport, why: string): void {
  report.interleaved = false
  report.notes.unshift(
    `Not interleaved (${why}): all of the baseline's blocks ran in one period, then all of the candidate's. ` +
      'Block pairs are not adjacent in time: drift between the two periods (host load, thermal state) is not cancelled, and the intervals do not include it (nothing was widened for it).'
  )
}

/**
 * runLoad's bring-up: swaps a side in when it is not the one up, and keeps the swaps and the
 * schedule for the timeline.
 */
export class SideSwaps {
  readonly swaps: SwapRecord[] = []
  readonly swapping: boolean
  schedule: { schedule: LoadSchedule; why: string }
  private upNow: LoadSide | null = null

  constructor(private readonly holder: SideSwitch | undefined) {
    this.swapping = holder?.oneAtATime === true
    this.schedule = this.swapping
      ? {
          schedule: 'swapped',
          why: 'the launched sides are up one at a time (sequential schedule): swapped before each block of the other side'
        }
      : { schedule: 'both-up', why: 'both sides are up at once' }
  }

  /** Swaps `side` in when it is not the one up; true when it did. */
  async bringUp(side: LoadSide, stage: string): Promise<boolean> {
    const { holder, swapping } = this
    // Both up at once: brought up for the probes, then held (no swaps).
    if (!holder || this.upNow === side || (!swapping && stage !== 'the probe')) return false
    const started = performance.now()
    try {
      await holder.bringUp(side, stage)
    } catch (error) {
      if (!(error instanceof GateError)) throw error
      // The launch's own code (what to fix), the message naming the side and the block.
      throw new SwapError(error.code, `the ${side} could not be brought up for ${stage}: ${error.message}`, {
        field: error.location.field ?? `deployments.${side}.launch`
      })
    }
    // The first start is a launch, not a swap: nothing was taken down before it.
    if (this.upNow !== null && swapping) this.swaps.push({ side, before: stage, ms: Math.round(performance.now() - started) })
    this.upNow = side
    return true
  }

  /** After the probes: interleave by swapping or one period per side (chooseSchedule). */
  choose(load: LoadSettings): void {
    if (this.swapping && this.holder) this.schedule = chooseSchedule(this.holder, load, this.swaps)
  }

  /** What the report says of the schedule and the swaps; null without a holder. */
  timeline(load: LoadSettings): LoadTimeline | null {
    return this.holder ? timelineOf(this.holder, this.schedule, this.swaps, load) : null
  }
}
