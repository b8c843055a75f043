#!/usr/bin/env node
// The README's tables of the action's inputs and outputs are generated from action.yml, so the
// two cannot drift: action.yml is what GitHub reads, the README only shows it. The tables sit
// between marker comments (as actions/checkout does); everything outside them is left as written.
//
//   node scripts/action-docs.mjs          rewrite the tables in README.md
//   node scripts/action-docs.mjs --check  exit 1 when README.md's tables differ (a test runs the same check)
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

export const MARKERS = {
  inputs: ['<!-- action-docs:inputs -->', '<!-- /action-docs:inputs -->'],
  outputs: ['<!-- action-docs:outputs -->', '<!-- /action-docs:outputs -->']
}

/** A table cell: one line, pipes escaped so a description cannot split its row. */
function cell(text) {
  return String(text).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')
}

/** `code` for a default; an empty default is shown as such rather than as an empty cell. */
function defaultCell(value) {
  if (value === undefined || value === '') return '(empty)'
  return `\`${cell(value)}\``
}

export function inputsTable(action) {
  const rows = Object.entries(action.inputs ?? {}).map(
    ([name, spec]) => `| \`${name}\` | ${spec.required ? 'yes' : 'no'} | ${defaultCell(spec.default)} | ${cell(spec.description ?? '')} |`
  )
  return ['| input | required | default | description |', '|---|---|---|---|', ...rows].join('\n')
}

export function outputsTable(action) {
  const rows = Object.entries(action.outputs ?? {}).map(([name, spec]) => `| \`${name}\` | ${cell(spec.description ?? '')} |`)
  return ['| output | description |', '|---|---|', ...rows].join('\n')
}

/** README text with the generated tables between their markers; throws naming a missing marker. */
export function renderReadme(readme, action, file = 'README.md') {
  let text = readme
  for (const [key, table] of [
    ['inputs', inputsTable(action)],
    ['outputs', outputsTable(action)]
  ]) {
    const [open, close] = MARKERS[key]
    const start = text.indexOf(open)
    const end = text.indexOf(close)
    if (start < 0 || end < start) throw new Error(`${file}: the markers ${open} and ${close} must both be there, in that order`)
    text = `${text.slice(0, start + open.length)}\n${table}\n${text.slice(end)}`
  }
  return text
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const readmePath = path.join(root, 'README.md')
  const action = parse(readFileSync(path.join(root, 'action.yml'), 'utf8'))
  const readme = readFileSync(readmePath, 'utf8')
  const rendered = renderReadme(readme, action)
  if (process.argv.includes('--check')) {
    if (rendered !== readme) {
      console.error('README.md: the inputs or outputs tables differ from action.yml; run npm run action-docs')
      process.exit(1)
    }
    return
  }
  if (rendered !== readme) writeFileSync(readmePath, rendered)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
