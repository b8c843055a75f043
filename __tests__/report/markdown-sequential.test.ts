import { describe, expect, it } from '@jest/globals'
import type { Comparison, SequentialRow } from '../../src/model/report.js'
import { renderSequentialMarkdown, sequentialConsoleLines } from '../../src/report/markdown-sequential.js'
import { stopPhrase as sequentialPhrase } from '../../src/report/sequence-plot.js'

const STOP: SequentialRow = {
  stopped_at: 120,
  budget: 500,
  decision: 'pass',
  certain: true,
  looks: [
    { n: 60, low: -0.2, high: 0.1, decision: 'continue' },
    { n: 120, low: -0.04, high: 0.03, decision: 'pass' }
  ],
  requests_spent: 360,
  requests_fixed: 1000
}

const row = (sequential?: SequentialRow): Comparison =>
  ({ run: 'simple_mcqa:model=gate', metric: 'exact_match', verdict: sequential?.decision ?? 'pass', gated: true, sequential }) as Comparison

describe('sequential verdict wording', () => {
  it('says where the sequence stopped', () => {
    expect(sequentialPhrase(STOP)).toBe('stopped early at n = 120 of 500 (certain)')
    expect(sequentialPhrase({ ...STOP, stopped_at: 500, decision: 'inconclusive', certain: false })).toBe(
      'ran to the budget (n = 500): inconclusive'
    )
    expect(sequentialPhrase({ ...STOP, stopped_at: 500, decision: 'fail' })).toBe('decided at the budget (n = 500): fail (certain)')
  })

  it('gives the comment a section and the console a line per sequential row, nothing without them', () => {
    const lines = renderSequentialMarkdown([row(STOP), row()])
    expect(lines[0]).toBe('### Sequential verdicts')
    expect(lines.filter(line => line.startsWith('- '))).toEqual([
      '- ✅ `simple_mcqa:model=gate` `exact_match`: stopped early at n = 120 of 500 (certain); 360 instance requests spent on both sides (the fixed design: 1000)'
    ])
    expect(renderSequentialMarkdown([row()])).toEqual([])
    expect(sequentialConsoleLines([row(STOP), row()])).toEqual([
      'sequential simple_mcqa:model=gate exact_match: pass: stopped early at n = 120 of 500 (certain); 360 instance requests spent on both sides (the fixed design: 1000)'
    ])
  })
})
