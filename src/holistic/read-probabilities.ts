/** One side's probability records from a HELM run directory's per_instance_stats.json. */
import { InputError } from '../errors.js'
import { readPerInstanceStats } from '../helm/read/instance-stats.js'
import type { RunDirectory } from '../helm/types.js'
import type { ProbabilityRecord } from './types.js'

/**
 * Every (instance, trial, perturbation) that has both `max_prob` and `exact_match` (HELM's own
 * pairing in `compute_calibration_metrics`). A `max_prob` without an `exact_match`, or an
 * `exact_match` that is not 0 or 1 (a tie HELM scores as a fraction), is refused: the record
 * cannot be called right or wrong.
 */
export async function readProbabilityRecords(run: RunDirectory | string): Promise<ProbabilityRecord[]> {
  const table = await readPerInstanceStats(run)
  const records: ProbabilityRecord[] = []
  for (const series of table.series.values()) {
    if (series.metric !== 'max_prob') continue
    const match = [...table.series.values()].find(
      s => s.metric === 'exact_match' && s.split === series.split && s.perturbation === series.perturbation
    )
    for (const [key, value] of series.values) {
      const field = `${value.instanceId}, trial ${value.trainTrialIndex}, ${series.perturbation ?? 'clean'}`
      const em = match?.values.get(key)
      if (!em || em.count === 0) {
        throw new InputError('holistic.no_exact_match', 'An instance has max_prob but no exact_match.', {
          file: table.file,
          field,
          value: null
        })
      }
      const correct = em.sum / em.count
      if (correct !== 0 && correct !== 1) {
        throw new InputError('holistic.fractional_exact_match', 'exact_match is neither 0 nor 1.', {
          file: table.file,
          field,
          value: correct
        })
      }
      records.push({
        instanceId: value.instanceId,
        trainTrialIndex: value.trainTrialIndex,
        perturbation: series.perturbation,
        prob: value.count === 0 ? NaN : value.sum / value.count,
        correct: correct === 1
      })
    }
  }
  return records
}
