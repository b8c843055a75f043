import { describe, expect, test } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { wantsLoad } from '../../src/action/load-half.js'
import { readSettings } from '../../src/action/inputs.js'
import { ConfigError, UsageError } from '../../src/errors.js'

const BASE = 'version: 1\nruns:\n  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }\n'
const withLoad = parseGateConfig(`${BASE}load:\n  concurrency: [1]\n  requests_per_level: 3\n`, 'g.yml')
const without = parseGateConfig(BASE, 'g.yml')

describe('the load input', () => {
  test('defaults to auto and accepts run and skip only', () => {
    expect(readSettings(name => (name === 'github-token' ? 't' : '')).load).toBe('auto')
    expect(readSettings(name => ({ 'github-token': 't', load: 'run' })[name] ?? '').load).toBe('run')
    expect(() => readSettings(name => ({ 'github-token': 't', load: 'always' })[name] ?? '')).toThrow(UsageError)
  })

  test('auto: mode gate load-tests when the gate file has load:, mode compare does not', () => {
    expect(wantsLoad('auto', 'gate', withLoad)).toBe(true)
    expect(wantsLoad('auto', 'gate', without)).toBe(false)
    expect(wantsLoad('auto', 'compare', withLoad)).toBe(false)
  })

  test('run: the compare job load-tests when asked; without load: it is an error naming the field', () => {
    expect(wantsLoad('run', 'compare', withLoad)).toBe(true)
    expect(() => wantsLoad('run', 'gate', without)).toThrow(ConfigError)
    expect(wantsLoad('skip', 'gate', withLoad)).toBe(false)
  })
})
