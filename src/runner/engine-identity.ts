/**
 * The engine's identity, asked once a server is ready: the version it reports
 * (src/server/engine-version.ts) and, from the /models answer the readiness probe already has, the
 * served entry's `root`, `max_model_len` and `owned_by`; llama.cpp's /models entry also carries
 * `meta` (file type, parameters, size). Recorded in the manifest and named in the report's sides.
 * Information only: a server that does not answer /version is not an error.
 */
import type { Manifest, SideRecord } from '../model/manifest.js'
import type { EngineIdentity, ServingConfig, SideIdentity } from '../model/side-identity.js'
import { compareServing, hostOf } from '../model/side-identity.js'
import { SIDES, type Report, type Side } from '../model/report.js'
import { imageOf } from '../launch/docker.js'
import type { LaunchRecord } from '../model/launch-record.js'

/** The served model's entry in a /models answer: root, max_model_len, owned_by. */
export function modelEntry(response: unknown, model: string): Omit<EngineIdentity, 'version'> {
  const data = (response as { data?: unknown } | null)?.data
  const entry = Array.isArray(data)
    ? (data.find(e => (e as { id?: unknown })?.id === model) as Record<string, unknown> | undefined)
    : undefined
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, 200) : null)
  const details = llamaCppMeta(entry?.meta)
  return {
    root: text(entry?.root),
    max_model_len: typeof entry?.max_model_len === 'number' && Number.isFinite(entry.max_model_len) ? entry.max_model_len : null,
    owned_by: text(entry?.owned_by),
    ...(details ? { details } : {})
  }
}

/** llama.cpp's /models `meta` as one line: "Q4_0 · 1.25 M parameters · 0.8 MB"; null when absent. */
export function llamaCppMeta(meta: unknown): string | null {
  if (meta === null || typeof meta !== 'object') return null
  const m = meta as Record<string, unknown>
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0
  const parts: string[] = []
  if (typeof m.ftype === 'string' && m.ftype !== '') parts.push(m.ftype.slice(0, 40))
  if (count(m.n_params)) parts.push(`${compact(m.n_params)} parameters`)
  if (count(m.size)) parts.push(`${compact(m.size, 'B')}`)
  return parts.length > 0 ? parts.join(' · ') : null
}

function compact(n: number, unit = ''): string {
  const scale: Array<[number, string]> = unit
    ? [
        [1e9, ' GB'],
        [1e6, ' MB'],
        [1e3, ' kB']
      ]
    : [
        [1e9, ' B'],
        [1e6, ' M'],
        [1e3, ' k']
      ]
  for (const [size, suffix] of scale) if (n >= size) return `${(n / size).toFixed(n / size >= 100 ? 0 : 2)}${suffix}`
  return `${n}${unit ? ' B' : ''}`
}

/** What a manifest side record says the side is. */
export function sideIdentity(record: SideRecord | undefined, manifest: Manifest, side: Side): SideIdentity | undefined {
  if (!record) return undefined
  const deployment = (record.deployment ?? {}) as Record<string, unknown>
  const model = typeof deployment.model === 'string' ? deployment.model : null
  const server = record.server as { response?: unknown; engine_version?: unknown; serving_config?: ServingConfig | null } | null | undefined
  let engine: EngineIdentity | null = null
  if (server && model) {
    const entry = modelEntry(server.response, model)
    const version = typeof server.engine_version === 'string' ? server.engine_version : null
    const serving = server.serving_config ?? null
    if (version || entry.root || entry.max_model_len !== null || entry.owned_by || serving) {
      engine = { version, ...entry, ...(serving ? { serving } : {}) }
    }
  }
  const origin = record.source === 'archived' && manifest.baseline_origin ? { ...manifest.baseline_origin } : { kind: record.source }
  const identity: SideIdentity = {
    model,
    host: typeof deployment.base_url === 'string' ? hostOf(deployment.base_url) : null,
    api: typeof deployment.api === 'string' ? deployment.api : null,
    engine,
    origin: origin as SideIdentity['origin']
  }
  const docker = launchRecord(manifest, side)?.docker
  if (docker) identity.image = imageOf(docker)
  const weights = launchRecord(manifest, side)?.weights
  if (weights) identity.weights = { ...weights }
  return identity
}

/** The launch record that served `side` (a self-check's candidate is the baseline's server). */
function launchRecord(manifest: Manifest, side: Side): LaunchRecord | undefined {
  const sides = manifest.launch?.sides
  return sides?.[side] ?? (manifest.self_check ? sides?.baseline : undefined)
}

/** Names the report's sides and context from the manifest (paths stay as they are, in the JSON). */
export function attachIdentity(report: Report, manifest: Manifest): void {
  for (const side of SIDES) {
    const identity = sideIdentity(manifest.sides[side], manifest, side)
    if (identity) report[side].identity = identity
    if (!report[side].helm_version && manifest.helm_version) report[side].helm_version = manifest.helm_version
  }
  // Both sides' helm-run at the same time on this machine: the request times share one client.
  const bothRun = manifest.sides.baseline?.source === 'run' && manifest.sides.candidate?.source === 'run'
  report.context = { fingerprint: manifest.fingerprint, concurrent: bothRun && manifest.schedule === 'concurrent' }
  // The chat template and sampling defaults, compared once here for every renderer.
  const serving = compareServing(report.baseline.identity?.engine?.serving, report.candidate.identity?.engine?.serving)
  if (serving) report.context.serving = serving
}
