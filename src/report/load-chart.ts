/**
 * A monospace scatter of output throughput (x) against TTFT p99 (y) per level, both sides, for
 * the PR comment and the console. Each point is its side's letter (B baseline, C candidate)
 * followed by the level's number in the legend. Pure.
 */
import type { LoadReport } from '../model/load-report.js'

const WIDTH = 44
const HEIGHT = 10

function short(x: number): string {
  if (!Number.isFinite(x)) return '—'
  if (Math.abs(x) >= 1000) return `${(x / 1000).toPrecision(3)}k`
  const text = x.toPrecision(3)
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text
}

export function loadChart(load: LoadReport): string[] {
  const points: Array<{ x: number; y: number; label: string }> = []
  load.summary.forEach((s, i) => {
    for (const side of ['baseline', 'candidate'] as const) {
      const f = s[side]
      const y = f.ttft_ms.p99
      if (y === null || !Number.isFinite(f.output_tokens_per_second)) continue
      points.push({ x: f.output_tokens_per_second, y, label: `${side === 'baseline' ? 'B' : 'C'}${i + 1}` })
    }
  })
  if (points.length === 0) return []
  const xMax = Math.max(...points.map(p => p.x)) || 1
  const yMax = Math.max(...points.map(p => p.y)) || 1
  const grid = Array.from({ length: HEIGHT }, () => Array.from({ length: WIDTH }, () => ' '))
  for (const p of points) {
    const col = Math.min(WIDTH - p.label.length, Math.round((p.x / xMax) * (WIDTH - p.label.length)))
    const row = HEIGHT - 1 - Math.min(HEIGHT - 1, Math.round((p.y / yMax) * (HEIGHT - 1)))
    for (let k = 0; k < p.label.length; k++) grid[row][col + k] = p.label[k]
  }
  const yLabel = `${short(yMax)} ms`
  const pad = Math.max(yLabel.length, 4)
  const lines = ['TTFT p99 (ms) against output tokens/s, per level; B = baseline, C = candidate']
  grid.forEach((row, r) => {
    const label = r === 0 ? yLabel : r === HEIGHT - 1 ? '0' : ''
    lines.push(`${label.padStart(pad)} |${row.join('').trimEnd()}`)
  })
  lines.push(`${' '.repeat(pad)} +${'-'.repeat(WIDTH)}`)
  lines.push(`${' '.repeat(pad)}  0${`${short(xMax)} tok/s`.padStart(WIDTH - 1)}`)
  const unit = load.mode === 'concurrency' ? 'concurrency' : 'rate'
  lines.push(`levels: ${load.summary.map((s, i) => `${i + 1} = ${unit} ${s.level}${load.mode === 'rate' ? '/s' : ''}`).join(', ')}`)
  return lines
}
