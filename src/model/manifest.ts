/**
 * manifest.json: the one record of how the run directories next to it were made, written by
 * runGate at the root of every output folder (the CLI's `--out`, the action's evidence artifact,
 * an archived baseline, a shard). A result can be traced from it to the exact HELM version,
 * commands, servers and gate-set fingerprint; an archived baseline or a shard is only taken back
 * when its fingerprint, HELM version and completeness match. Never holds a secret: commands
 * carry none, prod_env files are redacted, API keys appear only as variable names.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { InputError } from '../errors.js'
import type { LaunchManifest } from './launch-record.js'
import type { LoadReport, LoadSide, LoadTimeline } from './load-report.js'
import type { Side } from './verdict.js'

export const MANIFEST_FILE = 'manifest.json'
export const MANIFEST_SCHEMA = 'helm-gate-manifest/1'

/** Where the baseline of a gate came from. */
export interface BaselineOrigin {
  kind: 'run' | 'archived'
  artifact_id?: number
  artifact_name?: string
  workflow_run_id?: number
  head_sha?: string
  created_at?: string
  age_hours?: number
}

/** How helm-run made one side (absent for a side taken from an artifact). */
export interface SideRun {
  /** The HELM deployment name used in the run entries. */
  helm_deployment: string
  /** What the gate file says about the deployment (no secrets: only the key's variable name). */
  deployment: Record<string, unknown>
  /** GET {base_url}/models as answered before the run: the server's identity. */
  server: unknown
  suite: string
  /** Relative to the manifest. */
  log_file: string
  entries: string[]
  command: string[]
  prod_env: Record<string, string>
  started_at: string | null
  ended_at: string | null
  duration_ms: number | null
  exit_code: number | null
  signal: string | null
  timed_out: boolean
  requests: number
  errors: { code: string; message: string }[]
}

export interface SideRecord extends Partial<SideRun> {
  /**
   * run: helm-run made it here; archived: a reused baseline; artifact: taken from shard artifacts;
   * given: an existing output folder named by the action's baseline-path / candidate-path.
   */
  source: 'run' | 'archived' | 'artifact' | 'given'
  /** The side's HELM output directory relative to the manifest (`/`-separated); null when outside it. */
  output_path: string | null
  complete: boolean
}

export interface Manifest {
  schema: typeof MANIFEST_SCHEMA
  tool_version: string
  /** The CLI command or the action mode that wrote it. */
  mode: string
  config_source: string
  fingerprint: string
  helm_version: string | null
  /** The gate-file entries this folder covers (a shard covers its share). */
  entries: string[]
  self_check: boolean
  concurrent: boolean
  /** sequential: one side after the other (a load half cannot interleave blocks between them). */
  schedule: 'sequential' | 'concurrent'
  /** Launched servers: commands, commits, pids, start/ready/stop times, image digests. */
  launch: LaunchManifest | null
  /**
   * Launched servers' load half: when each side was up and when each block ran (absent when the
   * load half did not launch anything).
   */
  load_timeline?: ManifestLoadTimeline
  started_at: string
  ended_at: string
  sides: Partial<Record<Side, SideRecord>>
  /** Every side listed is complete and nothing failed on the way. */
  complete: boolean
  baseline_origin: BaselineOrigin | null
  shard: { index: number; count: number } | null
  /** The workflow run that wrote it (the action); null on a workstation. */
  event: {
    name: string
    run_id: number
    run_attempt: number
    pull_request: number | null
    head_sha: string
  } | null
}

export interface ManifestLoadTimeline extends LoadTimeline {
  blocks: { side: LoadSide; level: number; position: number; started_at: string | null; ended_at: string | null }[]
}

/** The load report's timeline with its blocks' times, for the manifest; null without a timeline. */
export function loadTimelineOf(load: LoadReport | undefined | null): ManifestLoadTimeline | null {
  if (!load?.timeline) return null
  return {
    ...load.timeline,
    blocks: load.blocks.map(b => ({
      side: b.side,
      level: b.level,
      position: b.position,
      started_at: b.started_at ?? null,
      ended_at: b.ended_at ?? null
    }))
  }
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<string> {
  const file = path.join(dir, MANIFEST_FILE)
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`)
  return file
}

/** `to` relative to `dir` with `/` separators, or null when it lies outside `dir`. */
export function manifestPath(dir: string, to: string): string | null {
  const relative = path.relative(dir, to)
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null
  return relative.split(path.sep).join('/')
}

/** Reads and shape-checks a manifest from an untrusted download. */
export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, MANIFEST_FILE)
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new InputError('manifest.unreadable', `cannot read the manifest: ${(error as Error).message}`, { file })
  }
  const m = parsed as Partial<Manifest> | null
  const sidesOk = (sides: unknown): boolean =>
    sides !== null &&
    typeof sides === 'object' &&
    Object.entries(sides as Record<string, unknown>).every(
      ([side, record]) =>
        (side === 'baseline' || side === 'candidate') &&
        record !== null &&
        typeof record === 'object' &&
        typeof (record as SideRecord).complete === 'boolean' &&
        ((record as SideRecord).output_path === null || typeof (record as SideRecord).output_path === 'string')
    )
  const ok =
    m !== null &&
    typeof m === 'object' &&
    m.schema === MANIFEST_SCHEMA &&
    typeof m.fingerprint === 'string' &&
    sidesOk(m.sides) &&
    typeof m.complete === 'boolean' &&
    (m.helm_version === null || typeof m.helm_version === 'string')
  if (!ok) throw new InputError('manifest.invalid', 'the manifest does not have the expected shape', { file })
  return m as Manifest
}
