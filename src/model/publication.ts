/**
 * The publication policy, in one place: what a verdict means for the exit status (CLI and job),
 * the check run's conclusion, and how long each destination's text may be. The exit status
 * follows the verdict so that the job itself can be the required check (it works on forks, where
 * the custom check run cannot be written).
 */
import type { Verdict } from './report.js'

/** What an inconclusive verdict does: it blocks like a failure unless the workflow chose neutral. */
export type InconclusivePolicy = 'fail' | 'neutral'
export type CheckConclusion = 'success' | 'failure' | 'neutral'

/** GitHub's limits per destination, in characters (UTF-16 units) unless said otherwise. */
export const LIMITS = {
  /** Issue and PR comment bodies: GitHub answers 422 "Body is too long" above this. */
  comment: 65536,
  /** Check-run output.summary and output.text, each. */
  checkOutput: 65535,
  /** GitHub does not document a title limit; the checks UI shows about one line. */
  checkTitle: 255,
  /** $GITHUB_STEP_SUMMARY (UTF-8 bytes): the runner refuses more than 1 MiB per step; keep a margin. */
  jobSummary: 1_000_000,
  /** The CLI's report.md: a comment body with room for the action's links and marker. */
  markdownFile: 65_000
} as const

/** CLI exit status: 0 pass, 1 fail or inconclusive, 2 error. */
export function exitCode(verdict: Verdict): 0 | 1 | 2 {
  if (verdict === 'pass') return 0
  if (verdict === 'error') return 2
  return 1
}

/** Whether the action's job fails. */
export function failsJob(verdict: Verdict, inconclusive: InconclusivePolicy): boolean {
  if (verdict === 'pass') return false
  if (verdict === 'inconclusive') return inconclusive === 'fail'
  return true
}

export function checkConclusion(verdict: Verdict, inconclusive: InconclusivePolicy): CheckConclusion {
  if (verdict === 'pass') return 'success'
  if (verdict === 'inconclusive' && inconclusive === 'neutral') return 'neutral'
  return 'failure'
}

/** The job's failure line: the verdict and the headline, or what decided it when two halves ran. */
export function failureMessage(verdict: Verdict, headline: string, decision?: string): string {
  return decision === undefined ? `helm-gate verdict: ${verdict}. ${headline}` : `helm-gate verdict: ${verdict}: ${decision}`
}

/**
 * Cuts a body to a limit at a line boundary, closes an open code fence and says where the full
 * report is. The renderers already budget their length; this is the last guard before GitHub.
 */
export function fitBody(body: string, max: number, where = 'the job summary and the report artifact'): string {
  if (body.length <= max) return body
  const notice = `\n\n… truncated to fit GitHub's ${max}-character limit; the full report is in ${where}.\n`
  let cut = body.slice(0, Math.max(0, max - notice.length - 8))
  const lastNewline = cut.lastIndexOf('\n')
  if (lastNewline > cut.length / 2) cut = cut.slice(0, lastNewline)
  const fences = (cut.match(/^```/gm) ?? []).length
  if (fences % 2 === 1) cut += '\n```'
  return `${cut}${notice}`.slice(0, max)
}
