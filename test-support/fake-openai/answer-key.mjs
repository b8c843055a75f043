// Recognises which scenario instance a HELM prompt asks about, from an answer key written by
// build-answer-key.py (HELM's own scenario code, so the instances are exactly helm-run's).
//
// Only eval instances (valid/test) are candidates: in-context examples come from the train split
// and appear earlier in the same prompt, so they must never be taken for the question.
import { readFileSync } from 'node:fs'

const EVAL_SPLITS = new Set(['valid', 'test'])
// Text HELM adds after the eval input (options, "Answer:", "Target:"); bounds the fuzzy window.
const SUFFIX_ALLOWANCE = 80
const FUZZY_MIN_SCORE = 0.6

/**
 * @typedef {{ input: string, references: string[], correct: number, method: string, split: string | null }} KeyInstance
 * @typedef {{ entry: string, method: string, instructions: string, inputPrefix: string, instances: KeyInstance[], words: string[][] }} KeySection
 * @typedef {{ instance: KeyInstance, exact: boolean }} KeyMatch
 */

export function loadAnswerKeys(paths) {
  /** @type {KeySection[]} */
  const sections = []
  for (const path of paths) {
    const parsed = JSON.parse(readFileSync(path, 'utf8'))
    for (const section of parsed.scenarios) {
      const instances = section.instances
        .filter(item => !(item.split && !EVAL_SPLITS.has(item.split)))
        .filter(item => typeof item.input === 'string' && item.input.length > 0)
        .map(item => ({ ...item, method: section.method }))
      sections.push({
        entry: section.entry,
        method: section.method,
        instructions: (section.instructions ?? '').trim(),
        inputPrefix: section.input_prefix ?? '',
        instances,
        words: instances.map(instance => words(instance.input))
      })
    }
  }
  return new AnswerKey(sections)
}

export class AnswerKey {
  /** @param {KeySection[]} sections */
  constructor(sections) {
    this.sections = sections
    /** @type {Map<string, KeyMatch | null>} */
    this.memo = new Map()
  }

  get size() {
    return this.sections.reduce((total, section) => total + section.instances.length, 0)
  }

  /** @returns {KeyMatch | null} */
  match(prompt) {
    if (this.memo.has(prompt)) return this.memo.get(prompt) ?? null
    // Scenarios share inputs ("70" is in "Is 70 even or odd?"): first narrow to the scenarios
    // whose instructions the prompt carries.
    const sections = this.sections.filter(section => section.instructions && prompt.includes(section.instructions))
    const candidates = sections.length ? sections : this.sections
    const found = this.exactMatch(prompt, candidates) ?? this.fuzzyMatch(prompt, candidates)
    if (this.memo.size > 50000) this.memo.clear()
    this.memo.set(prompt, found)
    return found
  }

  /** The eval input that ends last in the prompt (longest on ties): the question being asked. */
  exactMatch(prompt, sections) {
    let best = null
    let bestEnd = -1
    for (const section of sections) {
      for (const instance of section.instances) {
        const text = section.inputPrefix + instance.input
        const at = prompt.lastIndexOf(text)
        if (at < 0) continue
        const end = at + text.length
        if (end > bestEnd || (end === bestEnd && instance.input.length > best.input.length)) {
          best = instance
          bestEnd = end
        }
      }
    }
    return best ? { instance: best, exact: true } : null
  }

  /**
   * Perturbed inputs (HELM's robustness: lowercase, contractions, extra spaces, misspellings)
   * no longer occur verbatim. Score each candidate by the share of its words found near the end
   * of the prompt; misspelled words just miss.
   */
  fuzzyMatch(prompt, sections) {
    let best = null
    let bestScore = 0
    const windows = new Map()
    for (const section of sections) {
      section.instances.forEach((candidate, index) => {
        const wanted = section.words[index]
        if (wanted.length === 0) return
        const width = section.inputPrefix.length + candidate.input.length + SUFFIX_ALLOWANCE
        let window = windows.get(width)
        if (!window) {
          window = words(prompt.slice(-width))
          windows.set(width, window)
        }
        const score = overlap(wanted, window) / wanted.length
        if (score > bestScore || (score === bestScore && best && candidate.input.length > best.input.length)) {
          best = candidate
          bestScore = score
        }
      })
    }
    return best && bestScore >= FUZZY_MIN_SCORE ? { instance: best, exact: false } : null
  }
}

function words(text) {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(word => word.length > 0)
}

/** Multiset intersection size. */
function overlap(wanted, window) {
  const counts = new Map()
  for (const word of window) counts.set(word, (counts.get(word) ?? 0) + 1)
  let shared = 0
  for (const word of wanted) {
    const left = counts.get(word) ?? 0
    if (left > 0) {
      shared += 1
      counts.set(word, left - 1)
    }
  }
  return shared
}
