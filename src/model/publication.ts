/**
 * Whether the job fails. The exit status follows the verdict so that the job itself can be the
 * required check (it works on forks, where the custom check run cannot be written).
 */
import type { Verdict } from '../report/model.js'
import type { InconclusivePolicy } from './inputs.js'

export function failsJob(verdict: Verdict, inconclusive: InconclusivePolicy): boolean {
  if (verdict === 'pass') return false
  if (verdict === 'inconclusive') return inconclusive === 'fail'
  return true
}

export function failureMessage(verdict: Verdict, headline: string): string {
  return `helm-gate verdict: ${verdict}. ${headline}`
}
