/**
 * The order of the sides. Sequential: baseline up, measured, down; then the candidate: for a GPU
 * that holds one server at a time. Concurrent: both up, both measured at once, both down.
 * `down` runs on every path (a failed start, a failed measurement, an exception), and a side
 * that could not come up stops a sequential schedule: the verdict is an error either way, and the
 * GPU time of the other side would be wasted.
 */
export interface ScheduleSteps<T> {
  /** Starts the side's server and waits for it; false when it could not (the error is recorded). */
  up(item: T): Promise<boolean>
  /** Each side's own step once it is up (the holder of the sides has none: everything it runs is a measurement's `hold`). */
  measure?(item: T): Promise<void>
  /**
   * Runs while the given sides are still up after being measured, before they are stopped:
   * each side alone in a sequential schedule, all of them together in a concurrent one (the
   * load half's hook; docs/launch.md).
   */
  hold?(items: T[]): Promise<void>
  down(item: T): Promise<void>
}

export async function runOnSchedule<T>(items: T[], schedule: 'sequential' | 'concurrent', steps: ScheduleSteps<T>): Promise<void> {
  if (schedule === 'sequential') {
    for (const item of items) {
      let ok: boolean
      try {
        ok = await steps.up(item)
        if (ok) await steps.measure?.(item)
        if (ok) await steps.hold?.([item])
      } finally {
        await steps.down(item)
      }
      if (!ok) return
    }
    return
  }
  let failure: unknown = null
  try {
    const ups = await Promise.allSettled(items.map(item => steps.up(item)))
    const rejected = ups.find((u): u is PromiseRejectedResult => u.status === 'rejected')
    if (rejected) throw rejected.reason
    if (ups.every(u => u.status === 'fulfilled' && u.value)) {
      const measured = await Promise.allSettled(items.map(async item => steps.measure?.(item)))
      const thrown = measured.find((m): m is PromiseRejectedResult => m.status === 'rejected')
      if (thrown) throw thrown.reason
      await steps.hold?.(items)
    }
  } catch (error) {
    failure = error
  }
  const downs = await Promise.allSettled(items.map(item => steps.down(item)))
  if (failure !== null) throw failure
  const thrown = downs.find((d): d is PromiseRejectedResult => d.status === 'rejected')
  if (thrown) throw thrown.reason
}
