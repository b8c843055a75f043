/**
 * The holistic grid's metric families and the gate file's `require:` list (docs/gate-file.md
 * "Required cells"). What can gate each family is src/config/holistic-require.ts.
 */
import { ConfigError } from '../errors.js'
import type { Fields } from './validate.js'

/** HELM's metric families, then what helm-gate adds: one column each in the grid, in this order. */
export const HOLISTIC_FAMILIES = [
  'accuracy',
  'calibration',
  'robustness',
  'fairness',
  'bias',
  'toxicity',
  'efficiency',
  'answer_length',
  'fidelity'
] as const
export type HolisticFamily = (typeof HOLISTIC_FAMILIES)[number]

/** HELM's per-instance toxicity stats (ToxicityMetric); the other toxicity figures are per run. */
export const TOXICITY_METRICS = ['toxic_frac', 'expected_max_toxicity', 'max_toxicity_probability'] as const

/**
 * HELM 0.5.16's `data_augmentation` values by the family their perturbations are flagged with
 * (`robustness: true` / `fairness: true`); `canonical` and `all` make both. A value not listed
 * here is neither: the grid then says it does not know the family, never guesses.
 */
const ROBUSTNESS_AUGMENTATIONS =
  /^(robustness(_all)?|mild_mix|typo|synonym|lowercase|space|extra_space|contract|expand|contrast_sets|misspelling.*)$/
const FAIRNESS_AUGMENTATIONS = /^(fairness(_all)?|dialect.*|person_name.*|gender.*)$/
const BOTH_AUGMENTATIONS = /^(canonical|all)$/

/** The `data_augmentation=` value of a run entry, or null. */
export function augmentationOf(entry: string): string | null {
  const m = /(?:^|[:,])data_augmentation=([^,]+)/.exec(entry)
  return m ? m[1] : null
}

/** The families an entry's perturbed copies belong to. */
export function perturbationFamilies(entry: string): ('robustness' | 'fairness')[] {
  const a = augmentationOf(entry)
  if (a === null) return []
  if (BOTH_AUGMENTATIONS.test(a)) return ['robustness', 'fairness']
  if (ROBUSTNESS_AUGMENTATIONS.test(a)) return ['robustness']
  if (FAIRNESS_AUGMENTATIONS.test(a)) return ['fairness']
  return []
}

/** `require`, or an empty list when absent. Errors name `require[j]` and the value. */
export function parseRequiredFamilies(top: Fields): HolisticFamily[] {
  const list = top.list('require')
  if (list === null) return []
  const out: HolisticFamily[] = []
  list.forEach((value, j) => {
    if (typeof value !== 'string' || !(HOLISTIC_FAMILIES as readonly string[]).includes(value)) {
      throw new ConfigError('config.invalid', `require[${j}] must be one of ${HOLISTIC_FAMILIES.join(', ')}`, {
        file: top.source,
        field: `require[${j}]`,
        value: typeof value === 'string' ? value : JSON.stringify(value)
      })
    }
    if (out.includes(value as HolisticFamily)) {
      throw new ConfigError('config.duplicate', `require[${j}] repeats ${value}`, { file: top.source, field: `require[${j}]`, value })
    }
    out.push(value as HolisticFamily)
  })
  return out
}
