/**
 * What each side of a report *is*, for the reader: the served deployment, the engine when the
 * server reports it, and where an archived baseline came from. Filled by `run` and the action from
 * the run manifest (a bare `compare` of two folders knows only HELM's deployment name). The
 * renderers name the sides by these; file-system paths stay in the JSON only.
 */
import type { BaselineOrigin } from './manifest.js'

/** What the server says about itself (GET {base_url}/version, the /v1/models entry). */
export interface EngineIdentity {
  /** `GET {base_url}/version` (vLLM answers `{"version": "0.6.3"}`), or null. */
  version: string | null
  /** The /models entry's `root` (the weights the name points at), or null. */
  root: string | null
  max_model_len: number | null
  owned_by: string | null
  /**
   * What the /models entry says about the weights beyond `root`, when it says more: llama.cpp's
   * `meta` (file type, parameters, size: "Q4_0 · 1.25 M parameters · 0.8 MB"), the one fact that
   * tells a quantized candidate from its baseline when both serve the same name.
   */
  details?: string
}

/** Where a side came from: the manifest's baseline origin, which an `artifact` side may also be. */
export interface SideOrigin extends Omit<BaselineOrigin, 'kind'> {
  /** run: measured by this gate; archived: a reused baseline; artifact: taken from shard artifacts. */
  kind: 'run' | 'archived' | 'artifact' | 'given'
}

/** The container image a launched `docker run` side ran (src/launch/docker.ts), when known. */
export interface ImageIdentity {
  /** The image as the launch command names it (`vllm/vllm-openai:v0.11.0`). */
  name: string
  /** The registry digest (`sha256:...`) of that image, or null when the image has none (built locally). */
  digest: string | null
  /** The local image id (`sha256:...`), or null. */
  id: string | null
  /** Why docker could not be asked, when it could not. */
  error: string | null
}

export interface SideIdentity {
  /** The served model name. */
  model: string | null
  /** host[:port] of base_url, never credentials or the path. */
  host: string | null
  /** chat or completions. */
  api: string | null
  engine: EngineIdentity | null
  origin: SideOrigin | null
  /** A launched `docker run` side's image; absent when the side was not launched by docker. */
  image?: ImageIdentity | null
  /** A launched side's `--model FILE` by content (src/launch/weights.ts); absent otherwise. */
  weights?: { file: string; bytes: number | null; sha256: string | null; error: string | null } | null
}

/** Facts about the whole gate that the renderers show next to the sides. */
export interface ReportContext {
  /** The gate set's fingerprint (docs/gate-file.md), when known. */
  fingerprint: string | null
  /** Both sides' helm-run ran at the same time (request-time ratios then reflect the client too). */
  concurrent: boolean | null
}

/** host[:port] of a base URL without user, password, path or query; null when it does not parse. */
export function hostOf(baseUrl: string): string | null {
  try {
    const url = new URL(baseUrl)
    return url.host || null
  } catch {
    return null
  }
}
