#!/usr/bin/env node
// Fails when two source files, or two exported declarations (types, classes, functions,
// constants), share a name across src/: a name should say which thing it is, and a reader who
// meets `identity.ts` or `ProbeResult` should not have to ask which one. Two conventions name the
// same kind of thing in each place and are allowed: a folder's own `types.ts`, and the commands
// under `cli/commands/`, named after the command they run. A re-export (`export { X } from`)
// is the same thing, not a second one.
// Run by `npm run lint`; `node scripts/check-source-names.mjs [DIR]` (default src).
import { readFileSync } from 'node:fs'
import { basename, relative, resolve, sep } from 'node:path'
import { importGraph } from './import-graph.mjs'

const SAME_KIND = name => name === 'types.ts'
const NAMED_AFTER_COMMAND = path => path.startsWith(`cli${sep}commands${sep}`)
const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:interface|type|class|enum|function\*?|const|let|var)\s+([A-Za-z_$][\w$]*)/gm

const root = resolve(process.argv[2] ?? 'src')
const { files } = importGraph(root)
const shown = file => relative(process.cwd(), file)

const byName = new Map()
const byExport = new Map()
// Once per file: overloads declare one function several times.
const add = (map, key, file) => map.set(key, [...new Set([...(map.get(key) ?? []), file])])
for (const file of files) {
  const name = basename(file)
  if (!SAME_KIND(name) && !NAMED_AFTER_COMMAND(relative(root, file))) add(byName, name, file)
  for (const match of readFileSync(file, 'utf8').matchAll(DECLARATION)) add(byExport, match[1], file)
}

const problems = [
  ...[...byName]
    .filter(([, where]) => where.length > 1)
    .map(([name, where]) => `file name ${name} is used ${where.length} times: ${where.map(shown).join(', ')}`),
  ...[...byExport]
    .filter(([, where]) => where.length > 1)
    .map(([name, where]) => `exported name ${name} is declared ${where.length} times: ${where.map(shown).join(', ')}`)
]
if (problems.length === 0) {
  console.log(`every file and exported name in ${relative(process.cwd(), root) || '.'} is used once (${files.length} files)`)
} else {
  for (const problem of problems) console.error(problem)
  console.error('rename so that each name says which thing it is (scripts/check-source-names.mjs)')
  process.exit(1)
}
