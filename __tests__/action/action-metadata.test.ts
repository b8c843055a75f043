import { expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { INPUTS, OUTPUTS } from '../../src/action/constants.js'
import { readSettings } from '../../src/action/inputs.js'

const metadata = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, { default?: string; description: string }>
  outputs: Record<string, { description: string }>
  runs: { using: string; main: string }
}

it('declares exactly the inputs and outputs the code reads and sets', () => {
  expect(Object.keys(metadata.inputs).sort()).toEqual(Object.values(INPUTS).sort())
  expect(Object.keys(metadata.outputs).sort()).toEqual(Object.values(OUTPUTS).sort())
  expect(metadata.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
})

it("accepts action.yml's defaults as they are", () => {
  const defaults = Object.fromEntries(Object.entries(metadata.inputs).map(([name, input]) => [name, input.default ?? '']))
  const settings = readSettings(name => (name === 'github-token' ? 'token' : (defaults[name] ?? '')))
  expect(settings).toMatchObject({ mode: 'gate', checkName: 'helm-gate', configPath: '.github/helm-gate.yml', baseline: 'reuse' })
})
