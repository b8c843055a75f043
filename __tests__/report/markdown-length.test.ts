import { describe, expect, it } from '@jest/globals'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import { answerLengthRow, HELM_CHARACTERS_UNIT, TOKENS_UNIT } from '../../src/gate/answer-length.js'
import { renderAnswerLengthMarkdown } from '../../src/report/markdown-length.js'

const stats = { ...DEFAULT_STATISTICS, resamples: 1000 }
const base = Array.from({ length: 50 }, (_, i) => 10 + (i % 7))

describe('renderAnswerLengthMarkdown', () => {
  it('is nothing without rows', () => {
    expect(renderAnswerLengthMarkdown(undefined)).toEqual([])
    expect(renderAnswerLengthMarkdown([])).toEqual([])
  })

  it('shows one row per measurement, verdict first; ungated rows say reported; open checks give their reason', () => {
    const longer = answerLengthRow(
      'helm',
      'run_a',
      TOKENS_UNIT,
      base,
      base.map(x => x * 2),
      { min: 0.8, max: 1.25 },
      stats
    )
    const same = answerLengthRow('traffic', 'traffic', TOKENS_UNIT, base, base, null, stats)
    const lines = renderAnswerLengthMarkdown([longer, same])
    const mean = base.reduce((a, b) => a + b, 0) / base.length
    expect(lines[0]).toBe('### Answer length')
    const m = (x: number): string => String(Number(x.toFixed(2)))
    expect(lines).toContain(
      `| ❌ fail | run\\_a<br>helm | **2×**<br>[2, 2] | ≥ 0.8<br>≤ 1.25 | ${m(mean)} → ${m(2 * mean)}<br>output tokens, 50 |`
    )
    expect(lines).toContain(
      `| ℹ️ reported<br>(pass) | traffic<br>traffic | **1×**<br>[1, 1] | ≥ 0.8<br>≤ 1.25<br>(not gated) | ${m(mean)} → ${m(mean)}<br>output tokens, 50 |`
    )
    expect(lines.some(l => l.startsWith('- helm `run_a`: answer\\_length\\_ratio 2× \\[2, 2\\]: the whole interval is outside'))).toBe(true)
  })

  it('keeps the unit short in the table and says the fallback once; run names are escaped', () => {
    const row = answerLengthRow('helm', 'run` @team <b>', HELM_CHARACTERS_UNIT, base, base, null, stats)
    const text = renderAnswerLengthMarkdown([row, { ...row, run: 'other' }]).join('\n')
    expect(text).toContain('<br>characters, 50 |')
    expect(text.split('HELM recorded no output tokens').length - 1).toBe(1)
    // The run name is untrusted: markup and mentions are neutralised.
    expect(text).not.toContain('<b>')
    expect(text).not.toContain(' @team')
  })
})
