/** `runs[i].calibration` in the gate file: the check it makes and the named errors of bad input. */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { describeCalibrationCheck } from '../../src/config/calibration-check.js'
import { parseGateConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'

function gate(runExtra: string): ReturnType<typeof parseGateConfig> {
  const text = `version: 1
deployments:
  baseline: { api: completions, base_url: http://127.0.0.1:8001/v1, model: a }
  candidate: { api: completions, base_url: http://127.0.0.1:8002/v1, model: b }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.02${runExtra} }
`
  return parseGateConfig(text, join(tmpdir(), 'gate.yml'))
}

function error(run: () => unknown): ConfigError {
  try {
    run()
  } catch (e) {
    if (e instanceof ConfigError) return e
    throw e
  }
  throw new Error('no ConfigError was thrown')
}

describe('runs[i].calibration', () => {
  it('is absent unless the run asks for it', () => {
    expect(gate('').runs[0].calibration ?? null).toBeNull()
  })

  it('reads the metric (ece by default) and the tolerated rise', () => {
    expect(gate(', calibration: { max_increase: 0.02 }').runs[0].calibration).toEqual({ metric: 'ece', maxIncrease: 0.02 })
    const brier = gate(', calibration: { metric: brier, max_increase: 0 }').runs[0].calibration!
    expect(brier).toEqual({ metric: 'brier', maxIncrease: 0 })
    expect(describeCalibrationCheck(brier)).toBe('brier rise <= 0')
  })

  it.each([
    ['an unknown metric', ', calibration: { metric: ece_1_bin, max_increase: 0.02 }', 'runs[0].calibration.metric', 'ece_1_bin'],
    ['no tolerated rise', ', calibration: { metric: ece }', 'runs[0].calibration.max_increase', undefined],
    ['a negative rise', ', calibration: { max_increase: -0.01 }', 'runs[0].calibration.max_increase', -0.01],
    ['a rise of 1', ', calibration: { max_increase: 1 }', 'runs[0].calibration.max_increase', 1],
    ['an unknown key', ', calibration: { max_increase: 0.02, bins: 15 }', 'runs[0].calibration.bins', 15],
    ['a number instead of a mapping', ', calibration: 0.02', 'runs[0].calibration', 0.02]
  ])('names the field and value of %s', (_, extra, field, value) => {
    const e = error(() => gate(extra))
    expect(e.location.field).toBe(field)
    expect(e.location.value).toEqual(value)
  })
})

describe('a calibration check on a chat deployment', () => {
  it('is refused when the file is loaded, naming the side and its api', () => {
    const text = `version: 1
deployments:
  baseline: { api: completions, base_url: http://127.0.0.1:8001/v1, model: a }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.02 }
  - { entry: "synthetic_reasoning:mode=induction", metric: exact_match, max_drop: 0.02, calibration: { max_increase: 0.02 } }
`
    const e = error(() => parseGateConfig(text, join(tmpdir(), 'gate.yml')))
    expect(e.code).toBe('config.calibration_needs_logprobs')
    expect(e.message).toMatch(/^runs\[1\]\.calibration needs log-probabilities/)
    expect(e.location).toMatchObject({ field: 'deployments.candidate.api', value: 'chat' })
  })
})
