/**
 * The answer-length check (docs/gate-file.md "Answer length"): a band around 1 for the
 * candidate/baseline ratio of tokens per answer, the same key in every section that has answers
 * (`runs[i].answer_length_ratio`, `traffic.checks.answer_length_ratio`, and a fidelity check with
 * `metric: answer_length_ratio`). Absent or `report`: the ratio is shown, never gated.
 */
import type { Fields } from './validate.js'

export const ANSWER_LENGTH_METRIC = 'answer_length_ratio'

/** At least one bound; `min` below 1 and `max` above 1, so that an unchanged candidate can pass. */
export interface AnswerLengthBand {
  min: number | null
  max: number | null
}

/** `key` of `f` as a band; null when absent or `report`. Errors name the key path and the value. */
export function parseAnswerLengthBand(f: Fields, key: string = ANSWER_LENGTH_METRIC): AnswerLengthBand | null {
  if (!f.has(key) || f.raw(key) === 'report') {
    f.raw(key)
    return null
  }
  const band = f.object(key) as Fields
  band.allow(['min', 'max'])
  return bandOf(band, f.at(key))
}

/** The `min`/`max` keys of a mapping (also a fidelity check's, whose `metric` key is read by the caller). */
export function bandOf(band: Fields, path: string): AnswerLengthBand {
  const min = band.optionalNumber('min', n => n > 0 && n < 1, 'a ratio above 0 and below 1 (an unchanged candidate has 1)')
  const max = band.optionalNumber('max', n => n > 1, 'a ratio above 1 (an unchanged candidate has 1)')
  if (min === null && max === null) band.fail('min', `${path} needs min, max or both (a band around 1, e.g. { min: 0.8, max: 1.25 })`, null)
  return { min, max }
}

/** The band as `plan` and the docs say it: `report` (shown, not gated) or its bounds. */
export function describeBand(band: AnswerLengthBand | null | undefined): string {
  if (!band) return 'report'
  const bounds = [band.min === null ? null : `>= ${band.min}`, band.max === null ? null : `<= ${band.max}`]
  return `gated ${bounds.filter(b => b !== null).join(' and ')}`
}
