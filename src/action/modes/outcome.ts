import type { Verdict } from '../../model/report.js'

/** What a mode hands back to run(): the verdict decides the exit status. */
export interface ModeOutcome {
  verdict: Verdict
  headline: string
  /**
   * With a load half: what decided and its figure (report/decision.ts `detail`), which the job
   * log's last line shows instead of the joined headline.
   */
  decision?: string
}
