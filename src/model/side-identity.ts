/**
 * What each side of a report *is*, for the reader: the served deployment, the engine when the
 * server reports it, and where an archived baseline came from. Filled by `run` and the action from
 * the run manifest (a bare `compare` of two folders knows only HELM's deployment name). The
 * renderers name the sides by these; file-system paths stay in the JSON only.
 */
import { counted } from '../words.js'
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
  /** The serving configuration the server reports (chat template, sampling defaults); absent when it reports none. */
  serving?: ServingConfig
}

/**
 * Serving settings that change answers while the engine and the weights stay the same: the chat
 * template the server applies and its default sampling settings. llama.cpp reports both at
 * `GET /props`; vLLM serves its template at `GET /tokenizer_info` when started with
 * `--enable-tokenizer-info-endpoint`.
 */
export interface ServingConfig {
  /** Where it was read: `llama.cpp GET /props`, `vLLM GET /tokenizer_info`. */
  source: string
  chat_template: ChatTemplateIdentity | null
  /** Sampling-relevant defaults as the server reports them, by name (arrays joined with ","); null when none. */
  sampling: Record<string, string | number | boolean> | null
}

export interface ChatTemplateIdentity {
  /** SHA-256 (hex) of the template text as the server reports it. */
  sha256: string
  /** A built-in template's name when the server reports one (llama.cpp `--chat-template chatml`), else null. */
  name: string | null
  /** Length of the template text in characters. */
  length: number
}

/** One header row of the serving configuration: each side's cell (empty when unreported) and whether they differ. */
export interface ServingRow {
  baseline: string
  candidate: string
  /** Both sides reported it and the values differ. */
  differs: boolean
}

export interface ServingComparison {
  chat_template: ServingRow | null
  sampling: ServingRow | null
}

/**
 * The sampling settings a side's own requests sent, as the harness recorded them (HELM's
 * `adapter_spec` in each run's run_spec.json): what was used, where the server's defaults
 * (ServingConfig) are only what a request that sets nothing would get. A value the run spec does
 * not hold is null.
 */
export interface RequestSampling {
  temperature: number | null
  max_tokens: number | null
  stop_sequences: string[] | null
  num_outputs: number | null
}

/** One side's requested sampling: the header cell and every run entry's own settings. */
export interface RequestedSampling {
  /** The header cell: the settings every run entry sent, or "varies by run entry" when they differ. */
  cell: string
  /** Per run entry, by the run's readable name (models left out, as in the report's `run`). */
  by_entry: Record<string, RequestSampling>
}

/** The cell of a side whose run entries sent different settings (their values are in `by_entry`). */
export const VARIES_BY_ENTRY = 'varies by run entry'

/** One entry's settings as a header cell (pure): `temperature 0 · max_tokens 5 · stop ["\n"] · 1 output`. */
export function requestSamplingCell(s: RequestSampling): string {
  const parts: string[] = []
  if (s.temperature !== null) parts.push(`temperature ${s.temperature}`)
  if (s.max_tokens !== null) parts.push(`max_tokens ${s.max_tokens}`)
  // JSON text: a newline stop sequence reads `["\n"]`, not a line break.
  if (s.stop_sequences !== null) parts.push(`stop ${JSON.stringify(s.stop_sequences)}`)
  if (s.num_outputs !== null) parts.push(counted(s.num_outputs, 'output'))
  return parts.join(' · ')
}

/** Two entries' settings are the same request (pure). */
function sameSampling(a: RequestSampling, b: RequestSampling): boolean {
  return requestSamplingCell(a) === requestSamplingCell(b)
}

/**
 * A side's requested sampling from its run entries' settings (pure), or null when it has none.
 * The cell names the settings when every entry sent the same, else says they vary.
 */
export function requestedSampling(entries: Record<string, RequestSampling>): RequestedSampling | null {
  const values = Object.values(entries)
  if (values.length === 0) return null
  const cell = values.every(v => sameSampling(v, values[0])) ? requestSamplingCell(values[0]) : VARIES_BY_ENTRY
  return { cell, by_entry: entries }
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
  /** The sides' chat templates and sampling defaults as rows of the header, when a server reported them. */
  serving?: ServingComparison
}

/** The sampling settings named first in a cell, when the sides agree (the rest are in the JSON). */
const CORE_SAMPLING = ['temperature', 'top_k', 'top_p', 'min_p', 'repeat_penalty', 'seed', 'n_ctx'] as const

/**
 * The header rows for the serving configuration (pure): the chat template by name and hash
 * prefix, the sampling defaults by the settings that differ, or the core ones when none does.
 * Only values both sides reported are compared: an engine that reports nothing is not a change.
 */
export function compareServing(b: ServingConfig | null | undefined, c: ServingConfig | null | undefined): ServingComparison | null {
  const template = (t: ChatTemplateIdentity | null | undefined): string =>
    t ? `${t.name ? `${t.name} · ` : ''}sha256 ${t.sha256.slice(0, 12)} · ${t.length} chars` : ''
  const bt = b?.chat_template
  const ct = c?.chat_template
  const chat_template: ServingRow | null =
    bt || ct ? { baseline: template(bt), candidate: template(ct), differs: Boolean(bt && ct && bt.sha256 !== ct.sha256) } : null
  const bs = b?.sampling ?? null
  const cs = c?.sampling ?? null
  let sampling: ServingRow | null = null
  if (bs || cs) {
    const differing = bs && cs ? [...new Set([...Object.keys(bs), ...Object.keys(cs)])].filter(k => bs[k] !== cs[k]).sort() : []
    const keys = (own: Record<string, unknown>): string[] => (differing.length > 0 ? differing : CORE_SAMPLING.filter(k => k in own))
    const cell = (own: Record<string, string | number | boolean> | null): string =>
      own
        ? keys(own)
            .map(k => `${k} ${k in own ? String(own[k]) : '(unset)'}`)
            .join(' · ')
        : ''
    sampling = { baseline: cell(bs), candidate: cell(cs), differs: differing.length > 0 }
  }
  return chat_template || sampling ? { chat_template, sampling } : null
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

/** The header rows of a side's identity, in the order the renderers show them. */
export type IdentityRow = 'deployment' | 'engine' | 'chat_template' | 'requested_sampling' | 'sampling' | 'image' | 'weights'

/** Per header row: both sides know it and it differs (docs/report.md, "The header rows"). */
export type IdentityDiffers = Record<IdentityRow, boolean>

/**
 * The one owner of "these sides differ" for the header (pure): every renderer marks a row by it.
 * A value one side does not report is no difference. The host is left out of the deployment: two
 * sides always answer at different addresses, so it would mark every launched pair.
 */
export function identityDiffers(
  b: SideIdentity | null | undefined,
  c: SideIdentity | null | undefined,
  serving: ServingComparison | null | undefined,
  requests: { baseline?: RequestedSampling | null; candidate?: RequestedSampling | null } | null
): IdentityDiffers {
  const known = <T>(x: T | null | undefined, y: T | null | undefined): boolean =>
    x !== null && x !== undefined && y !== null && y !== undefined && x !== y
  const be = b?.engine
  const ce = c?.engine
  const bi = b?.image
  const ci = c?.image
  return {
    deployment: known(b?.model, c?.model) || known(b?.api, c?.api),
    engine: known(be?.version, ce?.version) || known(be?.root, ce?.root) || known(be?.details, ce?.details),
    chat_template: serving?.chat_template?.differs ?? false,
    requested_sampling: requestsDiffer(requests?.baseline, requests?.candidate),
    sampling: serving?.sampling?.differs ?? false,
    // The digest names the build; a tag is compared only when neither side has a digest.
    image: bi?.digest && ci?.digest ? bi.digest !== ci.digest : known(bi?.name, ci?.name),
    weights: known(b?.weights?.sha256, c?.weights?.sha256)
  }
}

/**
 * The sides' requests sent different sampling settings: an entry both sides ran with settings
 * that differ, or, when they share no entry name, different cells. An entry only one side ran is
 * reported by the pairing, not here.
 */
function requestsDiffer(b: RequestedSampling | null | undefined, c: RequestedSampling | null | undefined): boolean {
  if (!b || !c) return false
  const shared = Object.keys(b.by_entry).filter(name => name in c.by_entry)
  if (shared.length === 0) return b.cell !== c.cell
  return shared.some(name => !sameSampling(b.by_entry[name], c.by_entry[name]))
}
