/**
 * How the load half's blocks were scheduled between the sides, in the words every rendering uses
 * (console, comment, report.html): the one owner of that sentence, so no rendering says
 * "interleaved" of a run whose sides were swapped between blocks or measured in periods of their
 * own. No imports but types: report.html's page script bundles it.
 */
import type { LoadReport } from '../model/load-report.js'

export function loadScheduleText(load: Pick<LoadReport, 'interleaved' | 'timeline'>): string {
  const timeline = load.timeline
  if (load.interleaved === false) {
    return `not interleaved: each side measured in its own period${timeline?.why ? ` (${timeline.why})` : ''}`
  }
  if (timeline?.schedule === 'swapped') {
    const swaps = timeline.swaps.length
    const cost = timeline.swap_cost_ms === null ? '' : `, median ${(timeline.swap_cost_ms / 1000).toFixed(1)} s each`
    return `interleaved A B B A, the launched sides swapped before each block of the other side (${swaps} swap${swaps === 1 ? '' : 's'}${cost})`
  }
  return 'interleaved A B B A, both sides up at once'
}
