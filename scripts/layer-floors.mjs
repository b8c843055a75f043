#!/usr/bin/env node
// The real floors of src/: each folder (or file directly in src/) sits one floor above the highest
// folder it imports, read from the import graph (import-graph.mjs), so floor 0 imports no other
// folder. Folders that import each other share a floor. Prints the floors lowest first, and with
// --check compares them with the declared order (check-import-order.mjs FOLDER_ORDER): each
// declared line must hold exactly the folders of one real floor. A folder declared higher than its
// floor would let the folders between import it, which breaks the layering (run by `npm run lint`).
// `node scripts/layer-floors.mjs [--check] [DIR]` (default src).
import { relative, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { FOLDER_ORDER } from './check-import-order.mjs'
import { importGraph } from './import-graph.mjs'

/** For each unit of root (a folder, or a file directly in root), the units it imports. */
export function unitGraph(root) {
  const { files, edges } = importGraph(root)
  const unitOf = file => relative(root, file).split(sep)[0]
  const units = new Map()
  for (const file of files) {
    const from = unitOf(file)
    if (!units.has(from)) units.set(from, new Set())
    for (const target of edges.get(file)) {
      const to = unitOf(target)
      if (to !== from) units.get(from).add(to)
    }
  }
  return units
}

/**
 * The floors, lowest first: units in a circle between folders share one (the same line of the
 * declared order); otherwise a unit is one floor above the highest unit it imports.
 */
export function floorsOf(units) {
  const reach = new Map([...units.keys()].map(u => [u, reachable(units, u)]))
  const group = u => [...units.keys()].filter(v => v === u || (reach.get(u).has(v) && reach.get(v).has(u))).sort()
  const floor = new Map()
  const visit = u => {
    if (floor.has(u)) return floor.get(u)
    const members = group(u)
    for (const m of members) floor.set(m, 0)
    let f = 0
    for (const m of members) for (const t of units.get(m)) if (!members.includes(t)) f = Math.max(f, visit(t) + 1)
    for (const m of members) floor.set(m, f)
    return f
  }
  for (const u of units.keys()) visit(u)
  const floors = []
  for (const [u, f] of floor) (floors[f] ??= []).push(u)
  return floors.map(line => line.sort())
}

function reachable(units, start) {
  const seen = new Set()
  const todo = [...units.get(start)]
  while (todo.length > 0) {
    const u = todo.pop()
    if (seen.has(u) || !units.has(u)) continue
    seen.add(u)
    todo.push(...units.get(u))
  }
  return seen
}

/** Where the declared order differs from the real floors: each line must hold exactly one floor's units. */
export function differences(floors, declared) {
  const show = line => line.join(' ')
  const problems = []
  for (let i = 0; i < Math.max(floors.length, declared.length); i++) {
    const real = [...(floors[i] ?? [])].sort()
    const said = [...(declared[i] ?? [])].sort()
    if (show(real) !== show(said))
      problems.push(
        `line ${i + 1} of the folder order is "${show(declared[i] ?? [])}" but the imports put "${show(floors[i] ?? [])}" there`
      )
  }
  return problems
}

function main() {
  const args = process.argv.slice(2)
  const check = args.includes('--check')
  const root = resolve(args.find(a => a !== '--check') ?? 'src')
  const units = unitGraph(root)
  const floors = floorsOf(units)
  for (const [i, line] of floors.entries())
    console.log(`${String(i).padStart(2)}  ${line.map(u => (u.endsWith('.ts') ? u : `${u}/`)).join(' ')}`)
  if (!check) return
  const problems = differences(floors, FOLDER_ORDER)
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) process.exit(1)
  console.log('the declared folder order is the real floors')
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main()
