/**
 * The load half (docs/load.md): probe both deployments, then per level warm the connections and
 * run the blocks A B B A ..., never both sides at once; then the figures, ratios and checks.
 * The I/O edge around the pure parts (workload, metrics, compare): runLoad orders the steps; the
 * run and its checks are in load-run.ts, the probes and prompts in load-preflight.ts, the order of
 * the blocks and the swaps in block-schedule.ts, the requests in run-block.ts, the compare step in
 * finish-load.ts.
 */
import type { GateConfig } from '../config/types.js'
import type { LoadBlock, LoadSide } from '../model/load-report.js'
import { connect, type Connection } from './stream-client.js'
import type { StreamProbe } from './probe.js'
import type { RequestTiming } from './types.js'
import {
  LOAD_SIDES,
  SwapError,
  beginLoad,
  isOutcome,
  levelName,
  type LoadOutcome,
  type LoadRunOptions,
  type SideSwitch
} from './load-run.js'
import { judgeProbes, probeLoadSide, sizeInServerTokens, workloadOf } from './load-preflight.js'
import { SideSwaps, blockPlan, markPeriods } from './block-schedule.js'
import { SideDownError, measureBlock, sideDown, warmUp } from './run-block.js'
import { finishLoad } from './finish-load.js'

export async function runLoad(config: GateConfig, options: LoadRunOptions, holder?: SideSwitch): Promise<LoadOutcome> {
  const run = beginLoad(config, options)
  if (isOutcome(run)) return run
  const { load, targets, timeoutMs } = run
  const timings: RequestTiming[] = []
  const blocks: LoadBlock[] = []
  const sides = new SideSwaps(holder)
  const { swapping } = sides

  const connections: Partial<Record<LoadSide, { conn: Connection; li: number }>> = {}
  const closeAll = async (): Promise<void> => {
    for (const side of LOAD_SIDES) {
      await connections[side]?.conn.pool.close().catch(() => {})
      delete connections[side]
    }
  }
  const measure = async (): Promise<LoadOutcome> => {
    // Probe: both deployments live and streaming. Load figures are comparable only within one run
    // on one machine, so an archived baseline never stands in for a live one. One at a time, the
    // candidate first, so that the baseline is up for the first block.
    const probes = {} as Record<LoadSide, StreamProbe>
    for (const side of swapping ? (['candidate', 'baseline'] as const) : LOAD_SIDES) {
      await sides.bringUp(side, 'the probe')
      probes[side] = await probeLoadSide(run, side)
    }
    const judged = judgeProbes(run, probes)
    if (judged) return judged
    const words = await workloadOf(run, options)
    if (isOutcome(words)) return words
    sides.choose(load)
    const plan = blockPlan(load, sides.schedule.schedule)
    const source = load.workload.prompts === 'synthetic' ? await sizeInServerTokens(run, words) : words

    /** The side's connections at the level, opened and warmed up when they are new (not measured). */
    const warmed = async (side: LoadSide, li: number, level: number): Promise<Connection> => {
      const have = connections[side]
      if (have && have.li === li) return have.conn
      await have?.conn.pool.close().catch(() => {})
      const conn = connect(targets[side], load.mode === 'concurrency' ? level : null, timeoutMs)
      connections[side] = { conn, li }
      await warmUp(run, conn, side, probes[side].ignoreEos, source, li, level)
      return conn
    }

    run.origin = performance.now()
    let level = -1
    for (const at of plan) {
      // Both up: both sides' connections opened and warmed at the start of each level, as one step.
      if (!swapping && at.li !== level) for (const side of LOAD_SIDES) await warmed(side, at.li, at.level)
      level = at.li
      // A side brought up again is a new server (or one just woken): new connections, a new warm-up.
      if (await sides.bringUp(at.side, `block ${at.position + 1}/${at.total} at ${levelName(load, at.level)}`)) await closeAll()
      const conn = await warmed(at.side, at.li, at.level)
      await measureBlock(run, conn, probes[at.side].ignoreEos, source, at, blocks, timings)
    }
    const finished = finishLoad(run, blocks, timings)
    if (sides.schedule.schedule === 'periods') markPeriods(finished.report, sides.schedule.why)
    return finished
  }

  let outcome: LoadOutcome
  try {
    outcome = await measure()
  } catch (error) {
    if (error instanceof SideDownError) outcome = sideDown(run, error, timings)
    else if (error instanceof SwapError) outcome = { ...run.fail(error.code, error.message, error.location.field), timings }
    else throw error
  } finally {
    await closeAll()
    // The side still up goes down now, so that its period ends in the timeline.
    await holder?.release()
  }
  const timeline = sides.timeline(load)
  if (timeline) outcome.report.timeline = timeline
  return outcome
}
