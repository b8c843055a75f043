/**
 * manifest.json: what an evidence or baseline artifact contains and how it was made. An archived
 * baseline is only reused when its manifest's fingerprint and HELM version match the gate set.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { InputError } from '../errors.js'

export type Side = 'baseline' | 'candidate'

export interface BaselineOrigin {
  kind: 'run' | 'archived'
  artifact_id?: number
  artifact_name?: string
  workflow_run_id?: number
  head_sha?: string
  created_at?: string
  age_hours?: number
}

export interface EvidenceManifest {
  schema: 'helm-gate-evidence/1'
  tool_version: string
  mode: string
  fingerprint: string
  helm_version: string | null
  config_source: string
  /** Sides whose HELM output directories are in this artifact. */
  sides: Side[]
  /** Each side's HELM output directory, relative to the manifest. */
  side_paths: Partial<Record<Side, string>>
  entries: string[]
  shard: { index: number; count: number } | null
  /** Every side listed ran to completion. */
  complete: boolean
  baseline_origin: BaselineOrigin | null
  event: {
    name: string
    run_id: number
    run_attempt: number
    pull_request: number | null
    head_sha: string
  }
  created_at: string
}

export const MANIFEST_FILE = 'manifest.json'

export async function writeManifest(dir: string, manifest: EvidenceManifest): Promise<string> {
  const file = path.join(dir, MANIFEST_FILE)
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`)
  return file
}

/** Reads and shape-checks a manifest from an untrusted download. */
export async function readManifest(dir: string): Promise<EvidenceManifest> {
  const file = path.join(dir, MANIFEST_FILE)
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new InputError('manifest.unreadable', `cannot read the manifest: ${(error as Error).message}`, { file })
  }
  const m = parsed as Partial<EvidenceManifest> | null
  const ok =
    m !== null &&
    typeof m === 'object' &&
    m.schema === 'helm-gate-evidence/1' &&
    typeof m.fingerprint === 'string' &&
    Array.isArray(m.sides) &&
    m.sides.every(side => side === 'baseline' || side === 'candidate') &&
    typeof m.side_paths === 'object' &&
    m.side_paths !== null &&
    Object.values(m.side_paths).every(p => typeof p === 'string') &&
    typeof m.complete === 'boolean' &&
    (m.helm_version === null || typeof m.helm_version === 'string')
  if (!ok) throw new InputError('manifest.invalid', 'the manifest does not have the expected shape', { file })
  return m as EvidenceManifest
}
