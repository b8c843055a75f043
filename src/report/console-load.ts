/** The load half for a terminal: the checks as an aligned table and the throughput/TTFT chart. */
import { escapeTerminal, truncateText } from './escape.js'
import { loadChart } from './load-chart.js'
import type { LoadReport } from '../model/load-report.js'
import { checkName, levelLabel, loadValue, ratioText } from './load-text.js'
import { loadScheduleText } from './load-schedule.js'

const safe = (text: string, max: number): string => truncateText(escapeTerminal(text), max)

export function renderLoadConsole(load: LoadReport | undefined): string[] {
  if (!load) return []
  const out = ['', safe(load.headline, 400)]
  if (load.skipped) return out
  if (load.checks.length > 0) {
    const header = ['VERDICT', 'CHECK', 'LEVEL', 'BASELINE', 'CANDIDATE', 'RATIO [INTERVAL]']
    const rows = load.checks.map(c => [
      c.verdict,
      safe(checkName(c), 60),
      levelLabel(load, c.level),
      loadValue(c.metric, c.baseline),
      loadValue(c.metric, c.candidate),
      ratioText(c)
    ])
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)))
    const line = (cells: string[]): string =>
      cells
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd()
    out.push('', line(header), ...rows.map(line))
  }
  const chart = loadChart(load)
  if (chart.length) out.push('', ...chart)
  out.push(`  schedule: ${load.settings.repetitions} blocks per side per level, ${safe(loadScheduleText(load), 400)}`)
  for (const note of load.notes.slice(0, 10)) out.push(`  note: ${safe(note, 400)}`)
  return out
}
