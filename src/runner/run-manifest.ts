/**
 * run-manifest.json: how the run directories next to it were made. Kept with the evidence so a
 * result can be traced to the exact HELM version, commands, servers and gate-file fingerprint.
 * Never holds a secret: commands carry none, prod_env files are redacted.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LaunchManifest } from '../launch/launcher.js'
import type { ProdEnvFileName } from './prod-env.js'
import type { ProbeResult } from './readiness.js'
import type { Side } from './side-plan.js'

export const RUN_MANIFEST_FILE = 'run-manifest.json'

export interface SideManifest {
  /** The HELM deployment name used in the run entries. */
  helm_deployment: string
  /** What the gate file says about the deployment (no secrets: only the key's variable name). */
  deployment: Record<string, unknown>
  /** GET {base_url}/models as answered before the run: the server's identity. */
  server: ProbeResult | null
  output_path: string
  suite: string
  log_file: string
  entries: string[]
  command: string[]
  prod_env: Partial<Record<ProdEnvFileName, string>>
  started_at: string | null
  ended_at: string | null
  duration_ms: number | null
  exit_code: number | null
  signal: string | null
  timed_out: boolean
  requests: number
  complete: boolean
  errors: { code: string; message: string }[]
}

export interface RunManifest {
  schema: 'helm-gate-run/1'
  tool_version: string
  config_source: string
  fingerprint: string
  helm_version: string
  self_check: boolean
  concurrent: boolean
  /** sequential: one side after the other (a load half cannot interleave blocks between them). */
  schedule?: 'sequential' | 'concurrent'
  /** Launched servers: commands, commits, pids, start/ready/stop times, image digests. */
  launch?: LaunchManifest | null
  started_at: string
  ended_at: string
  sides: Partial<Record<Side, SideManifest>>
}

export async function writeRunManifest(outDir: string, manifest: RunManifest): Promise<string> {
  const file = join(outDir, RUN_MANIFEST_FILE)
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`)
  return file
}
