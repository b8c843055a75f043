/**
 * Fidelity's part of the report (model/measurement-part.ts): what the console, the comment,
 * report.html and the decision line show of it, made here so that none of them names fidelity
 * (docs/fidelity.md). One row per check, verdict first, the value corrected by the A/A floor with
 * its interval, the candidate's own figure and the floor; then what an open check needs, how the
 * candidate was scored, where the flips fall, and the instances that moved most. Pure.
 */
import type { FidelityCheckRow, FidelityReport } from '../model/fidelity-report.js'
import type { PartStrip, PartTable, ReportPart } from '../model/measurement-part.js'
import type { ReportIssue, Verdict } from '../model/verdict.js'
import { counted } from '../words.js'

const ROUTE_TEXT: Record<FidelityReport['route'], string> = {
  'llamacpp-forced-grammar': 'teacher-forced (llama.cpp: a grammar of the baseline token ids, probabilities before the grammar)',
  'llamacpp-prefix': 'teacher-forced (llama.cpp: one request per position)',
  'vllm-prompt-logprobs': 'teacher-forced (vLLM prompt_logprobs)',
  'greedy-prefix': 'not teacher-forced: the shared greedy prefix only'
}

const ORDER: Verdict[] = ['pass', 'inconclusive', 'fail', 'error']

/** Four significant digits: KLs are small numbers. */
function num(x: number): string {
  return Number(x.toPrecision(4)).toString()
}

function worst(verdicts: Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((w, v) => (ORDER.indexOf(v) > ORDER.indexOf(w) ? v : w), 'pass')
}

/** `kld_mean 0.05 [0.04, 0.06], needs ≤ 0.02` */
function checkFigure(c: FidelityCheckRow): string {
  return `${c.metric} ${num(c.figure.corrected)} [${num(c.figure.ci.low)}, ${num(c.figure.ci.high)}], needs ${c.bound === 'min' ? '≥' : '≤'} ${num(c.threshold)}`
}

function decisionWords(checks: FidelityCheckRow[], verdict: Verdict, errors: ReportIssue[]): ReportPart['decision'] {
  if (errors.length > 0) {
    const text = `fidelity (${errors[0].message}${errors.length > 1 ? `, and ${errors.length - 1} more` : ''})`
    return { deciding: text, beside: text.replace(/^fidelity/, 'fidelity error') }
  }
  if (checks.length === 0) return null
  if (verdict === 'pass') {
    const text = `fidelity ${checks.length}/${checks.length} checks passed`
    return { deciding: text, beside: text }
  }
  const open = checks.filter(c => c.verdict === verdict)
  const more = open.length > 1 ? `, and ${open.length - 1} more` : ''
  return { deciding: `fidelity (${checkFigure(open[0])}${more})`, beside: `fidelity ${verdict} (${checkFigure(open[0])}${more})` }
}

function checksTable(f: FidelityReport): PartTable {
  return {
    columns: ['verdict', 'check', 'value [95% interval]', 'candidate', 'A/A floor'],
    numeric: [3, 4],
    rows: f.checks.map(c => [
      c.verdict,
      `${c.metric} ${c.bound === 'min' ? '≥' : '≤'} ${num(c.threshold)}`,
      `${num(c.figure.corrected)} [${num(c.figure.ci.low)}, ${num(c.figure.ci.high)}]`,
      num(c.figure.candidate),
      num(c.figure.floor)
    ]),
    verdicts: f.checks.map(c => c.verdict)
  }
}

function worstTable(f: FidelityReport): PartTable {
  const ratio = (x: number | null): string => (x === null ? '–' : num(x))
  return {
    columns: ['instance', 'tokens', 'top-1 agreement', 'KL mean', 'KL max', 'first divergence', 'length ratio'],
    numeric: [1, 2, 3, 4, 5, 6],
    page_only: true,
    rows: f.worst.map(r => [
      r.id,
      String(r.positions),
      num(r.top1Agreement),
      num(r.klMean),
      num(r.klMax),
      r.firstDivergence === null ? '–' : String(r.firstDivergence),
      ratio(r.lengthRatio)
    ])
  }
}

const signed = (x: number): string => `${x >= 0 ? '+' : ''}${num(x)}`

/**
 * The worst instances token by token: the baseline's token above the candidate's most likely
 * token at the same position, shaded by delta-p = p_C - p_B of the baseline's token.
 */
function strips(f: FidelityReport): PartStrip[] {
  return f.worst
    .filter(r => (r.tokens ?? []).length > 0)
    .map(r => ({
      id: r.id,
      label: `${r.id}: mean KL ${num(r.klMean)}, max KL ${num(r.klMax)}, top-1 agreement ${num(r.top1Agreement)}, mean delta-p ${signed(r.deltaPMean)}, first divergence ${r.firstDivergence === null ? 'none' : `at token ${r.firstDivergence}`}`,
      legend:
        "Baseline answer / candidate top-1, shaded by delta-p of the baseline's token (red: less probable on the candidate); framed where the candidate would pick another token",
      cells: (r.tokens ?? []).map((t, i) => ({
        above: t.baseline,
        below: t.candidate,
        value: Math.max(-1, Math.min(1, t.deltaP)),
        marked: t.candidate !== null && t.candidate !== t.baseline,
        title: `position ${i}: delta-p ${signed(t.deltaP)}`
      }))
    }))
}

/** `flips: 12 (sure 2, unsure 10)` and its sentence; absent without a teacher-forced route. */
export function flipsLines(f: FidelityReport): string[] {
  const d = f.direction
  if (!d) return ['Flips: not split (the greedy-prefix route compares answers, not positions scored on both sides).']
  return [`flips: ${d.flips} (sure ${d.sure.flips}, unsure ${d.unsure.flips})`, d.sentence]
}

/**
 * The part from fidelity's own report, or from its errors when it could not be completed (the
 * part then says so and decides as an error: fail closed).
 */
export function fidelityPart(f: FidelityReport | undefined, errors: ReportIssue[]): ReportPart {
  const checks = f?.checks ?? []
  const verdict: Verdict | null = errors.length > 0 ? 'error' : checks.length > 0 ? worst(checks.map(c => c.verdict)) : null
  const passed = checks.filter(c => c.verdict === 'pass').length
  const summary =
    verdict === 'error'
      ? 'the measurement could not be completed'
      : verdict === null
        ? 'reported, no check'
        : `${passed} of ${counted(checks.length, 'check')} passed`
  const lines: string[] = []
  const tables: PartTable[] = []
  if (f) {
    if (checks.length > 0) tables.push(checksTable(f))
    for (const c of checks) if (c.verdict !== 'pass') lines.push(c.reason)
    const shown = f.figures.map(x => `${x.metric} ${num(x.corrected)}`).join(', ')
    lines.push(
      `${f.instances} instances, ${f.positions} tokens, ${ROUTE_TEXT[f.route]}; top-${f.topK} (the KL is a lower bound: the baseline's mass outside the shared top-k, ${num(f.restMassMean)} on average, is one bucket). ${shown}.`,
      ...flipsLines(f),
      ...f.notes
    )
    if (f.worst.length > 0) tables.push(worstTable(f))
  }
  for (const e of errors) lines.push(`${e.code}: ${e.message}`)
  const strip = f ? strips(f) : []
  return {
    key: 'fidelity',
    title: 'Fidelity',
    verdict,
    summary,
    decision: decisionWords(checks, verdict ?? 'pass', errors),
    tables,
    lines,
    errors,
    ...(strip.length > 0 ? { strips: strip } : {})
  }
}
