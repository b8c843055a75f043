/**
 * The ported answer metrics agree with HELM's own Python functions (exact_match,
 * quasi_exact_match, f1_score and rouge_l from helm.benchmark.metrics.evaluate_reference_metrics,
 * in the pinned venv) on a fixture of answer pairs, and the ported ROUGE-L's stemmer with it.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { exactMatch, f1Score, normalizeText, quasiExactMatch, rougeL } from '../../src/replay/text-metrics.js'
import { helmAvailable, REPO_ROOT, VENV_PYTHON } from '../../test-support/fake-openai/harness.js'

const PAIRS_FILE = join(REPO_ROOT, '__tests__', 'fixtures', 'traffic', 'metric-pairs.json')
const pairs = JSON.parse(readFileSync(PAIRS_FILE, 'utf8')) as [string, string][]

const HELM_SCRIPT = `
import json, sys
from helm.benchmark.metrics.evaluate_reference_metrics import exact_match, quasi_exact_match, f1_score, get_rouge_function, normalize_text
rouge_l = get_rouge_function("rougeL")
pairs = json.load(open(sys.argv[1]))
print(json.dumps([[exact_match(g, p), quasi_exact_match(g, p), f1_score(g, p), rouge_l(g, p), normalize_text(p)] for g, p in pairs]))
`

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm("the answer metrics agree with HELM's", () => {
  const helm = JSON.parse(execFileSync(VENV_PYTHON, ['-c', HELM_SCRIPT, PAIRS_FILE], { encoding: 'utf8', timeout: 120_000 })) as [
    number,
    number,
    number,
    number,
    string
  ][]

  it.each(pairs.map((pair, i) => [i, ...pair] as const))('pair %i: %j vs %j', (i, gold, pred) => {
    const [em, qem, f1, rl, normalised] = helm[i]
    expect(exactMatch(gold, pred)).toBe(em)
    expect(quasiExactMatch(gold, pred)).toBe(qem)
    expect(f1Score(gold, pred)).toBeCloseTo(f1, 12)
    expect(rougeL(gold, pred)).toBeCloseTo(rl, 12)
    expect(normalizeText(pred)).toBe(normalised)
  })

  it('the fixture exercises every metric on both sides of its threshold', () => {
    expect(new Set(helm.map(row => row[0]))).toEqual(new Set([0, 1]))
    expect(new Set(helm.map(row => row[1]))).toEqual(new Set([0, 1]))
    expect(helm.some(row => row[2] > 0 && row[2] < 1)).toBe(true)
    expect(helm.some(row => row[3] > 0 && row[3] < 1 && row[3] !== row[2])).toBe(true)
  })
})
