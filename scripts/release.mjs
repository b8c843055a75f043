#!/usr/bin/env node
// Release checks and tags, run by .github/workflows/release.yml on the default branch (and by hand
// to see what a release would do). The version comes from package.json; src/version.ts and a dated
// CHANGELOG.md section must agree with it, and its tag must not exist yet.
//
//   node scripts/release.mjs check [--notes FILE]   validate; write the release notes to FILE
//   node scripts/release.mjs tag                    validate, create vX.Y.Z, move vX to it (local)
//
// Pushing the tags and creating the GitHub release are the workflow's steps, so nothing here needs
// a token. Git is spawned with argument arrays.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/

export class ReleaseError extends Error {}

/**
 * The section of a Keep-a-Changelog file for `version`: its date and its text. Headings look like
 * `## [1.2.3] - 2026-12-01`; an undated (`- Unreleased`) section cannot be released.
 */
export function changelogSection(changelog, version) {
  const lines = changelog.split('\n')
  const heading = new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\](.*)$`)
  const start = lines.findIndex(line => heading.test(line))
  if (start < 0) return null
  let end = lines.findIndex((line, i) => i > start && line.startsWith('## '))
  if (end < 0) end = lines.length
  const rest = heading.exec(lines[start])[1]
  const date = /^\s*-\s*(\d{4}-\d{2}-\d{2})\s*$/.exec(rest)?.[1] ?? null
  const notes = lines
    .slice(start + 1, end)
    .filter(line => !/^\[[^\]]+\]:\s/.test(line)) // link references at the end of the file
    .join('\n')
    .trim()
  return { date, notes }
}

/**
 * What releasing the current tree would do, or a ReleaseError saying why it must not.
 * @param {{packageVersion: string, codeVersion: string, changelog: string, tags: string[]}} input
 */
export function releasePlan({ packageVersion, codeVersion, changelog, tags }) {
  const match = SEMVER.exec(packageVersion ?? '')
  if (!match) throw new ReleaseError(`package.json: version ${JSON.stringify(packageVersion)} is not X.Y.Z`)
  if (codeVersion !== packageVersion) {
    throw new ReleaseError(`src/version.ts: HELM_GATE_VERSION is ${JSON.stringify(codeVersion)}, package.json says ${packageVersion}`)
  }
  const tag = `v${packageVersion}`
  if (tags.includes(tag)) throw new ReleaseError(`tag ${tag} already exists: raise the version in package.json first`)
  const section = changelogSection(changelog, packageVersion)
  if (!section) {
    throw new ReleaseError(`CHANGELOG.md: no "## [${packageVersion}] - YYYY-MM-DD" section (rename [Unreleased] to it)`)
  }
  if (!section.date) throw new ReleaseError(`CHANGELOG.md: the [${packageVersion}] heading has no release date (- YYYY-MM-DD)`)
  if (!section.notes) throw new ReleaseError(`CHANGELOG.md: the [${packageVersion}] section is empty`)
  return { version: packageVersion, tag, majorTag: `v${match[1]}`, date: section.date, notes: section.notes }
}

function readPlan(root) {
  const packageVersion = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version
  const codeVersion = /HELM_GATE_VERSION\s*=\s*'([^']*)'/.exec(readFileSync(path.join(root, 'src/version.ts'), 'utf8'))?.[1]
  const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8')
  const tags = execFileSync('git', ['tag', '--list'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean)
  return releasePlan({ packageVersion, codeVersion, changelog, tags })
}

function main(argv) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const [command, ...rest] = argv
  const plan = readPlan(root)
  if (command === 'check') {
    const notesAt = rest.indexOf('--notes')
    if (notesAt >= 0) writeFileSync(rest[notesAt + 1], `${plan.notes}\n`)
    process.stdout.write(`release ${plan.tag} (${plan.date}); the major tag ${plan.majorTag} will point at it\n`)
    if (process.env.GITHUB_OUTPUT) {
      writeFileSync(process.env.GITHUB_OUTPUT, `tag=${plan.tag}\nmajor-tag=${plan.majorTag}\n`, { flag: 'a' })
    }
  } else if (command === 'tag') {
    const git = args => execFileSync('git', args, { cwd: root, stdio: 'inherit' })
    git(['tag', '--annotate', plan.tag, '--message', `helm-gate ${plan.version}`])
    git([
      'tag',
      '--force',
      '--annotate',
      plan.majorTag,
      '--message',
      `helm-gate ${plan.version} (latest ${plan.majorTag}.x)`,
      `${plan.tag}^{}`
    ])
    process.stdout.write(`tagged ${plan.tag}; ${plan.majorTag} now points at it\n`)
  } else {
    throw new ReleaseError('usage: release.mjs check [--notes FILE] | tag')
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`release: ${error instanceof ReleaseError ? error.message : error.stack}\n`)
    process.exit(1)
  }
}
