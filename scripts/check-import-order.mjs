#!/usr/bin/env node
// Fails when a file imports from a folder above its own in the declared folder order: the layers
// of src/ (docs/development.md "Source layout") read from the bottom up, each using only what is
// below it (or beside it, in its own layer). A folder that is not in the order is an error too,
// so a new folder gets its place when it is made. Type-only imports count.
// Run by `npm run lint`; `node scripts/check-import-order.mjs [DIR]` (default src).
import { relative, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { importGraph } from './import-graph.mjs'

/**
 * Lowest first. Names are folders of src/, or files directly in src/. Each line is one real floor
 * of the import graph (scripts/layer-floors.mjs --check keeps it so). Members of one line import
 * each other only in a circle between folders: the error classes redact the values they show, the
 * API-key lookup throws a ConfigError; cli/ and action/ are two adapters of the same pipeline.
 */
export const FOLDER_ORDER = [
  ['errors.ts', 'version.ts', 'words.ts', 'secrets', 'process'],
  ['config', 'helm'],
  ['model', 'stats', 'lmeval', 'identity'],
  ['server', 'traffic', 'report', 'github', 'plan', 'sequential', 'holistic'],
  ['gate', 'load', 'fidelity', 'evidence'],
  ['launch', 'replay'],
  ['runner'],
  ['pipeline'],
  ['cli', 'action'],
  ['cli-entry.ts', 'action-entry.ts']
]

const rank = new Map(FOLDER_ORDER.flatMap((layer, i) => layer.map(name => [name, i])))

/** The name a file is ordered by: its folder under root, or its own name when directly in root. */
function unitOf(root, file) {
  return relative(root, file).split(sep)[0]
}

function main() {
  const root = resolve(process.argv[2] ?? 'src')
  const { files, edges } = importGraph(root)
  const name = file => relative(process.cwd(), file)
  const problems = []
  const unplaced = new Set()
  const units = new Map()
  for (const file of files) {
    const from = unitOf(root, file)
    if (!units.has(from)) units.set(from, new Set())
    for (const target of edges.get(file)) units.get(from).add(unitOf(root, target))
  }
  /** Does unit `a` import unit `b`, directly or through others? */
  const reaches = (a, b) => {
    const seen = new Set()
    const todo = [a]
    while (todo.length > 0) {
      const u = todo.pop()
      if (u === b && u !== a) return true
      if (seen.has(u)) continue
      seen.add(u)
      todo.push(...(units.get(u) ?? []))
    }
    return false
  }
  for (const file of files) {
    const from = unitOf(root, file)
    if (!rank.has(from)) {
      if (!unplaced.has(from))
        problems.push(`${from} (${name(file)}) has no place in the folder order: add it to FOLDER_ORDER in scripts/check-import-order.mjs`)
      unplaced.add(from)
      continue
    }
    for (const target of edges.get(file)) {
      const to = unitOf(root, target)
      if (rank.has(to) && to !== from && rank.get(to) === rank.get(from) && !reaches(to, from)) {
        problems.push(
          `import on one line: ${name(file)} (${from}) imports ${name(target)} (${to}), which shares its line of the folder order; only folders that import each other share a line: move ${to} down a line`
        )
        continue
      }
      if (!rank.has(to) || rank.get(to) <= rank.get(from)) continue
      problems.push(
        `upward import: ${name(file)} (${from}) imports ${name(target)} (${to}), which is above ${from} in the folder order; move what both need down, or the importer up`
      )
    }
  }
  if (problems.length === 0) {
    console.log(`no upward import in ${relative(process.cwd(), root) || '.'} (${files.length} files)`)
    return
  }
  for (const problem of problems) console.error(problem)
  process.exit(1)
}

// Also imported (for the order itself) by the test that keeps docs/development.md in step.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main()
