/**
 * Artifact names. GitHub rejects `" : < > | * ? \r \n \ /` and refuses a second artifact of the
 * same name in one workflow run (409), so names carry the gate (two gates may run in one
 * workflow run, e.g. a matrix over gate files), the run attempt and the shard.
 */
/** Prefix of every artifact this action uploads; the mode and identity follow it. */
export const ARTIFACT_PREFIX = 'helm-gate'

const FORBIDDEN = /[":<>|*?\r\n\\/]/g

export function sanitizeArtifactName(name: string): string {
  const clean = name.replace(FORBIDDEN, '-').replace(/\s+/g, '-').replace(/-{2,}/g, '-')
  return clean.replace(/^-+|-+$/g, '') || ARTIFACT_PREFIX
}

/**
 * The gate's part of a name, from its gate file's path in the repository:
 * `.github/helm-gate.yml` gives `helm-gate`, `.github/gates/fp8.yaml` gives `gates-fp8`.
 */
export function gateSlug(repoPath: string): string {
  const trimmed = repoPath.replace(/^\.github\//, '').replace(/\.ya?ml$/i, '')
  return sanitizeArtifactName(trimmed.replace(/[^A-Za-z0-9_.-]+/g, '-')) || 'gate'
}

/** Evidence of one gate or baseline attempt: run directories, logs, reports, manifest. */
export function evidenceArtifactName(mode: string, gate: string, runAttempt: number, shard?: ShardId): string {
  const shardPart = shard ? `-shard-${shard.index}-of-${shard.count}` : ''
  return sanitizeArtifactName(`${ARTIFACT_PREFIX}-${mode}-${gate}${shardPart}-attempt-${runAttempt}`)
}

export interface ShardId {
  index: number
  count: number
}

const SHARD_NAME = new RegExp(`^${ARTIFACT_PREFIX}-run-(.+)-shard-(\\d+)-of-(\\d+)-attempt-(\\d+)$`)

/** Parses a name made by evidenceArtifactName('run', gate, …, shard); null for anything else. */
export function parseShardArtifactName(name: string): (ShardId & { gate: string; attempt: number }) | null {
  const match = SHARD_NAME.exec(name)
  if (!match) return null
  return { gate: match[1], index: Number(match[2]), count: Number(match[3]), attempt: Number(match[4]) }
}

/**
 * The archived baseline's name carries the fingerprint's first 16 hex digits, so the REST name
 * filter returns only baselines of this gate set; the manifest is still verified after download.
 */
export function baselineArtifactName(prefix: string, fingerprint: string): string {
  return sanitizeArtifactName(`${prefix}-${fingerprint.slice(0, 16)}`)
}
