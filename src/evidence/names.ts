/**
 * Artifact names. GitHub rejects `" : < > | * ? \r \n \ /` and refuses a second artifact of the
 * same name in one workflow run (409), so names carry the run attempt and the shard.
 */
/** Prefix of every artifact this action uploads; the mode and identity follow it. */
export const ARTIFACT_PREFIX = 'helm-gate'

const FORBIDDEN = /[":<>|*?\r\n\\/]/g

export function sanitizeArtifactName(name: string): string {
  const clean = name.replace(FORBIDDEN, '-').replace(/\s+/g, '-').replace(/-{2,}/g, '-')
  return clean.replace(/^-+|-+$/g, '') || ARTIFACT_PREFIX
}

/** Evidence of one gate or baseline attempt: run directories, logs, reports, manifest. */
export function evidenceArtifactName(mode: string, runAttempt: number, shard?: ShardId): string {
  const shardPart = shard ? `-shard-${shard.index}-of-${shard.count}` : ''
  return sanitizeArtifactName(`${ARTIFACT_PREFIX}-${mode}${shardPart}-attempt-${runAttempt}`)
}

export interface ShardId {
  index: number
  count: number
}

const SHARD_NAME = new RegExp(`^${ARTIFACT_PREFIX}-run-shard-(\\d+)-of-(\\d+)-attempt-(\\d+)$`)

/** Parses a name made by evidenceArtifactName('run', …, shard); null for anything else. */
export function parseShardArtifactName(name: string): (ShardId & { attempt: number }) | null {
  const match = SHARD_NAME.exec(name)
  if (!match) return null
  return { index: Number(match[1]), count: Number(match[2]), attempt: Number(match[3]) }
}

/**
 * The archived baseline's name carries the fingerprint's first 16 hex digits, so the REST name
 * filter returns only baselines of this gate set; the manifest is still verified after download.
 */
export function baselineArtifactName(prefix: string, fingerprint: string): string {
  return sanitizeArtifactName(`${prefix}-${fingerprint.slice(0, 16)}`)
}
