/**
 * Text in a code span or a code block is copied by readers (a `file@sha`, a run name, a command),
 * so it must be the characters as written: GitHub never turns a mention or a link inside code
 * into one, and an invisible joiner there would break the copy. Outside code, mentions are still
 * neutralised.
 */
import { describe, expect, test } from '@jest/globals'
import { codeBlock, codeSpan, escapeInline } from '../../src/report/escape.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { makeReport } from './make-report.js'

const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/

/** The contents of every code span and code block of a markdown text. */
function codeTexts(markdown: string): string[] {
  const texts: string[] = []
  const withoutBlocks = markdown.replace(/^(`{3,})[^\n]*\n([\s\S]*?)\n\1$/gm, (_m, _fence, body: string) => {
    texts.push(body)
    return ''
  })
  for (const m of withoutBlocks.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)) texts.push(m[2])
  return texts
}

describe('code copies clean', () => {
  test('a file@sha in a code span is the text as written', () => {
    expect(codeSpan('.github/helm-gate.yml@0123456789ab')).toBe('`.github/helm-gate.yml@0123456789ab`')
    expect(codeSpan('mail@example.com', { inTable: true })).toBe('`mail@example.com`')
  })

  test('a code block keeps @mentions and e-mail addresses as written', () => {
    expect(codeBlock('pip install helm@0.5.16\ncc @octocat', 'text')).toBe('```text\npip install helm@0.5.16\ncc @octocat\n```')
  })

  test('outside code the same text is still neutralised', () => {
    expect(escapeInline('cc @octocat')).toBe('cc @\u200Doctocat')
  })

  test('in a rendered report, the file of an error and the changed answers carry no invisible character in code', () => {
    const report = makeReport({
      verdict: 'error',
      errors: [{ code: 'config.invalid', message: 'bad value from @octocat', file: '.github/helm-gate.yml@0123456789ab', field: 'runs[0]' }]
    })
    const md = renderMarkdown(report, { maxLength: 65_000 })
    const code = codeTexts(md)
    expect(code).toContain('.github/helm-gate.yml@0123456789ab')
    for (const text of code) expect(text).not.toMatch(INVISIBLE)
    // The message is markdown text: its mention is broken.
    expect(md).toContain('@\u200Doctocat')
  })
})
