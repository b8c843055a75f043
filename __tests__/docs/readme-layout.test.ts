/**
 * The source layout in docs/development.md (linked from the README) is where a newcomer starts: it
 * must name every folder and file at the root of src/ and every tracked folder of the repository,
 * and nothing that is not there.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** The first word of every unindented line of the layout code block in docs/development.md. */
function layoutEntries(): string[] {
  const development = readFileSync(path.join(root, 'docs', 'development.md'), 'utf8')
  const block = /\n```\n(src\/[\s\S]*?)\n```/.exec(development)
  if (!block) throw new Error('docs/development.md: no layout block (a code block starting with src/)')
  return block[1]
    .split('\n')
    .filter(line => /^\S/.test(line))
    .map(line => line.split(/\s+/)[0])
}

describe("docs/development.md's layout section", () => {
  const entries = layoutEntries()

  it('names every folder and file at the root of src/', () => {
    const src = readdirSync(path.join(root, 'src'), { withFileTypes: true }).map(e => `src/${e.name}${e.isDirectory() ? '/' : ''}`)
    expect(entries.filter(e => e.startsWith('src/')).sort()).toEqual(src.sort())
  })

  it('names every tracked folder of the repository, and only those', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(file => file.includes('/'))
      .map(file => `${file.split('/')[0]}/`)
    const folders = [...new Set(tracked)].sort()
    expect(entries.filter(e => !e.startsWith('src/') && e.endsWith('/')).sort()).toEqual(folders.filter(f => f !== 'src/'))
  })
})
