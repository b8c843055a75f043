import { describe, expect, it } from '@jest/globals'
import { COMMENT_MARKER } from '../../src/action/constants.js'
import { findStickyComment } from '../../src/github/comments.js'
import { fitBody } from '../../src/model/publication.js'
import type { RestComment } from '../../src/github/types.js'

const comment = (id: number, body: string, login = 'github-actions[bot]', type = 'Bot'): RestComment => ({
  id,
  body,
  html_url: `u${id}`,
  user: { login, type }
})

describe('findStickyComment', () => {
  it('finds nothing on a PR without our comment', () => {
    expect(findStickyComment([comment(1, 'hello'), comment(2, `quoted ${COMMENT_MARKER}`)], COMMENT_MARKER)).toBeNull()
  })

  it("picks a bot's comment that starts with the marker", () => {
    expect(findStickyComment([comment(1, 'x'), comment(5, `${COMMENT_MARKER}\nreport`)], COMMENT_MARKER)?.id).toBe(5)
  })

  it("ignores a human's comment even when it starts with the marker", () => {
    expect(findStickyComment([comment(3, `${COMMENT_MARKER}\nfake`, 'mallory', 'User')], COMMENT_MARKER)).toBeNull()
  })

  it('updates the oldest when several match, so re-runs never add one', () => {
    const found = findStickyComment([comment(9, `${COMMENT_MARKER}\nb`), comment(4, `${COMMENT_MARKER}\na`)], COMMENT_MARKER)
    expect(found?.id).toBe(4)
  })
})

describe('fitBody', () => {
  it('leaves a body within the limit alone', () => {
    expect(fitBody('short', 100)).toBe('short')
  })

  it('cuts at a line boundary, closes an open fence, keeps the marker and stays within the limit', () => {
    const body = `${COMMENT_MARKER}\n${'row\n'.repeat(100)}\`\`\`\n${'code line\n'.repeat(5000)}`
    const fitted = fitBody(body, 1000)
    expect(fitted.length).toBeLessThanOrEqual(1000)
    expect(fitted.startsWith(COMMENT_MARKER)).toBe(true)
    expect((fitted.match(/^```/gm) ?? []).length % 2).toBe(0)
    expect(fitted).toMatch(/truncated/)
  })
})
