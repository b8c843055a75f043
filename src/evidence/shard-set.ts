/**
 * Which shard artifacts make up one complete matrix. Pure: names in, the artifact per shard (the
 * latest attempt) or the reason the set is incomplete out.
 */
import type { StoredArtifact } from '../github/artifacts.js'
import { parseShardArtifactName } from './names.js'

export type ShardSet = { ok: true; count: number; artifacts: StoredArtifact[] } | { ok: false; reason: string }

export function selectShardSet(artifacts: readonly StoredArtifact[]): ShardSet {
  const latest = new Map<number, { artifact: StoredArtifact; attempt: number; count: number }>()
  const counts = new Set<number>()
  for (const artifact of artifacts) {
    const parsed = parseShardArtifactName(artifact.name)
    if (!parsed) continue
    counts.add(parsed.count)
    const seen = latest.get(parsed.index)
    // A re-run of one matrix job uploads under a new attempt number; the newest one counts.
    if (!seen || parsed.attempt > seen.attempt) latest.set(parsed.index, { artifact, ...parsed })
  }
  if (latest.size === 0) return { ok: false, reason: 'no shard artifacts (helm-gate-run-shard-…) were found in the run' }
  if (counts.size > 1) {
    return { ok: false, reason: `shard artifacts disagree on the shard count (${[...counts].sort().join(', ')})` }
  }
  const count = [...counts][0]
  const missing: number[] = []
  for (let i = 0; i < count; i++) if (!latest.has(i)) missing.push(i)
  if (missing.length) return { ok: false, reason: `shard(s) ${missing.join(', ')} of ${count} did not upload an artifact` }
  return { ok: true, count, artifacts: [...Array(count).keys()].map(i => latest.get(i)!.artifact) }
}
