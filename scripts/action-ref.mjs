#!/usr/bin/env node
// The reference adopters write in `uses:`, in one place: package.json's `repository`
// (`github:OWNER/NAME`) and the major of its `version` give `OWNER/NAME@vMAJOR`, the tag the
// release workflow moves. The README and the example workflows must show exactly that, and the
// CHANGELOG's links point at that repository.
//
//   node scripts/action-ref.mjs                  check (a test runs the same check)
//   node scripts/action-ref.mjs set OWNER/NAME   change the repository in package.json and every file
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const REPOSITORY = /^github:([A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)$/
/** A `uses:` of an action from a repository: `uses: OWNER/NAME[/path]@REF`. */
const USES = /(\buses:\s*['"]?)([A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)((?:\/[^@\s'"]*)?)@([^\s'"#]+)/g
/** Third-party owners whose actions the examples use (`actions/checkout` and the like). */
const THIRD_PARTY_OWNERS = new Set(['actions'])

export function actionRepository(pkg) {
  const match = REPOSITORY.exec(pkg.repository ?? '')
  if (!match) throw new Error(`package.json: repository must be "github:OWNER/NAME", not ${JSON.stringify(pkg.repository)}`)
  return match[1]
}

export function actionRef(pkg) {
  const major = /^(\d+)\./.exec(pkg.version ?? '')
  if (!major) throw new Error(`package.json: version ${JSON.stringify(pkg.version)} is not X.Y.Z`)
  return { repository: actionRepository(pkg), tag: `v${major[1]}` }
}

/** Every `uses:` of this action in `text` that is not `repository@tag`, with its line number. */
export function staleUses(text, ref) {
  const stale = []
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(USES)) {
      const owner = m[2].split('/')[0]
      if (THIRD_PARTY_OWNERS.has(owner)) continue
      if (m[2] !== ref.repository || m[3] !== '' || m[4] !== ref.tag) stale.push({ line: i + 1, found: `${m[2]}${m[3]}@${m[4]}` })
    }
  })
  return stale
}

/** `text` with every `uses:` of this action set to `repository@tag` and GitHub links to `repository`. */
export function rewriteRefs(text, from, ref) {
  const uses = text.replace(USES, (all, prefix, repo, sub, _tag) =>
    THIRD_PARTY_OWNERS.has(repo.split('/')[0]) ? all : `${prefix}${ref.repository}${sub}@${ref.tag}`
  )
  return uses.split(`github.com/${from}/`).join(`github.com/${ref.repository}/`)
}

/** The files that show the action's reference, relative to the repository root. */
export function referenceFiles(root) {
  const examples = readdirSync(path.join(root, 'examples/workflows'))
    .filter(name => name.endsWith('.yml'))
    .map(name => `examples/workflows/${name}`)
  return ['README.md', 'CHANGELOG.md', ...examples.sort()]
}

/** Problems, one line each (file:line: what), for the files as they are on disk. */
export function checkFiles(root) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  const ref = actionRef(pkg)
  const problems = []
  for (const file of referenceFiles(root)) {
    const text = readFileSync(path.join(root, file), 'utf8')
    for (const s of staleUses(text, ref)) problems.push(`${file}:${s.line}: uses ${s.found}, expected ${ref.repository}@${ref.tag}`)
    for (const m of text.matchAll(/github\.com\/([A-Za-z0-9-]+\/[A-Za-z0-9._-]+)\/(?:compare|releases|commits)/g)) {
      if (m[1] !== ref.repository) problems.push(`${file}: links to github.com/${m[1]}, expected ${ref.repository}`)
    }
  }
  return problems
}

function main(argv) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const pkgFile = path.join(root, 'package.json')
  if (argv[0] === 'set') {
    const pkgText = readFileSync(pkgFile, 'utf8')
    const pkg = JSON.parse(pkgText)
    const from = actionRepository(pkg)
    pkg.repository = `github:${argv[1] ?? ''}`
    const ref = actionRef(pkg)
    writeFileSync(pkgFile, pkgText.replace(`"repository": "github:${from}"`, `"repository": "${pkg.repository}"`))
    for (const file of referenceFiles(root)) {
      const full = path.join(root, file)
      writeFileSync(full, rewriteRefs(readFileSync(full, 'utf8'), from, ref))
    }
  }
  const problems = checkFiles(root)
  for (const problem of problems) process.stderr.write(`${problem}\n`)
  if (problems.length > 0) process.exit(1)
  const ref = actionRef(JSON.parse(readFileSync(pkgFile, 'utf8')))
  process.stdout.write(`the action is referenced as ${ref.repository}@${ref.tag} everywhere\n`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`action-ref: ${error.message}\n`)
    process.exit(1)
  }
}
