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
 * Lowest first. Names are folders of src/, or files directly in src/. One layer's members may
 * import each other: the error classes redact the values they show, the API-key lookup throws a
 * ConfigError; cli/ and action/ are two adapters of the same pipeline.
 */
export const FOLDER_ORDER = [
  ['errors.ts', 'version.ts', 'secrets'],
  ['config'],
  ['model'],
  ['stats'],
  ['helm', 'lmeval', 'traffic'],
  ['server'],
  ['gate'],
  ['load'],
  ['launch'],
  ['runner', 'replay', 'fidelity'],
  ['pipeline'],
  ['report'],
  ['github'],
  ['evidence'],
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
