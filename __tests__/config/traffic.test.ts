/**
 * The gate file's `traffic:` section: defaults, named errors for bad settings and bad set lines,
 * and the fingerprint covering the set's bytes.
 */
import { describe, expect, it } from '@jest/globals'
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_REFUSAL_PATTERNS } from '../../src/config/traffic.js'
import { fingerprint } from '../../src/config/fingerprint.js'
import { loadGateConfig, parseGateConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'
import { tangoInterval } from '../../src/stats/index.js'
import { trafficPlanLines } from '../../src/replay/traffic-plan-lines.js'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

const FIXTURE = join(REPO_ROOT, '__tests__', 'fixtures', 'traffic', 'support-120.jsonl')

function gateDir(set = readFileSync(FIXTURE, 'utf8')): string {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-traffic-config-'))
  writeFileSync(join(dir, 'traffic.jsonl'), set)
  return dir
}

function gate(traffic: string, dir = gateDir(), deployments = 'api: chat'): ReturnType<typeof parseGateConfig> {
  const text = `version: 1
deployments:
  baseline: { ${deployments}, base_url: http://127.0.0.1:8001/v1, model: a }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.02 }
traffic:
${traffic}`
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

describe('traffic: settings', () => {
  it('reads the set once, relative to the gate file, with the documented defaults', () => {
    const config = gate('  set: traffic.jsonl')
    expect(config.traffic).toMatchObject({
      set: 'traffic.jsonl',
      baselineReruns: 1,
      temperature: 0,
      similarity: 'token_f1',
      ignoreCase: false,
      concurrency: 4,
      requestTimeoutSeconds: 120,
      refusalPatterns: DEFAULT_REFUSAL_PATTERNS,
      checks: { disagreement: 0.05, similarity: null, invalid_json: 0.05, quasi_exact_match: null }
    })
    expect(config.traffic?.instances).toHaveLength(120)
    expect(config.traffic?.setSha256).toMatch(/^[0-9a-f]{64}$/)
  })

  it('takes margins, report-only checks, the logged temperature and its own refusal patterns', () => {
    const config = gate(`  set: traffic.jsonl
  temperature: logged
  baseline_reruns: 0
  similarity: rouge_l
  checks: { disagreement: 0.1, similarity: 0.03, truncation: report, quasi_exact_match: 0.02 }
  refusal_patterns: ["^Nope"]`)
    expect(config.traffic).toMatchObject({
      temperature: null,
      baselineReruns: 0,
      similarity: 'rouge_l',
      refusalPatterns: ['^Nope'],
      checks: { disagreement: 0.1, similarity: 0.03, truncation: null, quasi_exact_match: 0.02, invalid_json: 0.05 }
    })
  })

  it.each([
    ['an unknown key', '  set: traffic.jsonl\n  sets: x', 'traffic.sets'],
    ['an unknown check', '  set: traffic.jsonl\n  checks: { disagreemnt: 0.1 }', 'traffic.checks.disagreemnt'],
    ['a margin above 1', '  set: traffic.jsonl\n  checks: { truncation: 5 }', 'traffic.checks.truncation'],
    ['a bad similarity', '  set: traffic.jsonl\n  similarity: bleu', 'traffic.similarity'],
    ['a second rerun', '  set: traffic.jsonl\n  baseline_reruns: 2', 'traffic.baseline_reruns'],
    ['a bad regular expression', '  set: traffic.jsonl\n  refusal_patterns: ["(unclosed"]', 'traffic.refusal_patterns[0]'],
    ['a temperature out of range', '  set: traffic.jsonl\n  temperature: 3', 'traffic.temperature'],
    ['no set', '  concurrency: 2', 'traffic.set']
  ])('refuses %s, naming the field', (_label, yaml, field) => {
    expect(error(() => gate(yaml)).location.field).toBe(field)
  })

  it('needs a chat server on both sides', () => {
    const e = error(() => gate('  set: traffic.jsonl', gateDir(), 'api: completions'))
    expect(e.location).toMatchObject({ field: 'deployments.baseline', value: 'api: completions' })
  })

  it('names an unreadable set', () => {
    const e = error(() => gate('  set: missing.jsonl'))
    expect(e.code).toBe('traffic.unreadable')
    expect(e.location.file).toMatch(/missing\.jsonl$/)
  })

  it.each([
    ['not JSON', '{"id": ', 'line 2: (line)'],
    [
      'a repeated id',
      '{"id":"t-1","stratum":"a","tag":null,"request":{"messages":[{"role":"user","content":"x"}]},"reference":null,"logged_response":null,"arrival_ms":null}',
      'line 2: id'
    ],
    [
      'a model in the request',
      '{"id":"x","stratum":"a","tag":null,"request":{"model":"m","messages":[{"role":"user","content":"x"}]},"reference":null,"logged_response":null,"arrival_ms":null}',
      'line 2: request'
    ],
    [
      'no messages',
      '{"id":"x","stratum":"a","tag":null,"request":{"messages":[]},"reference":null,"logged_response":null,"arrival_ms":null}',
      'line 2: request.messages'
    ],
    [
      'a bad role',
      '{"id":"x","stratum":"a","tag":null,"request":{"messages":[{"role":"robot","content":"x"}]},"reference":null,"logged_response":null,"arrival_ms":null}',
      'line 2: request.messages[0].role'
    ],
    [
      'a schema that does not compile',
      '{"id":"x","stratum":"a","tag":null,"request":{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":{"type":"no-such-type"}}}},"reference":null,"logged_response":null,"arrival_ms":null}',
      'line 2: request.response_format.json_schema.schema'
    ]
  ])('a set line with %s is an error naming the file and line, never skipped', (_label, bad, field) => {
    const first = readFileSync(FIXTURE, 'utf8').split('\n')[0]
    const e = error(() => gate('  set: traffic.jsonl', gateDir(`${first}\n${bad}\n`)))
    expect(e.code).toBe('traffic.bad_line')
    expect(e.location.field).toBe(field)
    expect(e.location.file).toMatch(/traffic\.jsonl$/)
  })
})

describe('traffic: the fingerprint', () => {
  it("covers the set's bytes and the temperature, not the margins", () => {
    const dir = gateDir()
    const base = fingerprint(gate('  set: traffic.jsonl', dir))
    expect(fingerprint(gate('  set: traffic.jsonl\n  checks: { disagreement: 0.2 }', dir))).toBe(base)
    expect(fingerprint(gate('  set: traffic.jsonl\n  temperature: 0.7', dir))).not.toBe(base)
    const other = gateDir()
    copyFileSync(FIXTURE, join(other, 'traffic.jsonl'))
    writeFileSync(join(other, 'traffic.jsonl'), readFileSync(FIXTURE, 'utf8').replace('Where is my order?', 'Where is my parcel?'))
    expect(fingerprint(gate('  set: traffic.jsonl', other))).not.toBe(base)
  })

  it('plan shows the set, its digest and the checks', () => {
    const lines = trafficPlanLines(gate('  set: traffic.jsonl').traffic!).join('\n')
    expect(lines).toMatch(
      /120 requests from traffic\.jsonl \(sha256 [0-9a-f]{16}, in the fingerprint\): 48 in JSON mode, 24 with tools, 11 with a reference/
    )
    expect(lines).toMatch(/twice on the baseline \(B1, B2: the noise floor\)/)
    expect(lines).toMatch(/disagreement <= 0.05, similarity report/)
    expect(lines).toMatch(/; answer_length_ratio report; similarity token_f1/)
    // 24 tool requests cannot resolve a 5-point margin even with no failure; 120 requests can.
    expect(lines).toMatch(
      /WARNING traffic check invalid_tool_calls applies to 24 requests: even a candidate that changes nothing cannot pass its 0.05 margin \(the interval reaches 0\.\d+\); about \d+ such requests would/
    )
    expect(lines).not.toMatch(/WARNING traffic check disagreement/)
  })

  it("plan's estimate of the requests a check needs is where Tango's interval clears the margin", () => {
    const lines = trafficPlanLines(gate('  set: traffic.jsonl\n  checks: { invalid_json: 0.02 }').traffic!).join('\n')
    const needed = Number(/check invalid_json applies to 48 requests.*about (\d+) such requests would/.exec(lines)?.[1])
    const upper = (n: number): number => tangoInterval({ both: 0, wins: 0, losses: 0, neither: n }, 0.95)[1]
    expect(upper(needed)).toBeLessThan(0.02)
    expect(upper(needed - 1)).toBeGreaterThanOrEqual(0.02)
  })

  it('says the answer-length band of the traffic checks', () => {
    const config = gate('  set: traffic.jsonl\n  checks: { answer_length_ratio: { min: 0.8, max: 1.25 } }')
    expect(trafficPlanLines(config.traffic!).join('\n')).toMatch(/answer_length_ratio gated >= 0.8 and <= 1.25; similarity/)
    const upper = gate('  set: traffic.jsonl\n  checks: { answer_length_ratio: { max: 1.5 } }')
    expect(trafficPlanLines(upper.traffic!).join('\n')).toMatch(/answer_length_ratio gated <= 1.5;/)
  })
})

describe('the example traffic gate (examples/traffic/gate.yml)', () => {
  it('passes the strict validation with its set, and every gated check can be resolved at its size', async () => {
    const config = await loadGateConfig(join(REPO_ROOT, 'examples', 'traffic', 'gate.yml'))
    expect(config.traffic?.instances.length).toBeGreaterThan(0)
    expect(trafficPlanLines(config.traffic!).join('\n')).not.toMatch(/WARNING/)
  })
})
