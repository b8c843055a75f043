import type { Verdict } from '../../report/model.js'

/** What a mode hands back to run(): the verdict decides the exit status. */
export interface ModeOutcome {
  verdict: Verdict
  headline: string
}
