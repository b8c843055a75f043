import { describe, expect, test } from '@jest/globals'
import {
  codeBlock,
  codeSpan,
  escapeHtmlText,
  escapeInline,
  escapeTerminal,
  sanitizeText,
  tailText,
  truncateText
} from '../../src/report/escape.js'
import { cellSeparators, structureOf } from './markdown-checks.js'

const HOSTILE: Array<[string, string]> = [
  ['pipe', 'a | b || c'],
  ['backticks', 'use `rm -rf` here'],
  ['fence', '```\ncode\n```'],
  ['long fence', '``````js\nx\n``````'],
  ['details close', 'done</details><details><summary>x'],
  ['script', '<script>alert(1)</script>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['user mention', 'thanks @octocat!'],
  ['team mention', 'cc @github/security-team'],
  ['issue ref', 'fixes #123 and GH-45'],
  ['js link', '[click](javascript:alert(1))'],
  ['image', '![x](https://evil.example/p.png)'],
  ['autolink', 'see https://evil.example/x and www.evil.example'],
  ['angle autolink', '<https://evil.example>'],
  ['email', 'mail me: someone@example.com'],
  ['html comment', '<!-- hidden --> shown'],
  ['entity', '&#64;octocat &lt;b&gt;'],
  ['crlf', 'line one\r\nline two\rline three'],
  ['zero width', 'a\u200Bb\u200C@\u200Boctocat\uFEFF'],
  ['bidi', 'abc\u202Edcba\u2066x'],
  ['control', 'bell\u0007 esc\u001b[31mred nul\u0000'],
  ['emphasis', '**bold** _it_ ~~strike~~ $x^2$'],
  ['heading start', '# Title'],
  ['list start', '- item'],
  ['ordered start', '1. item'],
  ['quote start', '> quote'],
  ['backslash pipe', 'a \\| b \\'],
  ['tag chars', 'x\u{E0041}\u{E0042}y']
]

describe('escapeInline', () => {
  test.each(HOSTILE)('%s: one line, no HTML, no live markdown, no mention', (_name, input) => {
    const out = escapeInline(input)
    expect(out).not.toMatch(/[\n\r]/)
    expect(out).not.toMatch(/</)
    expect(out).not.toMatch(/@[A-Za-z0-9]/)
    expect(out).not.toMatch(/#\d/)
    expect(out).not.toMatch(/https?:\/\//)
    expect(out).not.toMatch(/www\./i)
    // Every markdown-active character is escaped with a backslash (which is itself escaped).
    for (let i = 0; i < out.length; i += 1) {
      if ('`*_~[]()|#!$'.includes(out[i])) {
        let backslashes = 0
        for (let j = i - 1; j >= 0 && out[j] === '\\'; j -= 1) backslashes += 1
        expect({ at: i, out, escaped: backslashes % 2 === 1 }).toEqual({ at: i, out, escaped: true })
      }
    }
    expect(out).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F\u200B\u200C\u202E\u2066\uFEFF]/)
    expect(out).not.toMatch(/[\u{E0000}-\u{E007F}]/u)
  })

  test('a hostile cell keeps a table row at its number of cells', () => {
    for (const [, input] of HOSTILE) {
      const row = `| ${escapeInline(input)} | ${escapeInline(input)} |`
      expect(cellSeparators(row)).toBe(3)
    }
  })

  test('mentions, issue links and URLs are broken by a zero-width joiner, text otherwise kept', () => {
    expect(escapeInline('@octocat')).toBe('@\u200Doctocat')
    expect(escapeInline('@org/team')).toBe('@\u200Dorg/team')
    expect(escapeInline('#123')).toBe('\\#\u200D123')
    expect(escapeInline('https://x.example')).toBe('https:\u200D//x.example')
  })

  test('newlines become a visible mark; block markers at the start are escaped', () => {
    expect(escapeInline('a\r\n  b')).toBe('a ↵ b')
    expect(escapeInline('- item')).toBe('\\- item')
    expect(escapeInline('12. x')).toBe('12\\. x')
    expect(escapeInline('<b>&amp;')).toBe('&lt;b&gt;&amp;amp;')
  })

  test('maxLength truncates a very long string before escaping', () => {
    const long = `${'|'.repeat(10)}${'a'.repeat(1_000_000)}`
    const out = escapeInline(long, 50)
    expect(out.replace(/\\/g, '').length).toBe(50)
    expect(out.endsWith('…')).toBe(true)
    expect(cellSeparators(`| ${out} |`)).toBe(2)
  })
})

describe('escapeHtmlText', () => {
  test.each(HOSTILE)('%s: no tag, no mention', (_name, input) => {
    const out = escapeHtmlText(input)
    expect(out).not.toMatch(/[<>\n]/)
    expect(out).not.toMatch(/@[A-Za-z0-9]/)
    expect(out).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#\d+;)/)
    expect(out).not.toMatch(/[`*_~[\]()|#!$\\](?!\d+;)/)
  })
})

describe('codeSpan', () => {
  test('the delimiter is longer than any backtick run inside', () => {
    const out = codeSpan('a ``` b ` c')
    expect(out).toBe('````a ``` b ` c````')
    expect(codeSpan('`x`')).toBe('`` `x` ``')
  })

  test('inside a table cell, pipes are escaped', () => {
    expect(cellSeparators(`| ${codeSpan('a|b|c', { inTable: true })} |`)).toBe(2)
  })

  test('one line, control characters removed, empty text gives nothing', () => {
    expect(codeSpan('a\nb\u0007')).toBe('`a ↵ b`')
    expect(codeSpan('')).toBe('')
  })
})

describe('codeBlock', () => {
  test.each(HOSTILE)('%s: no content line can close the fence', (_name, input) => {
    const block = codeBlock(input, 'text')
    const structure = structureOf(block)
    expect(structure.fences).toHaveLength(1)
    expect(structure.unclosedFence).toBe(false)
    expect(structure.liveLines).toEqual([])
    expect(structure.fences[0].content.join('\n')).toBe(sanitizeText(input).replace(/\n+$/, '').replace(/<!--/g, '<!\u200D--'))
  })

  test('a hostile closing fence and </details> stay inside the block', () => {
    const block = codeBlock('````\n</details>\n`````', 'text')
    expect(block.startsWith('``````text\n')).toBe(true)
    expect(structureOf(`<details>\n\n${block}\n\n</details>`)).toMatchObject({ detailsOpened: 1, detailsClosed: 1 })
  })
})

describe('truncation helpers', () => {
  test('never split a surrogate pair', () => {
    const text = '😀'.repeat(10)
    const cut = truncateText(text, 6)
    expect(cut.length).toBeLessThanOrEqual(6)
    expect(cut).toBe('😀😀…')
    const tail = tailText(text, 6)
    expect(tail).toBe('…😀😀')
  })

  test('short text is returned as is', () => {
    expect(truncateText('abc', 3)).toBe('abc')
    expect(tailText('abc', 3)).toBe('abc')
  })
})

describe('escapeTerminal', () => {
  test('shows control characters instead of emitting them', () => {
    const out = escapeTerminal('a\u001b[2Jb\nc\u0007\u202E')
    expect(out).toBe('a\\x1b[2Jb\\nc\\x07\\u202e')
    expect(out).not.toMatch(/[\u0000-\u001f]/)
  })
})

test('escapeInline trims, so indentation cannot open a code block', () => {
  expect(escapeInline('    indented\n')).toBe('indented')
  expect(escapeInline('  - item')).toBe('\\- item')
})
