/**
 * The frozen traffic set: the team's own chat requests, sampled and scrubbed by
 * `helm-gate traffic build`, replayed on both sides by the traffic gate (docs/traffic.md).
 * One JSON object per line of a `.jsonl` file; the file is committed to the repository and the
 * gate's fingerprint covers its bytes.
 */

/** One chat message as the OpenAI chat-completions API takes it (content may be parts or null). */
export interface TrafficMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool'
  content: unknown
  name?: string
  tool_calls?: unknown[]
  tool_call_id?: string
}

/**
 * The request as the team sent it: a chat-completions body without `model` and `stream`, which
 * the gate sets per side. Every other field (`response_format`, `tools`, `tool_choice`, `stop`,
 * `max_tokens`/`max_completion_tokens`, `temperature`, `seed`, ...) is kept as logged.
 */
export interface TrafficRequest {
  messages: TrafficMessage[]
  [field: string]: unknown
}

export interface TrafficInstance {
  /** Stable, unique within the set: the log's `custom_id`/`id` when it had one, else `t-<n>`. */
  id: string
  /** The sampling stratum: `<tag or "all">/<length bucket>`, e.g. `billing/medium`. */
  stratum: string
  /** The log's tag field, when it had one (used for stratifying and for filters in reports). */
  tag: string | null
  request: TrafficRequest
  /** A reference answer, when the log carries one; judged with exact match, F1 and ROUGE-L. */
  reference: string | null
  /** The logged response's first choice message, when the log carries one (kept for review). */
  logged_response: { content: string | null; tool_calls?: unknown[]; finish_reason?: string } | null
  /** Milliseconds after the first sampled request, when the log had timestamps (load replay). */
  arrival_ms: number | null
}
