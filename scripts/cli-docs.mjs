#!/usr/bin/env node
// docs/cli.md's reference of the commands is generated from the commands' own usage text, so the
// two cannot drift: `helm-gate --help` and each `helm-gate <command> --help` are what a user sees,
// the page only shows them. The reference sits between marker comments; the prose around it is
// left as written. The usage comes from the built command line (run `npm run build` first).
//
//   node scripts/cli-docs.mjs          rewrite the reference in docs/cli.md
//   node scripts/cli-docs.mjs --check  exit 1 when docs/cli.md differs (a test runs the same check)
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const MARKERS = ['<!-- cli-docs:usage -->', '<!-- /cli-docs:usage -->']

/** The command names of the general help: its lines `  name   summary`. */
export function commandNames(general) {
  return [...general.matchAll(/^ {2}([a-z][a-z-]*) {3,}\S/gm)].map(m => m[1])
}

/** A usage text as a fenced block; a fence inside the text would end it early, so it is refused. */
function block(text) {
  if (text.includes('```')) throw new Error('a usage text holds a code fence')
  return ['```text', text.replace(/\s+$/, ''), '```'].join('\n')
}

/**
 * The generated reference: the general help (without its first line, which names the version and
 * would make every release change this page), then each command's usage under its own heading.
 */
export function reference(general, usages) {
  const parts = ['`helm-gate --help`:', '', block(general.split('\n').slice(1).join('\n').replace(/^\n+/, ''))]
  for (const { name, usage } of usages) parts.push('', `### helm-gate ${name}`, '', block(usage))
  return parts.join('\n')
}

/** docs/cli.md with the reference between its markers; throws naming a missing marker. */
export function renderCliDocs(doc, general, usages, file = 'docs/cli.md') {
  const [open, close] = MARKERS
  const start = doc.indexOf(open)
  const end = doc.indexOf(close)
  if (start < 0 || end < start) throw new Error(`${file}: the markers ${open} and ${close} must both be there, in that order`)
  return `${doc.slice(0, start + open.length)}\n${reference(general, usages)}\n${doc.slice(end)}`
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const cli = path.join(root, 'dist', 'cli.js')
  const help = args => execFileSync(process.execPath, [cli, ...args, '--help'], { encoding: 'utf8' })
  const general = help([])
  const usages = commandNames(general).map(name => ({ name, usage: help([name]) }))
  const file = path.join(root, 'docs', 'cli.md')
  const doc = readFileSync(file, 'utf8')
  const rendered = renderCliDocs(doc, general, usages)
  if (process.argv.includes('--check')) {
    if (rendered !== doc) {
      console.error('docs/cli.md: the command reference differs from the usage text; run npm run build && npm run cli-docs')
      process.exit(1)
    }
    return
  }
  if (rendered !== doc) writeFileSync(file, rendered)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
