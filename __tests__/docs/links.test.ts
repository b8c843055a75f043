/**
 * Every relative link in README.md and docs/*.md resolves: the file exists, and an anchor names
 * a heading of the target markdown file (GitHub's heading ids). Moving text between the README and
 * docs/ must not leave a dead link behind.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

/** GitHub's id for a heading: lower case, punctuation other than - and _ dropped, spaces to -. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** Markdown text with fenced code blocks and code spans removed (links there are not links). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(m => slug(m[1])))
}

/** Relative link targets of one markdown file: [text](target), no URLs with a scheme. */
function relativeLinks(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map(m => m[1]).filter(target => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

const files = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter(name => name.endsWith('.md'))
    .map(name => `docs/${name}`)
]

/** Each dead link as "file: target (why)". */
function deadLinks(file: string): string[] {
  const from = join(REPO_ROOT, file)
  const dead: string[] = []
  for (const target of relativeLinks(readFileSync(from, 'utf8'))) {
    const [pathPart, anchor] = target.split('#') as [string, string | undefined]
    const resolved = pathPart === '' ? from : join(dirname(from), decodeURIComponent(pathPart))
    if (relative(REPO_ROOT, resolved).startsWith('..') || !existsSync(resolved)) {
      dead.push(`${file}: ${target} (no such file)`)
    } else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) {
      dead.push(`${file}: ${target} (no such heading)`)
    }
  }
  return dead
}

describe('relative links in README.md and docs/', () => {
  it.each(files)('%s: every relative link resolves', file => {
    expect(deadLinks(file)).toEqual([])
  })

  it('catches a dead file and a dead anchor', () => {
    expect(relativeLinks('see [a](docs/nope.md) and [b](https://x.y) and `[c](d)`')).toEqual(['docs/nope.md'])
    expect(anchors(join(REPO_ROOT, 'README.md')).has('quick-start-the-pr-gate')).toBe(true)
    expect(anchors(join(REPO_ROOT, 'README.md')).has('no-such-heading')).toBe(false)
  })
})
