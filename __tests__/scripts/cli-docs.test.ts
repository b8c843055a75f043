/**
 * scripts/cli-docs.mjs: docs/cli.md's command reference is generated from the commands' own usage
 * text, and this test fails when they drift apart (`npm run build && npm run cli-docs` regenerates
 * it). The usage is taken from the command line itself (`main`), as a user sees it.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
// @ts-expect-error: a plain ESM module of script, without types
import { commandNames, MARKERS, renderCliDocs } from '../../scripts/cli-docs.mjs'
import { main } from '../../src/cli/main.js'
import { COMMAND_LINES, TRAFFIC_USAGE } from '../../src/cli/usage.js'
import { DEFAULT_DROPPED_FIELDS } from '../../src/traffic/build.js'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

async function help(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main([...args, '--help'], { stdout: s => (stdout += s), stderr: s => (stderr += s), env: {}, cwd: REPO_ROOT })
  return { code, stdout, stderr }
}

const doc = readFileSync(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8')

async function usages(): Promise<{ general: string; usages: { name: string; usage: string }[] }> {
  const general = (await help([])).stdout
  const usages = []
  for (const name of commandNames(general)) usages.push({ name, usage: (await help([name])).stdout })
  return { general, usages }
}

describe('helm-gate --help', () => {
  it('lists every command in one line each, and nothing of any command’s options', async () => {
    const { code, stdout } = await help([])
    expect(code).toBe(0)
    expect(commandNames(stdout)).toEqual(['compare', 'run', 'load', 'plan', 'power', 'traffic'])
    expect(commandNames(stdout)).toEqual(COMMAND_LINES.map(c => c.name))
    expect(stdout).not.toContain('--max-drop')
    for (const line of stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100)
    // compare takes lm-eval output too, and says so.
    expect(stdout).toMatch(/^ {2}compare .*HELM runs or lm-eval --log_samples folders$/m)
  })

  it('each command’s --help is that command’s usage (exit 0), and each command is listed', async () => {
    for (const { name } of COMMAND_LINES) {
      const { code, stdout, stderr } = await help([name])
      expect({ name, code, stderr }).toEqual({ name, code: 0, stderr: '' })
      expect(stdout.split('\n')[0]).toMatch(new RegExp(`^usage: helm-gate ${name}\\b`))
    }
    // A command that is not listed is refused with a pointer to the list.
    let stderr = ''
    expect(await main(['frobnicate'], { stdout: () => undefined, stderr: s => (stderr += s), env: {}, cwd: REPO_ROOT })).toBe(2)
    expect(stderr).toContain('try helm-gate --help')
  })
})

describe('docs/cli.md', () => {
  it('holds the usage text of every command, as the command line prints it (npm run cli-docs)', async () => {
    const { general, usages: all } = await usages()
    expect(all.map(u => u.name)).toEqual(COMMAND_LINES.map(c => c.name))
    expect(renderCliDocs(doc, general, all)).toBe(doc)
  })

  it('names --only and --baseline-ref, and compare as comparing HELM or lm-eval output', () => {
    const reference = doc.slice(doc.indexOf(MARKERS[0]), doc.indexOf(MARKERS[1]))
    expect(reference).toContain('--only quality|load')
    expect(reference).toContain('--baseline-ref REF')
    expect(reference).toMatch(/compare .*HELM runs or lm-eval/)
  })

  it('drift is caught: a changed or added option changes the page', async () => {
    const { general, usages: all } = await usages()
    const changed = all.map(u => (u.name === 'run' ? { ...u, usage: u.usage.replace('--only', '--just') } : u))
    expect(renderCliDocs(doc, general, changed)).not.toBe(doc)
    const added = [...all, { name: 'extra', usage: 'usage: helm-gate extra\n' }]
    expect(renderCliDocs(doc, general, added)).not.toBe(doc)
  })

  it('traffic build names the fields it always drops as the builder has them (the usage is plain text)', () => {
    expect(TRAFFIC_USAGE).toContain(`besides ${DEFAULT_DROPPED_FIELDS.join(', ')}\n`)
  })

  it('refuses a page without its markers, naming them', () => {
    expect(() => renderCliDocs('# no markers\n', '', [])).toThrow(MARKERS[0])
  })
})
