/**
 * The holistic grid's required cells (docs/gate-file.md "Required cells"): `require: [calibration,
 * robustness]` at the top of the gate file makes each named metric family a cell every run entry
 * must gate (fidelity: the gate as a whole). A family the gate file cannot gate is refused here,
 * at load and so by `plan`, before anything runs; a required cell left blank at run time is an
 * error verdict (src/holistic/grid.ts). The families follow HELM's metric groups.
 */
import { ConfigError } from '../errors.js'
import { perturbationFamilies, TOXICITY_METRICS, type HolisticFamily } from './holistic-families.js'
import type { FidelitySettings } from './fidelity.js'
import type { GatedRun } from './types.js'

/**
 * Why `family` cannot be gated for the runs of one entry (`at`: their indices in `runs`), or null
 * when it can. One owner of "what gates a family": the grid reads the same rows at run time.
 */
export function whyUngateable(family: HolisticFamily, runs: readonly GatedRun[], at: readonly number[]): string | null {
  const entry = runs[at[0]].entry
  const field = (key: string): string => `runs[${at[0]}].${key}`
  switch (family) {
    case 'accuracy':
      return null
    case 'calibration':
      return at.some(i => runs[i].calibration) ? null : `${entry} has no calibration check (${field('calibration')})`
    case 'robustness':
    case 'fairness': {
      if (!perturbationFamilies(entry).includes(family)) {
        return `${entry} adds no ${family} perturbation (add data_augmentation=${family} to ${field('entry')})`
      }
      return at.some(i => runs[i].perturbations === 'gate')
        ? null
        : `${entry} only shows its perturbed rows (${field('perturbations')} is report; set it to gate)`
    }
    case 'bias':
      return "HELM's bias metrics are computed over a whole run, not per instance, so there is nothing to pair and helm-gate cannot gate them"
    case 'toxicity':
      return at.some(i => (TOXICITY_METRICS as readonly string[]).includes(runs[i].metric))
        ? null
        : `${entry} gates no toxicity metric (${field('metric')}: one of ${TOXICITY_METRICS.join(', ')})`
    case 'efficiency':
      return 'request times per run entry are shown, never gated; gate speed with the performance half (load:)'
    case 'answer_length':
      return at.some(i => runs[i].answerLength) ? null : `${entry} has no answer-length band (${field('answer_length_ratio')})`
    case 'fidelity':
      return null
  }
}

/** Run indices by entry, in the order the entries first appear. */
export function runsByEntry(runs: readonly GatedRun[]): Map<string, number[]> {
  const out = new Map<string, number[]>()
  runs.forEach((run, i) => out.set(run.entry, [...(out.get(run.entry) ?? []), i]))
  return out
}

/** Refuses a required family the gate file cannot gate, naming `require[j]`, the value and why. */
export function checkRequiredFamilies(
  source: string,
  required: readonly HolisticFamily[],
  runs: readonly GatedRun[],
  fidelity: FidelitySettings | null
): void {
  required.forEach((family, j) => {
    const problems: string[] = []
    if (family === 'fidelity') {
      if (!fidelity) problems.push('the gate file has no fidelity: section')
    } else {
      for (const at of runsByEntry(runs).values()) {
        const why = whyUngateable(family, runs, at)
        if (why !== null) problems.push(why)
      }
    }
    if (problems.length > 0) {
      throw new ConfigError(
        'config.required_unmeasurable',
        `require[${j}] ${family} cannot be gated: ${[...new Set(problems)].join('; ')}`,
        {
          file: source,
          field: `require[${j}]`,
          value: family
        }
      )
    }
  })
}
