/**
 * scripts/action-docs.mjs: the README's inputs and outputs tables are generated from action.yml,
 * and this test fails when they drift apart (run `npm run action-docs` to regenerate them).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
// @ts-expect-error: a plain ESM module of script, without types
import { inputsTable, MARKERS, outputsTable, renderReadme } from '../../scripts/action-docs.mjs'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

interface ActionSpec {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>
  outputs: Record<string, { description: string }>
}

const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as ActionSpec
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')

describe("the README's action tables", () => {
  it('are what action.yml generates (npm run action-docs)', () => {
    expect(renderReadme(readme, action)).toBe(readme)
  })

  it('name every input and output of action.yml, the load input included', () => {
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) expect(readme).toContain(`| \`${name}\` |`)
    expect(Object.keys(action.inputs)).toContain('load')
  })

  it('drift is caught: an input added to action.yml changes the README', () => {
    const added: ActionSpec = { ...action, inputs: { ...action.inputs, extra: { description: 'new', default: 'x' } } }
    expect(renderReadme(readme, added)).not.toBe(readme)
    const changed: ActionSpec = { ...action, outputs: { ...action.outputs, verdict: { description: 'something else' } } }
    expect(renderReadme(readme, changed)).not.toBe(readme)
  })

  it('keeps each row on one line and escapes pipes', () => {
    const spec = { inputs: { a: { description: 'one |\n two', default: '' } }, outputs: { b: { description: 'x | y' } } }
    expect(inputsTable(spec).split('\n')[2]).toBe('| `a` | no | (empty) | one \\| two |')
    expect(outputsTable(spec).split('\n')[2]).toBe('| `b` | x \\| y |')
  })

  it('refuses a README without its markers, naming them', () => {
    expect(() => renderReadme('# no markers\n', action)).toThrow(MARKERS.inputs[0])
  })
})
