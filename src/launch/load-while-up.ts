/**
 * The load half of a gate whose servers helm-gate launches: it can only measure while they are
 * up, so it runs while the holder keeps them up (src/launch/side-holder.ts `holdOnSchedule`)
 * (docs/launch.md, "The schedule"). It is used only when the quality half leaves both sides up at
 * once (a concurrent schedule, or one side a server that is always up: src/launch/load-measurement.ts),
 * so it is the ordinary interleaved run (A B B A, docs/load.md). When it was never held with both
 * up (a launch failed, so the holder held nothing), `result` runs it now: its probes find the side
 * that is down and that is the load half's error, never a silent pass.
 */
import type { GateConfig } from '../config/types.js'
import { runLoad } from '../load/run-load.js'
import type { LoadOutcome, LoadRunOptions } from '../load/load-run.js'
import type { Side } from '../model/report.js'

/** Does the gate launch any side? Then its load half must run while the servers are up. */
export function launchesAny(config: GateConfig): boolean {
  return Object.keys(config.launch?.sides ?? {}).length > 0
}

export class LoadWhileUp {
  private interleaved: LoadOutcome | null = null

  constructor(
    private readonly config: GateConfig,
    private readonly options: LoadRunOptions
  ) {}

  /** While the holder keeps `up` up: `up` are the sides up now; `outputs` their HELM output folders. */
  readonly hold = async (up: Side[], outputs: Partial<Record<Side, string>>): Promise<void> => {
    // Both are up whenever the holder calls (the quality half left both up); once is enough.
    if (!up.includes('baseline') || !up.includes('candidate')) return
    const gateSetOutput = outputs.baseline ?? this.options.gateSetOutput ?? null
    this.interleaved ??= await runLoad(this.config, { ...this.options, gateSetOutput })
  }

  /** The load half's outcome, once the servers are down. */
  async result(): Promise<LoadOutcome> {
    return this.interleaved ?? (await runLoad(this.config, this.options))
  }
}
