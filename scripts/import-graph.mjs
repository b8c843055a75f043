// The relative imports between the TypeScript files under a folder, for the import checks
// (check-import-cycles.mjs, check-import-order.mjs). Type-only imports count: a type is still a
// dependency of the unit that names it, though the bundler never sees it.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

function sources(dir) {
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

// import ... from './x.js', import './x.js', export ... from './x.js', import('./x.js'),
// import type ... from './x.js': every relative specifier.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g

/** Every source file under root (absolute paths) and, for each, the source files it imports. */
export function importGraph(root) {
  const files = sources(root)
  const known = new Set(files)
  const edges = new Map()
  for (const file of files) {
    // Imports in line comments are not imports.
    const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')
    const targets = new Set()
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), match[1]).replace(/\.(m?)js$/, '.$1ts')
      if (known.has(target)) targets.add(target)
    }
    edges.set(file, [...targets])
  }
  return { files, edges }
}
