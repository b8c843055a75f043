/**
 * HELM's answer metrics, ported so each replayed answer is scored where it is judged:
 * `normalize_text`, `exact_match`, `quasi_exact_match`, `f1_score` (helm/benchmark/metrics/
 * evaluate_reference_metrics.py) and ROUGE-L as HELM computes it (rouge_score's `rougeL` with
 * the Porter stemmer). __tests__/traffic/text-metrics.test.ts checks them against HELM's own
 * Python functions on a fixture. Pure functions.
 */
import { stemmer } from 'stemmer'

// Python's string.punctuation.
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')

/** HELM's normalize_text: lower case, punctuation removed, articles removed, whitespace collapsed. */
export function normalizeText(text: string, removeArticles = true): string {
  let out = [...text.toLowerCase()].filter(ch => !PUNCTUATION.has(ch)).join('')
  if (removeArticles) out = out.replace(/\b(a|an|the)\b/g, ' ')
  return whitespaceFix(out)
}

/** Python's `" ".join(text.split())`: split on runs of whitespace, drop empty ends. */
export function whitespaceFix(text: string): string {
  return text.split(/\s+/u).filter(Boolean).join(' ')
}

export function exactMatch(gold: string, pred: string): number {
  if (!pred) return 0
  return gold.trim() === pred.trim() ? 1 : 0
}

export function quasiExactMatch(gold: string, pred: string): number {
  if (!pred) return 0
  return normalizeText(gold) === normalizeText(pred) ? 1 : 0
}

/** HELM's f1_score: F1 of the two *sets* of normalised tokens (0 when either is empty). */
export function f1Score(gold: string, pred: string): number {
  const g = new Set(normalizeText(gold).split(' ').filter(Boolean))
  const p = new Set(normalizeText(pred).split(' ').filter(Boolean))
  if (g.size === 0 || p.size === 0) return 0
  let common = 0
  for (const token of p) if (g.has(token)) common += 1
  if (common === 0) return 0
  const precision = common / p.size
  const recall = common / g.size
  return (2 * precision * recall) / (precision + recall)
}

/** rouge_score's tokenizer: lower case, non-alphanumerics to spaces, words longer than 3 stemmed. */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(/\s+/)
    .map(token => (token.length > 3 ? stemmer(token) : token))
    .filter(token => /^[a-z0-9]+$/.test(token))
}

/** ROUGE-L F-measure (longest common subsequence of rouge tokens), as HELM's `rouge_l`. */
export function rougeL(gold: string, pred: string): number {
  const ref = rougeTokens(gold)
  const can = rougeTokens(pred)
  if (ref.length === 0 || can.length === 0) return 0
  // One row at a time: the table's last cell is all that is needed.
  let previous = new Uint32Array(can.length + 1)
  let current = new Uint32Array(can.length + 1)
  for (let i = 1; i <= ref.length; i += 1) {
    for (let j = 1; j <= can.length; j += 1) {
      current[j] = ref[i - 1] === can[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1])
    }
    ;[previous, current] = [current, previous]
  }
  const lcs = previous[can.length]
  if (lcs === 0) return 0
  const precision = lcs / can.length
  const recall = lcs / ref.length
  return (2 * precision * recall) / (precision + recall)
}
