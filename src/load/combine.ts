/**
 * Joining the performance half to the report (docs/load.md, "The verdict"): `report.load` holds
 * the load section; the overall verdict is the worse of the two halves (error > fail >
 * inconclusive > pass) and the headline says which half decided it. Pure.
 */
import type { GateConfig } from '../config/types.js'
import type { LoadReport } from '../model/load-report.js'
import { newReport, type Report } from '../model/report.js'
import { VERDICT_RANK as RANK, worstVerdict } from './ratio-checks.js'

export function attachLoad(report: Report, load: LoadReport): Report {
  const quality = report.verdict
  const verdict = worstVerdict([quality, load.verdict])
  let headline: string
  if (verdict === 'pass') headline = `Both halves pass. Quality: ${report.headline} ${load.headline}`
  else if (RANK[load.verdict] > RANK[quality]) headline = `Decided by the performance half. ${load.headline} (Quality: ${quality}.)`
  else if (RANK[quality] > RANK[load.verdict]) headline = `Decided by the quality half. ${report.headline} (Performance: ${load.verdict}.)`
  else headline = `Both halves: ${verdict}. Quality: ${report.headline} ${load.headline}`
  const warnings = [...report.warnings, ...load.warnings.map(w => ({ ...w }))]
  const errors = [...report.errors, ...load.errors.map(e => ({ ...e }))]
  // The quality half as it stood before the join: the decision line (src/report/decision.ts)
  // names each half's verdict and reads it here instead of re-deriving it from the joined report.
  const qualityHalf = { verdict: quality, errors: report.errors.map(e => ({ ...e })) }
  return { ...report, verdict, headline, errors, warnings, load, quality: qualityHalf }
}

/** The report of `helm-gate load` (or `run --only load`): the performance half alone. */
export function loadOnlyReport(config: GateConfig, load: LoadReport): Report {
  const side = (s: 'baseline' | 'candidate'): Report['baseline'] => {
    const d = config.deployments?.[s]
    return {
      path: d && d.kind === 'server' ? d.baseUrl : '',
      runs: [],
      deployment: d && d.kind === 'server' ? d.model : null,
      helm_version: null
    }
  }
  return newReport(config.statistics, {
    verdict: load.verdict,
    headline: `Performance half only. ${load.headline}`,
    errors: load.errors.map(e => ({ ...e })),
    warnings: load.warnings.map(w => ({ ...w })),
    baseline: side('baseline'),
    candidate: side('candidate'),
    notes: ['The quality half did not run (helm-gate load, or run --only load).'],
    load
  })
}
