/** What the load generator records per request (one line of the timings JSONL, docs/load.md). */
import type { LoadSide } from '../model/load-report.js'

export type RequestStatus = 'ok' | 'error' | 'timeout'

export interface RequestTiming {
  side: LoadSide
  level: number
  /** Position of the block in the level's run order. */
  block: number
  repetition: number
  /** The request's number within its block. */
  index: number
  /** When the request was handed to the connection, ms since the load half started. */
  send_ms: number
  /**
   * Open loop: when the request was due by the arrival schedule, ms since the load half started
   * (`send_ms` minus it is how late it left); null in a closed loop. Absent in timings written
   * before it was recorded.
   */
  scheduled_ms?: number | null
  /** Send to the first chunk carrying generated content; null when none arrived. */
  ttft_ms: number | null
  /** Gaps between consecutive content chunks. */
  itl_ms: number[]
  /** Send to the end of the stream. */
  latency_ms: number | null
  output_tokens: number
  /** `usage` from the server, or `chunks` (content chunks counted) when it sent none. */
  tokens_from: 'usage' | 'chunks'
  prompt_tokens: number | null
  status: RequestStatus
  error: string | null
  /** The response id the server gave (to match the server's own logs). */
  id: string | null
}
