#!/usr/bin/env node
// Fails when the TypeScript sources import each other in a circle. Type-only imports count too:
// a circle of types is still two units that cannot be understood (or moved) one without the
// other, and the bundler, which only sees the imports left after compilation, cannot report it.
// Run by `npm run lint`; `node scripts/check-import-cycles.mjs [DIR]` (default src).
import { relative, resolve } from 'node:path'
import { importGraph } from './import-graph.mjs'

const root = resolve(process.argv[2] ?? 'src')
const { files, edges } = importGraph(root)

// Tarjan's strongly connected components: every component of more than one file is a circle.
let counter = 0
const index = new Map()
const low = new Map()
const stack = []
const onStack = new Set()
const circles = []
function visit(file) {
  index.set(file, counter)
  low.set(file, counter)
  counter++
  stack.push(file)
  onStack.add(file)
  for (const next of edges.get(file)) {
    if (!index.has(next)) {
      visit(next)
      low.set(file, Math.min(low.get(file), low.get(next)))
    } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)))
  }
  if (low.get(file) === index.get(file)) {
    const component = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || edges.get(file).includes(file)) circles.push(component)
  }
}
for (const file of files) if (!index.has(file)) visit(file)

if (circles.length === 0) {
  console.log(`no import circle in ${relative(process.cwd(), root) || '.'} (${files.length} files)`)
} else {
  const name = file => relative(process.cwd(), file)
  for (const circle of circles) {
    const members = new Set(circle)
    console.error(`import circle of ${circle.length} files:`)
    for (const file of circle.sort()) {
      for (const next of edges.get(file)) if (members.has(next)) console.error(`  ${name(file)} -> ${name(next)}`)
    }
  }
  process.exit(1)
}
