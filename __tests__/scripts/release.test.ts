import { describe, expect, it } from '@jest/globals'
// @ts-expect-error plain JavaScript scripts, run by node without a build
import { changelogSection, releasePlan } from '../../scripts/release.mjs'

const changelog = [
  '# Changelog',
  '',
  '## [Unreleased]',
  '',
  '## [1.2.0] - 2026-12-01',
  '',
  '### Added',
  '- a thing',
  '',
  '## [1.1.0] - 2026-11-01',
  '',
  '- an older thing',
  '',
  '[1.2.0]: https://github.com/o/r/releases/tag/v1.2.0'
].join('\n')
const good = { packageVersion: '1.2.0', codeVersion: '1.2.0', changelog, tags: ['v1.1.0', 'v1'] }

describe('changelogSection', () => {
  it('returns the dated section of a version, without the next section or link references', () => {
    expect(changelogSection(changelog, '1.2.0')).toEqual({ date: '2026-12-01', notes: '### Added\n- a thing' })
    expect(changelogSection(changelog, '1.1.0')).toEqual({ date: '2026-11-01', notes: '- an older thing' })
    expect(changelogSection(changelog, '1.3.0')).toBeNull()
  })

  it('does not take 1x2x0 for 1.2.0', () => {
    expect(changelogSection('## [1x2x0] - 2026-12-01\n- x\n', '1.2.0')).toBeNull()
  })
})

describe('releasePlan', () => {
  it('tags vX.Y.Z and moves vX, with the section as notes', () => {
    expect(releasePlan(good)).toEqual({
      version: '1.2.0',
      tag: 'v1.2.0',
      majorTag: 'v1',
      date: '2026-12-01',
      notes: '### Added\n- a thing'
    })
  })

  it.each([
    [{ packageVersion: '1.2' }, /not X\.Y\.Z/],
    [{ codeVersion: '1.1.0' }, /src\/version\.ts/],
    [{ tags: ['v1.2.0'] }, /already exists/],
    [{ changelog: '## [Unreleased]\n- a thing\n' }, /no "## \[1\.2\.0\]/],
    [{ changelog: '## [1.2.0] - Unreleased\n- a thing\n' }, /no release date/],
    [{ changelog: '## [1.2.0] - 2026-12-01\n\n## [1.1.0] - 2026-11-01\n- x\n' }, /empty/]
  ])('refuses %j', (change, message) => {
    expect(() => releasePlan({ ...good, ...change })).toThrow(message)
  })

  it('refuses the repository as it is now until the CHANGELOG has a dated section for its version', async () => {
    const { readFileSync } = await import('node:fs')
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    const current = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8')
    const section = changelogSection(current, pkg.version)
    if (section?.date) expect(section.notes).not.toBe('')
    else
      expect(() => releasePlan({ ...good, packageVersion: pkg.version, codeVersion: pkg.version, changelog: current })).toThrow(/CHANGELOG/)
  })
})
