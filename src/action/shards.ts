/**
 * Splits the gate set's runs over a matrix of shards. Round-robin rather than contiguous blocks,
 * so that neighbouring (often similar-sized) entries spread over machines.
 */
import type { GatedRun } from '../config/types.js'
import { UsageError } from '../errors.js'
import { INPUTS } from './constants.js'

export function selectShard(runs: readonly GatedRun[], index: number, count: number): GatedRun[] {
  const entries = [...new Set(runs.map(run => run.entry))]
  if (count > entries.length) {
    throw new UsageError('input.shard', `input ${INPUTS.shardCount} (${count}) exceeds the gate set's ${entries.length} run entries`, {
      field: INPUTS.shardCount,
      value: count
    })
  }
  // Shard by entry, not by gated metric: two metrics of one entry come from one helm-run.
  const mine = new Set(entries.filter((_, i) => i % count === index))
  return runs.filter(run => mine.has(run.entry))
}
