/**
 * The load half for launched servers that are up one at a time (a sequential schedule,
 * docs/launch.md): `measureSide` runs all of one side's blocks while that side is up; `finish`
 * is the compare step over the two sides' blocks. Block i of each side still forms pair i, but
 * the pairs are no longer adjacent in time: drift between the two periods is not cancelled and
 * is not in the intervals either. The report says so; nothing is widened to hide it.
 */
import type { GateConfig } from '../config/types.js'
import type { LoadBlock, LoadSide } from '../model/load-report.js'
import { connect } from './stream-client.js'
import type { StreamProbe } from './probe.js'
import {
  beginLoad,
  finishLoad,
  isOutcome,
  judgeProbes,
  measureBlock,
  probeLoadSide,
  sideDown,
  SideDownError,
  warmUp,
  workloadOf,
  type LoadOutcome,
  type LoadRun,
  type LoadRunOptions
} from './run-load.js'
import type { RequestTiming } from './types.js'

const SIDES: LoadSide[] = ['baseline', 'candidate']

interface Period {
  started: string
  ended: string
}

export class PerSideLoad {
  private readonly run: LoadRun | LoadOutcome
  private readonly probes: Partial<Record<LoadSide, StreamProbe>> = {}
  private readonly periods: Partial<Record<LoadSide, Period>> = {}
  private readonly blocks: LoadBlock[] = []
  private readonly timings: RequestTiming[] = []
  /** The first problem that ends the load half (a workload that cannot be read, a side down). */
  private stopped: LoadOutcome | null = null

  constructor(
    config: GateConfig,
    private readonly options: LoadRunOptions
  ) {
    this.run = beginLoad(config, options)
  }

  /** All of `side`'s blocks, level by level, while it is up. A side that does not answer is recorded. */
  async measureSide(side: LoadSide, options: Partial<LoadRunOptions> = {}): Promise<void> {
    const run = this.run
    if (isOutcome(run) || this.stopped || this.probes[side]) return
    const started = new Date().toISOString()
    const probe = await probeLoadSide(run, side)
    this.probes[side] = probe
    if (probe.problem) return
    const source = await workloadOf(run, { ...this.options, ...options })
    if (isOutcome(source)) {
      this.stopped = source
      return
    }
    const { load } = run
    const offset = SIDES.indexOf(side) * load.repetitions
    try {
      for (const [li, level] of load.levels.entries()) {
        const conn = connect(run.targets[side], load.mode === 'concurrency' ? level : null, run.timeoutMs)
        try {
          await warmUp(run, conn, side, probe.ignoreEos, source, li, level)
          for (let repetition = 0; repetition < load.repetitions; repetition++) {
            const at = { side, level, li, repetition, position: offset + repetition, total: 2 * load.repetitions }
            await measureBlock(run, conn, probe.ignoreEos, source, at, this.blocks, this.timings)
          }
        } finally {
          await conn.pool.close().catch(() => {})
        }
      }
    } catch (error) {
      // A side that stopped answering ends the load half: the other side is not measured.
      if (!(error instanceof SideDownError)) throw error
      this.stopped = sideDown(run, error, this.timings)
      return
    }
    this.periods[side] = { started, ended: new Date().toISOString() }
  }

  /**
   * The compare step. A side that was never measured while up (its launch failed, or it is not
   * launched and nothing called for it) is probed now: if it is down that is the load half's
   * error (or a loud skip, with load.baseline: optional), never a silent pass.
   */
  async finish(): Promise<LoadOutcome> {
    const run = this.run
    if (isOutcome(run)) return run
    if (this.stopped) return this.stopped
    for (const side of SIDES) if (!this.probes[side]) await this.measureSide(side)
    if (this.stopped) return this.stopped
    const judged = judgeProbes(run, this.probes as Record<LoadSide, StreamProbe>)
    if (judged) return judged
    run.report.interleaved = false
    const periods = SIDES.map(side => `${side} ${this.periods[side]?.started ?? '?'} to ${this.periods[side]?.ended ?? '?'}`).join('; ')
    run.report.notes.unshift(
      `Not interleaved: the launched servers were up one at a time (sequential schedule), so all of the baseline's blocks ran while it was up, then all of the candidate's (${periods}). ` +
        'Block pairs are not adjacent in time: drift between the two periods (host load, thermal state) is not cancelled, and the intervals do not include it (nothing was widened for it).'
    )
    return finishLoad(run, this.blocks, this.timings)
  }
}
