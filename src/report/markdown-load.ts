/**
 * The "Performance" section of the PR comment (docs/load.md): the load half's verdict and count, one row
 * per check (baseline, candidate, ratio with its interval, verdict), what an inconclusive check
 * needs, and the throughput/TTFT chart. Pure; every server-provided text is escaped.
 */
import { codeBlock, codeSpan, escapeInline } from './escape.js'
import { formatLevel, VERDICT_EMOJI, VERDICT_WORD } from './format.js'
import { loadChart } from './load-chart.js'
import type { LoadReport } from '../model/load-report.js'
import { checkName, levelLabel, loadValue, ratioText } from './load-text.js'
import { loadScheduleText } from './load-schedule.js'

export function renderLoadMarkdown(load: LoadReport | undefined): string[] {
  if (!load) return []
  // Each thing once: the heading holds the verdict and the count, the table each check's figure
  // and verdict, the list below it what an open check needs. The load half's own headline
  // ("Performance: pass: all 5 load checks passed.") would repeat the heading, so it is not shown.
  if (load.skipped) return ['### ⚠️ Performance: Skipped', '', `> [!WARNING]`, `> ${escapeInline(load.skipped, 600)}`, '']
  const lines = [`### ${VERDICT_EMOJI[load.verdict]} Performance: ${VERDICT_WORD[load.verdict]}${countText(load)}`, '']
  if (load.checks.length === 0 && load.errors.length > 0) {
    lines.push(
      `No check could be evaluated: the load half stopped with ${load.errors.length === 1 ? 'the error' : 'the errors'} listed above.`,
      ''
    )
  }
  if (load.checks.length > 0) {
    lines.push(
      `| check | level | baseline | candidate | ratio [${formatLevel(load.settings.confidence)} interval] | verdict |`,
      '|---|---|--:|--:|---|---|'
    )
    for (const c of load.checks) {
      lines.push(
        `| ${checkName(c, m => codeSpan(m, { inTable: true, maxLength: 60 }))} | ${levelLabel(load, c.level)} | ${loadValue(c.metric, c.baseline)} | ${loadValue(c.metric, c.candidate)} | ${ratioText(c)} | ${VERDICT_EMOJI[c.verdict]} ${c.verdict} |`
      )
    }
    lines.push('')
  }
  const open = load.checks.filter(c => c.verdict === 'inconclusive' || c.verdict === 'error')
  for (const c of open) lines.push(`- ${escapeInline(`${checkName(c)} at ${levelLabel(load, c.level)}: ${c.reason}`, 400)}`)
  if (open.length) lines.push('')
  const chart = loadChart(load)
  if (chart.length) lines.push(codeBlock(chart.join('\n'), 'text'), '')
  lines.push(
    `_${load.settings.repetitions} blocks per side per level, ${escapeInline(loadScheduleText(load), 400)}; ratio intervals are ${escapeInline(load.settings.interval_method, 80)} over adjacent block pairs; percentiles ${escapeInline(load.settings.percentile_method, 120)}.${load.timings_file ? ` Per-request timings: ${escapeInline(load.timings_file, 80)} in the artifact.` : ''}_`
  )
  for (const note of load.notes.slice(0, 10)) lines.push(`- ${escapeInline(note, 400)}`)
  lines.push('')
  return lines
}

/** ` (1 of 2 checks failed)`: how many checks share the section's verdict. */
function countText(load: LoadReport): string {
  const n = load.checks.length
  if (n === 0) return ''
  const same = load.checks.filter(c => c.verdict === load.verdict).length
  const word = { pass: 'passed', fail: 'failed', inconclusive: 'inconclusive', error: 'could not be evaluated' }[load.verdict]
  if (same === 0) return ''
  return same === n ? ` (${n === 1 ? 'the check' : `all ${n} checks`} ${word})` : ` (${same} of ${n} checks ${word})`
}
