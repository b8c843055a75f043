/**
 * The load half of a gate whose servers helm-gate launches: it can only measure while they are
 * up, so it runs while the holder keeps them up (src/launch/side-holder.ts `holdOnSchedule`) (docs/launch.md, "The schedule"). When both sides
 * are up at once (a concurrent schedule, or one side is a server that is always up) it is the
 * ordinary interleaved run (A B B A, docs/load.md); when they are up one at a time, each side's
 * blocks run while it is up and the compare step follows (src/load/per-side.ts).
 */
import type { GateConfig } from '../config/types.js'
import { PerSideLoad } from '../load/per-side.js'
import { runLoad, type LoadOutcome, type LoadRunOptions } from '../load/run-load.js'
import type { Side } from '../model/report.js'

/** Does the gate launch any side? Then its load half must run while the servers are up. */
export function launchesAny(config: GateConfig): boolean {
  return Object.keys(config.launch?.sides ?? {}).length > 0
}

export class LoadWhileUp {
  private interleaved: LoadOutcome | null = null
  private readonly perSide: PerSideLoad

  constructor(
    private readonly config: GateConfig,
    private readonly options: LoadRunOptions
  ) {
    this.perSide = new PerSideLoad(config, options)
  }

  /** While the holder keeps `up` up: `up` are the sides up now; `outputs` their HELM output folders. */
  readonly hold = async (up: Side[], outputs: Partial<Record<Side, string>>): Promise<void> => {
    const gateSetOutput = outputs.baseline ?? this.options.gateSetOutput ?? null
    if (up.includes('baseline') && up.includes('candidate')) {
      this.interleaved ??= await runLoad(this.config, { ...this.options, gateSetOutput })
      return
    }
    for (const side of up) await this.perSide.measureSide(side, { gateSetOutput })
  }

  /** The load half's outcome, once the servers are down. */
  async result(): Promise<LoadOutcome> {
    return this.interleaved ?? (await this.perSide.finish())
  }
}
