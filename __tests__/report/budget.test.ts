import { describe, expect, test } from '@jest/globals'
import { UsageError } from '../../src/errors.js'
import { cutAtLineBoundary, measure, utf8Length } from '../../src/report/budget.js'
import { structureOf } from './markdown-checks.js'

const NOTICE = '_truncated_'

describe('utf8Length', () => {
  test.each(['', 'abc', 'é', '漢字', '😀', 'a😀é漢', '\uD800 lone'])('%j agrees with Buffer.byteLength', text => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'))
  })
})

describe('cutAtLineBoundary', () => {
  const body = [
    'HEAD',
    '',
    '<details>',
    '<summary>s</summary>',
    '',
    '````text',
    ...Array.from({ length: 50 }, (_, i) => `line ${i} \`\`\` </details>`),
    '````',
    '',
    '</details>',
    '',
    'after'
  ].join('\n')

  test('text within the budget is returned unchanged', () => {
    expect(cutAtLineBoundary(body, body.length, 'utf16', NOTICE, 1)).toBe(body)
  })

  test.each([120, 300, 700, body.length - 1])('a cut at %d closes the open fence and details, then the notice', limit => {
    const out = cutAtLineBoundary(body, limit, 'utf16', NOTICE, 1)
    expect(out.length).toBeLessThanOrEqual(limit)
    expect(out.startsWith('HEAD\n')).toBe(true)
    expect(out.trimEnd().endsWith(NOTICE)).toBe(true)
    const s = structureOf(out)
    expect(s.unclosedFence).toBe(false)
    expect(s.detailsOpened).toBe(1)
    expect(s.detailsClosed).toBe(1)
    // Only whole lines of the original are kept.
    const kept = out.slice(0, out.indexOf('\n\n'))
    expect(body.startsWith(kept)).toBe(true)
  })

  test('the utf8 unit counts bytes', () => {
    const text = Array.from({ length: 100 }, () => '漢字漢字漢字').join('\n')
    const out = cutAtLineBoundary(text, 300, 'utf8', NOTICE, 1)
    expect(measure(out, 'utf8')).toBeLessThanOrEqual(300)
    expect(out.length).toBeLessThan(150)
  })

  test('the kept lines are never cut; if they cannot fit, the budget is refused', () => {
    expect(() => cutAtLineBoundary(body, 20, 'utf16', NOTICE, 3)).toThrow(UsageError)
  })
})
