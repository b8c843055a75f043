/**
 * The sticky comment is found by its marker, so the body must hold it exactly once, whatever the
 * model wrote: the marker text in an answer, a prompt, a reference, a run name or an issue
 * message is neutralised like an @mention.
 */
import { describe, expect, it } from '@jest/globals'
import { commentMarker } from '../../src/action/constants.js'

const COMMENT_MARKER = commentMarker('.github/helm-gate.yml')
import { renderMarkdown } from '../../src/report/markdown.js'
import type { Report } from '../../src/model/report.js'
import { makeComparison, makeExample, makeReport } from './make-report.js'

const INJECTIONS = [
  COMMENT_MARKER,
  `\`${COMMENT_MARKER}\``,
  `\`\`\`\n${COMMENT_MARKER}\n\`\`\``,
  `${COMMENT_MARKER}${COMMENT_MARKER}`,
  `<!--helm-gate:sticky-comment-->`,
  `text\n\n${COMMENT_MARKER}\n\nmore`
]

const PLACES: [string, (text: string) => Report][] = [
  ['candidate output', text => makeReport({ comparisons: [makeComparison({ examples: [makeExample({ candidate_output: text })] })] })],
  ['baseline output', text => makeReport({ comparisons: [makeComparison({ examples: [makeExample({ baseline_output: text })] })] })],
  ['prompt', text => makeReport({ comparisons: [makeComparison({ examples: [makeExample({ input: text })] })] })],
  ['reference', text => makeReport({ comparisons: [makeComparison({ examples: [makeExample({ reference: text })] })] })],
  ['run name', text => makeReport({ comparisons: [makeComparison({ run: text })] })],
  ['error message', text => makeReport({ verdict: 'error', errors: [{ code: 'x.y', message: text, value: text }] })]
]

describe('13. the sticky-comment marker appears exactly once in the body', () => {
  const cases = PLACES.flatMap(([place, build]) => INJECTIONS.map(text => ({ place, build, text })))
  it.each(cases)('$place: $text', ({ build, text }) => {
    const body = renderMarkdown(build(text), { maxLength: 65_000, marker: COMMENT_MARKER })
    expect(body.split(COMMENT_MARKER).length - 1).toBe(1)
    expect(body.startsWith(COMMENT_MARKER)).toBe(true)
    // No other HTML comment can open either: one could swallow the rest of the body.
    expect(body.slice(COMMENT_MARKER.length)).not.toContain('<!--')
  })
})
