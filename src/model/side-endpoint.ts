/**
 * One side's endpoint and key as the run plan (src/plan/run-plan.ts) resolves them, once, for
 * every measurement: here, below the plan, so a measurement's definition (measurement-part.ts)
 * can name it.
 */
import type { Api } from '../config/types.js'
import type { Side } from './verdict.js'

export interface SideEndpoint {
  side: Side
  baseUrl: string
  model: string
  api: Api
  /** The key from the variable the gate file names; null when it names none or the variable is empty. */
  apiKey: string | null
}
