import { describe, expect, it } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'

function gate(
  fidelity: string | null,
  baseline = 'api: chat, base_url: http://127.0.0.1:8001/v1, model: a'
): ReturnType<typeof parseGateConfig> {
  const text = `version: 1
deployments:
  baseline: { ${baseline} }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b }
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.02 }
${fidelity === null ? '' : `fidelity:\n${fidelity}`}`
  return parseGateConfig(text, '/tmp/gate.yml')
}

function error(fidelity: string): { code: string; location: { field?: string; value?: unknown }; message: string } {
  try {
    gate(fidelity)
  } catch (e) {
    return e as { code: string; location: { field?: string; value?: unknown }; message: string }
  }
  throw new Error('no error')
}

describe('the fidelity section', () => {
  it('is null when absent, so nothing runs', () => {
    expect(gate(null).fidelity).toBeNull()
  })

  it('reads the budget and checks, with defaults', () => {
    const f = gate(`  instances: 40
  max_answer_tokens: 32
  top_k: 10
  checks:
    - { metric: top1_agreement, min: 0.98 }
    - { metric: kld_mean, max: 0.02 }
    - { metric: answer_length_ratio, max: 1.2 }`).fidelity!
    expect(f).toEqual({
      instances: 40,
      maxAnswerTokens: 32,
      topK: 10,
      baselineReruns: 1,
      requestTimeoutSeconds: 120,
      checks: [
        { metric: 'top1_agreement', bound: 'min', value: 0.98 },
        { metric: 'kld_mean', bound: 'max', value: 0.02 },
        { metric: 'answer_length_ratio', bound: 'max', value: 1.2 }
      ]
    })
    expect(gate('  {}').fidelity).toMatchObject({ instances: 100, maxAnswerTokens: 64, topK: 20, checks: [] })
  })

  it.each([
    ['  top_k: 0', 'fidelity.top_k', /integer from 1 to 1000/],
    ['  instances: many', 'fidelity.instances', /integer from 1/],
    ['  tokens: 3', 'fidelity.tokens', /unknown key fidelity\.tokens/],
    ['  checks: [{ metric: perplexity, max: 1 }]', 'fidelity.checks[0].metric', /must be one of top1_agreement/],
    ['  checks: [{ metric: kld_mean, min: 0.01 }]', 'fidelity.checks[0].min', /kld_mean is bounded with max, not min/],
    ['  checks: [{ metric: top1_agreement, min: 1.2 }]', 'fidelity.checks[0].min', /from 0 up to \(not including\) 1/],
    ['  checks: [{ metric: kld_mean, max: -1 }]', 'fidelity.checks[0].max', /a number above 0/],
    ['  checks: [{ metric: kld_mean }]', 'fidelity.checks[0].metric', /exactly one of min, max/],
    ['  checks: [{ metric: kld_mean, max: 0.1, margin: 2 }]', 'fidelity.checks[0].margin', /unknown key/],
    ['  checks: [3]', 'fidelity.checks[0]', /must be a mapping/]
  ])('refuses %s, naming the field', (text, field, message) => {
    const e = error(text)
    expect(e.location.field).toBe(field)
    expect(e.message).toMatch(message)
  })

  it('needs both sides to be servers', () => {
    expect(() => gate('  instances: 5', 'prod_env: ./prod_env, deployment: local/a')).toThrow(
      /fidelity scores token probabilities over HTTP: deployments.baseline must be a server \(base_url, model\), not prod_env/
    )
  })
})
