/**
 * `answer_length_ratio` in every section that has answers: a run entry, traffic.checks and a
 * fidelity check, the same band syntax and the same named errors.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'

const TRAFFIC_SET = join(process.cwd(), '__tests__', 'fixtures', 'traffic', 'support-120.jsonl')

function gate(runExtra: string, sections = ''): ReturnType<typeof parseGateConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-length-config-'))
  writeFileSync(join(dir, 'traffic.jsonl'), readFileSync(TRAFFIC_SET))
  const text = `version: 1
deployments:
  baseline: { api: chat, base_url: http://127.0.0.1:8001/v1, model: a }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.02${runExtra} }
${sections}`
  return parseGateConfig(text, join(dir, 'gate.yml'))
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

describe('answer_length_ratio in the gate file', () => {
  it('is absent (reported only) unless a section gives a band', () => {
    const config = gate('', 'traffic:\n  set: traffic.jsonl')
    expect(config.runs[0].answerLength ?? null).toBeNull()
    expect(config.traffic?.answerLength).toBeNull()
  })

  it('reads a band on a run entry, in traffic.checks and as a fidelity check (one check per bound)', () => {
    const config = gate(
      ', answer_length_ratio: { min: 0.8, max: 1.25 }',
      `traffic:
  set: traffic.jsonl
  checks:
    answer_length_ratio: { max: 1.5 }
fidelity:
  checks:
    - { metric: answer_length_ratio, min: 0.8, max: 1.25 }`
    )
    expect(config.runs[0].answerLength).toEqual({ min: 0.8, max: 1.25 })
    expect(config.traffic?.answerLength).toEqual({ min: null, max: 1.5 })
    expect(config.fidelity?.checks).toEqual([
      { metric: 'answer_length_ratio', bound: 'min', value: 0.8 },
      { metric: 'answer_length_ratio', bound: 'max', value: 1.25 }
    ])
  })

  it('takes `report` as shown only', () => {
    const config = gate(', answer_length_ratio: report', 'traffic:\n  set: traffic.jsonl\n  checks: { answer_length_ratio: report }')
    expect(config.runs[0].answerLength ?? null).toBeNull()
    expect(config.traffic?.answerLength).toBeNull()
  })

  it.each([
    ['a min of 1 or more', ', answer_length_ratio: { min: 1.1 }', 'runs[0].answer_length_ratio.min', 1.1],
    ['a max of 1 or less', ', answer_length_ratio: { max: 0.9 }', 'runs[0].answer_length_ratio.max', 0.9],
    ['a negative min', ', answer_length_ratio: { min: -1 }', 'runs[0].answer_length_ratio.min', -1],
    ['no bound', ', answer_length_ratio: {}', 'runs[0].answer_length_ratio.min', null],
    ['an unknown key', ', answer_length_ratio: { maximum: 2 }', 'runs[0].answer_length_ratio.maximum', 2],
    ['a number instead of a band', ', answer_length_ratio: 1.2', 'runs[0].answer_length_ratio', 1.2]
  ])('names the field and value of %s', (_, extra, field, value) => {
    const e = error(() => gate(extra))
    expect(e.location.field).toBe(field)
    expect(e.location.value).toEqual(value)
  })

  it('names traffic.checks and fidelity.checks[i] for a bad band there', () => {
    expect(error(() => gate('', 'traffic:\n  set: traffic.jsonl\n  checks: { answer_length_ratio: { max: 1 } }')).location.field).toBe(
      'traffic.checks.answer_length_ratio.max'
    )
    expect(error(() => gate('', 'fidelity:\n  checks:\n    - { metric: answer_length_ratio, min: 1.2 }')).location.field).toBe(
      'fidelity.checks[0].min'
    )
  })
})
