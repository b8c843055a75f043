/**
 * Every example the documentation prints runs: what a new user copies first must work.
 *
 * - A YAML block with a top-level `version:` is a gate file: it is loaded and given to
 *   `helm-gate plan` (with every environment variable it names set to a dummy).
 * - A YAML block after `<!-- example: section -->` holds complete sections of a gate file (a
 *   `load:` or a `deployments:` section): they replace the same sections of a minimal gate file,
 *   which is then loaded and planned the same way.
 * - A YAML block after `<!-- example: partial WHY -->` is deliberately incomplete (a workflow
 *   step, an abbreviated command): it is listed below as a skipped test named by its place and
 *   WHY. Any other YAML block fails: an example is either complete or says it is not.
 * - Every command line in a `sh` block, and every code span in the prose that starts with
 *   `helm-gate COMMAND`, goes through that command's own argument parser (`--help` appended: the
 *   parser refuses an unknown option or a missing value before it prints the usage); `npm run`
 *   names a script of package.json, `bash`/`node` a file of the repository. A program that is
 *   not helm-gate's (lm_eval) is skipped by name.
 *
 * The markers are documented in docs/testing.md ("Documentation checks").
 */
import { describe, expect, it } from '@jest/globals'
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { main } from '../../src/cli/main.js'
import type { CliIo } from '../../src/cli/io.js'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

const FILES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter(name => name.endsWith('.md'))
    .sort()
    .map(name => `docs/${name}`)
]

/** Programs the docs show that are not helm-gate's: skipped by name, not run. */
const OTHER_PROGRAMS = new Set(['lm_eval'])

interface Block {
  where: string
  lang: string
  text: string
  marker: string | null
}

/** Fenced code blocks with their language and the `<!-- example: ... -->` comment just before. */
function blocks(file: string): Block[] {
  const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n')
  const out: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\w*)\s*$/.exec(lines[i])
    if (!open) continue
    let end = i + 1
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++
    let before = i - 1
    while (before >= 0 && lines[before].trim() === '') before--
    const marker = before >= 0 ? (/^<!-- example: (.+?) -->$/.exec(lines[before].trim())?.[1] ?? null) : null
    out.push({ where: `${file}:${i + 1}`, lang: open[1], text: lines.slice(i + 1, end).join('\n'), marker })
    i = end
  }
  return out
}

/** Command lines of a shell block: continuations joined, comments dropped, `a && b` split. */
function shellCommands(text: string): string[] {
  return text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map(line => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(line => line !== '')
    .flatMap(line => line.split('&&').map(part => part.trim()))
}

/** A command line as the shell would split it (the docs use plain words and simple quotes). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(m => m[1] ?? m[2] ?? m[3])
}

const COMMANDS = ['compare', 'run', 'load', 'plan', 'power', 'traffic']

/** Inline code spans of the prose that are a helm-gate command line (usage brackets removed). */
function inlineCommands(file: string): { where: string; line: string }[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '')
  return [...text.matchAll(/`(helm-gate ([a-z-]+)[^`]*)`/g)]
    .filter(m => COMMANDS.includes(m[2]))
    .map(m => ({ where: file, line: m[1].replace(/[[\]]/g, '') }))
}

/** The minimal gate file a section example is checked in. */
const BASE_GATE = {
  version: 1,
  helm: { version: '0.5.16', max_eval_instances: 10 },
  deployments: {
    baseline: { api: 'chat', base_url: 'http://127.0.0.1:8001/v1', model: 'served' },
    candidate: { api: 'chat', base_url: 'http://127.0.0.1:8002/v1', model: 'served-fp8' }
  },
  runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }]
}

/** Environment variables a gate file names (api_key_env, ${NAME} in launch commands), as dummies. */
function dummyEnv(text: string): Record<string, string> {
  const names = [...text.matchAll(/api_key_env:\s*([A-Za-z_][A-Za-z0-9_]*)/g), ...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map(
    m => m[1]
  )
  return Object.fromEntries(names.map(name => [name, `dummy-${name.toLowerCase()}`]))
}

async function helmGate(argv: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; out: string }> {
  let out = ''
  const io: CliIo = { stdout: s => (out += s), stderr: s => (out += s), env: { PATH: process.env.PATH, ...env }, cwd }
  const code = await main(argv, io)
  return { code, out }
}

/** Load and plan a gate file's text in a fresh folder (beside the example traffic set it may name). */
async function loadAndPlan(text: string): Promise<{ code: number; out: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-docs-example-'))
  await writeFile(join(dir, 'gate.yml'), text)
  await copyFile(join(REPO_ROOT, 'examples', 'traffic', 'traffic.jsonl'), join(dir, 'traffic.jsonl'))
  const args = ['plan', '--config', 'gate.yml', '--no-count']
  if (/checkout:\s*base/.test(text)) args.push('--baseline-ref', 'HEAD')
  return helmGate(args, dummyEnv(text), dir)
}

const all = FILES.flatMap(blocks)
const yamlBlocks = all.filter(b => b.lang === 'yaml' || b.lang === 'yml')
const shellBlocks = all.filter(b => b.lang === 'sh' || b.lang === 'bash' || b.lang === 'shell')

describe('the gate files the docs print load and plan', () => {
  it('finds the examples (the README quick start, docs/gate-file.md)', () => {
    const gateFiles = yamlBlocks.filter(b => b.marker === null).map(b => b.where.split(':')[0])
    expect(gateFiles).toContain('README.md')
    expect(gateFiles).toContain('docs/gate-file.md')
  })

  for (const block of yamlBlocks) {
    const partial = block.marker?.startsWith('partial ') ? block.marker.slice('partial '.length) : null
    if (partial !== null) {
      it.skip(`${block.where} (partial: ${partial})`, () => undefined)
      continue
    }
    it(`${block.where}${block.marker ? ` (${block.marker})` : ''}`, async () => {
      const data = parse(block.text) as Record<string, unknown>
      let text: string
      if (block.marker === 'section') {
        text = JSON.stringify({ ...BASE_GATE, ...data })
      } else {
        // Not marked: it must be a whole gate file, or say that it is a section or partial.
        expect({ where: block.where, gateFile: data !== null && typeof data === 'object' && 'version' in data }).toEqual({
          where: block.where,
          gateFile: true
        })
        text = block.text
      }
      const { code, out } = await loadAndPlan(text)
      expect({ code, error: code === 0 ? '' : out }).toEqual({ code: 0, error: '' })
    })
  }
})

describe('the command lines the docs print parse', () => {
  const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  const lines = [
    ...shellBlocks.flatMap(b => shellCommands(b.text).map(line => ({ where: b.where, line }))),
    ...FILES.flatMap(inlineCommands)
  ]

  it('finds the command lines (the README, docs/cli.md)', () => {
    expect(lines.filter(l => l.where.startsWith('README.md') && l.line.startsWith('helm-gate run')).length).toBeGreaterThan(0)
    expect(lines.filter(l => l.where.startsWith('docs/cli.md') && l.line.startsWith('helm-gate compare')).length).toBeGreaterThan(0)
  })

  // Programs that only run another one (pinned to cores, or through npx): the command checked is
  // the one they run.
  function unwrapped(argv: string[]): string[] {
    if (argv[0] === 'taskset') return unwrapped(argv.slice(argv[1] === '-c' ? 3 : 2))
    if (argv[0] === 'npx') return unwrapped(argv.slice(1))
    return argv
  }

  for (const { where, line } of lines) {
    // Leading VAR=value assignments: a value that names a file of the repository must exist.
    const all = words(line)
    const assignments = all.filter((w, i) => all.slice(0, i + 1).every(x => /^[A-Z_][A-Z0-9_]*=/.test(x)))
    const argv = unwrapped(all.slice(assignments.length))
    const program = argv[0]
    if (OTHER_PROGRAMS.has(program)) {
      it.skip(`${where}: ${line} (not helm-gate's program)`, () => undefined)
      continue
    }
    it(`${where}: ${line}`, async () => {
      for (const a of assignments) {
        const value = a.slice(a.indexOf('=') + 1)
        if (value.includes('/')) expect({ [a]: existsSync(join(REPO_ROOT, value)) }).toEqual({ [a]: true })
      }
      if (program === 'helm-gate' || (program === 'node' && argv[1] === 'dist/cli.js')) {
        const args = argv.slice(program === 'helm-gate' ? 1 : 2)
        const { code, out } = await helmGate([...args, '--help'], {}, REPO_ROOT)
        expect({ code, out: code === 0 ? '' : out }).toEqual({ code: 0, out: '' })
        // The command's own usage, not the general one (a misspelt command is an error).
        const command = args[0] === 'traffic' ? 'traffic build' : args[0]
        expect(out.split('\n')[0]).toMatch(new RegExp(`^usage: helm-gate ${command}\\b`))
      } else if (program === 'npm') {
        const script = argv[1] === 'run' ? argv[2] : argv[1]
        if (script !== 'ci' && script !== 'link') expect({ script, defined: script in scripts }).toEqual({ script, defined: true })
      } else if (program === 'bash' || program === 'node') {
        expect({ file: argv[1], exists: existsSync(join(REPO_ROOT, argv[1])) }).toEqual({ file: argv[1], exists: true })
      } else {
        throw new Error(`${where}: ${line}: a program this test does not know (${program}); add it here or to OTHER_PROGRAMS`)
      }
    })
  }
})
