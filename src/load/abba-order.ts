/**
 * The order of blocks at one level: the sides are never loaded at the same time, and they
 * alternate A B B A A B ... so that a drift that is linear in time cancels within the pairs
 * (docs/load.md). Block pair i is the i-th block of each side; pairs are adjacent in time.
 */
import type { LoadSide } from '../model/load-report.js'

export interface ScheduledBlock {
  side: LoadSide
  /** The side's block number (= its pair). */
  repetition: number
  /** Position in the level's run order. */
  position: number
}

export function abbaOrder(repetitions: number): ScheduledBlock[] {
  const order: ScheduledBlock[] = []
  for (let i = 0; i < repetitions; i++) {
    const sides: LoadSide[] = i % 2 === 0 ? ['baseline', 'candidate'] : ['candidate', 'baseline']
    for (const side of sides) order.push({ side, repetition: i, position: order.length })
  }
  return order
}
