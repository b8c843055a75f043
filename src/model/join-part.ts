/**
 * Joining a measurement's part to the report (model/measurement-part.ts): the part keeps its own
 * verdict and errors, the overall verdict is the worst of all (error > fail > inconclusive >
 * pass), and `quality` keeps the quality half as it stood before the first part joined, so
 * report.json never files a part's verdict under quality (docs/report.md). Pure.
 */
import type { ReportPart } from './measurement-part.js'
import type { Report } from './report.js'
import type { Verdict } from './verdict.js'

const RANK: Record<Verdict, number> = { pass: 0, inconclusive: 1, fail: 2, error: 3 }

export function worseOf(a: Verdict, b: Verdict): Verdict {
  return RANK[b] > RANK[a] ? b : a
}

/** The report with `part` joined; `data` is the part's own structured record (`{ fidelity: … }`). */
export function joinPart(report: Report, part: ReportPart, data: Partial<Report> = {}): Report {
  const quality = report.quality ?? { verdict: report.verdict, errors: report.errors.map(e => ({ ...e })) }
  const verdict = worseOf(report.verdict, part.verdict ?? 'pass')
  const decides = verdict !== report.verdict && part.verdict === verdict
  const headline = decides ? `${part.title} decides (${verdict}): ${part.summary}.` : report.headline
  return {
    ...report,
    verdict,
    headline,
    errors: [...report.errors, ...part.errors.map(e => ({ ...e }))],
    quality,
    parts: [...(report.parts ?? []).filter(p => p.key !== part.key), part],
    ...data
  }
}

/**
 * The quality half alone, as a report (for a join that must not count the parts twice, such as
 * the performance half's): its own verdict and errors, without the parts' errors.
 */
export function qualityAlone(report: Report): Report {
  if (!report.quality) return report
  return { ...report, verdict: report.quality.verdict, errors: report.quality.errors.map(e => ({ ...e })) }
}

/** The parts joined again after a join that started from `qualityAlone` (the verdict and errors they add). */
export function rejoinParts(joined: Report, parts: readonly ReportPart[]): Report {
  const verdict = parts.reduce<Verdict>((w, p) => worseOf(w, p.verdict ?? 'pass'), joined.verdict)
  const decider = verdict !== joined.verdict ? parts.find(p => p.verdict === verdict) : undefined
  const headline = decider ? `${decider.title} decides (${verdict}): ${decider.summary}. ${joined.headline}` : joined.headline
  return { ...joined, verdict, headline, errors: [...joined.errors, ...parts.flatMap(p => p.errors.map(e => ({ ...e })))] }
}
