import type { Verdict } from '../../model/report.js'

/** What a mode hands back to run(): the verdict decides the exit status. */
export interface ModeOutcome {
  verdict: Verdict
  headline: string
}
