/**
 * The "Fidelity" section of the PR comment (docs/fidelity.md): one row per check, verdict first,
 * the value corrected by the A/A floor with its interval, the candidate's own figure and the floor;
 * then what an open check needs and how the candidate was scored. Pure; every text is escaped.
 */
import { codeSpan, escapeInline } from './escape.js'
import { VERDICT_EMOJI, VERDICT_WORD } from './format.js'
import type { FidelityReport } from '../model/fidelity-report.js'
import type { Verdict } from '../model/verdict.js'

const ROUTE_TEXT: Record<FidelityReport['route'], string> = {
  'llamacpp-forced-grammar': 'teacher-forced (llama.cpp: a grammar of the baseline token ids, probabilities before the grammar)',
  'llamacpp-prefix': 'teacher-forced (llama.cpp: one request per position)',
  'vllm-prompt-logprobs': 'teacher-forced (vLLM prompt_logprobs)',
  'greedy-prefix': 'not teacher-forced: the shared greedy prefix only'
}

function num(x: number): string {
  return Number(x.toPrecision(4)).toString()
}

export function renderFidelityMarkdown(fidelity: FidelityReport | undefined): string[] {
  if (!fidelity) return []
  const order: Verdict[] = ['pass', 'inconclusive', 'fail']
  const verdict = fidelity.checks.reduce<Verdict>((w, c) => (order.indexOf(c.verdict) > order.indexOf(w) ? c.verdict : w), 'pass')
  const count = fidelity.checks.length
  const passed = fidelity.checks.filter(c => c.verdict === 'pass').length
  const lines = [
    `### ${count ? VERDICT_EMOJI[verdict] : 'ℹ️'} Fidelity: ${count ? `${VERDICT_WORD[verdict]} (${passed} of ${count} checks passed)` : 'reported, no check'}`,
    ''
  ]
  if (count > 0) {
    lines.push('| verdict | check | value [95% interval] | candidate | A/A floor |', '|---|---|---|--:|--:|')
    for (const c of fidelity.checks) {
      const bound = `${c.bound === 'min' ? '≥' : '≤'} ${num(c.threshold)}`
      lines.push(
        `| ${VERDICT_EMOJI[c.verdict]} ${c.verdict} | ${codeSpan(c.metric, { inTable: true })} ${bound} | ${num(c.figure.corrected)} [${num(c.figure.ci.low)}, ${num(c.figure.ci.high)}] | ${num(c.figure.candidate)} | ${num(c.figure.floor)} |`
      )
    }
    lines.push('')
    for (const c of fidelity.checks.filter(x => x.verdict !== 'pass')) lines.push(`- ${escapeInline(c.reason, 400)}`)
    if (fidelity.checks.some(x => x.verdict !== 'pass')) lines.push('')
  }
  const shown = fidelity.figures.map(f => `${f.metric} ${num(f.corrected)}`).join(', ')
  lines.push(
    `${fidelity.instances} instances, ${fidelity.positions} tokens, ${ROUTE_TEXT[fidelity.route]}; top-${fidelity.topK} (the KL is a lower bound: the baseline's mass outside the shared top-k, ${num(fidelity.restMassMean)} on average, is one bucket). ${escapeInline(shown, 400)}.`,
    ''
  )
  for (const note of fidelity.notes) lines.push(`> ${escapeInline(note, 400)}`, '')
  return lines
}
