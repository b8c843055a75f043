import { describe, expect, test } from '@jest/globals'
import { renderConsole } from '../../src/report/console.js'
import { makeComparison, makeReport } from './make-report.js'

const report = makeReport({
  verdict: 'error',
  headline: 'A run failed\u001b[2J and the gate cannot decide.',
  errors: [{ code: 'helm.run_failed', message: 'exit 1\u001b[31m fake PASS', file: 'out/\u0007x' }],
  warnings: [{ code: 'guard.drift', message: 'max_tokens differs' }],
  comparisons: [
    makeComparison({ run: 'evil\u001b[32mPASS\u001b[0m\nrun', verdict: 'fail' }),
    makeComparison({ metric: 'f1', binary: false, gated: false, wins: 3, losses: 4 }),
    makeComparison({ run: 'gsm8k', verdict: 'inconclusive', n: 1234 })
  ]
})

describe('renderConsole', () => {
  const plain = renderConsole(report, { color: false })
  const coloured = renderConsole(report, { color: true })

  test('without colour there is no escape character at all, even from hostile text', () => {
    expect(plain).not.toContain('\x1b')
    expect(plain).toContain('evil\\x1b[32mPASS\\x1b[0m\\nrun')
    expect(plain).toContain('out/\\x07x')
  })

  test('with colour, only the renderer emits escape sequences', () => {
    expect(coloured).toContain('\x1b[31m')
    expect(coloured).not.toContain('\x1b[2J')
    expect(coloured).toContain('A run failed\\x1b[2J')
  })

  test('one aligned row per comparison: verdict, delta, interval, n, flips', () => {
    const lines = plain.split('\n')
    const header = lines.findIndex(l => l.startsWith('VERDICT'))
    expect(header).toBeGreaterThan(0)
    const rows = lines.slice(header + 1, header + 1 + report.comparisons.length)
    expect(rows.map(r => r.split(/\s+/)[0])).toEqual(['fail', 'info', 'inconclusive'])
    const deltaEnd = lines[header].indexOf('DELTA') + 'DELTA'.length
    for (const row of rows) expect(row.slice(0, deltaEnd).endsWith('+0.0050')).toBe(true)
    expect(rows[0]).toContain('[-0.0100, +0.0200]')
    expect(rows[0]).toContain('+12/-11')
    expect(rows[1]).toContain('3↑/4↓')
    expect(rows[2]).toContain('1,234')
  })

  test('errors before warnings, overall verdict last', () => {
    const lines = plain.trimEnd().split('\n')
    expect(plain.indexOf('Errors (1):')).toBeLessThan(plain.indexOf('Warnings (1):'))
    expect(lines[lines.length - 1]).toMatch(/^Overall: ERROR: A run failed/)
  })

  test('colour does not change the text once codes are removed', () => {
    expect(coloured.replace(/\x1b\[\d+m/g, '')).toBe(plain)
  })
})

describe('renderConsole: the identity rows that differ', () => {
  const side = (api: string) => ({
    path: '/tmp/x',
    runs: ['mmlu'],
    deployment: 'd',
    helm_version: null,
    identity: { model: 'tiny', host: '127.0.0.1:1', api, engine: null, origin: null }
  })

  test('chat against completions names the deployment; equal sides say nothing', () => {
    expect(renderConsole(makeReport({ baseline: side('chat'), candidate: side('completions') }), { color: false })).toContain(
      'sides differ in: deployment'
    )
    expect(renderConsole(makeReport({ baseline: side('chat'), candidate: side('chat') }), { color: false })).not.toContain('sides differ')
  })
})
