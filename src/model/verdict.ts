/** The words every helm-gate record shares: a verdict, the two sides, an issue (an error or a warning). */
export type Verdict = 'pass' | 'fail' | 'inconclusive' | 'error'

/** The two deployments a gate compares. */
export type Side = 'baseline' | 'candidate'
export const SIDES: readonly Side[] = ['baseline', 'candidate']

export interface ReportIssue {
  code: string
  message: string
  file?: string
  field?: string
  value?: string
}
