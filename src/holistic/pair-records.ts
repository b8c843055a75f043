/** Pairs two sides' probability records on the same keys, refusing anything that is not paired. */
import { GuardError } from '../errors.js'
import type { PairedRecord, ProbabilityRecord } from './types.js'

export function recordKey(record: ProbabilityRecord): string {
  return JSON.stringify([record.instanceId, record.trainTrialIndex, record.perturbation])
}

function checkRecord(record: ProbabilityRecord, side: string, index: number): void {
  const field = `${side}[${index}].prob`
  if (typeof record.prob !== 'number' || !Number.isFinite(record.prob)) {
    throw new GuardError('holistic.missing_probability', `The ${side} has no probability for instance ${record.instanceId}.`, {
      field,
      value: record.prob
    })
  }
  if (record.prob < 0 || record.prob > 1) {
    throw new GuardError('holistic.probability_range', `A probability of the ${side} is outside [0, 1].`, { field, value: record.prob })
  }
  const second = record.secondProb
  if (second !== undefined && !(Number.isFinite(second) && second >= 0 && second <= record.prob)) {
    throw new GuardError('holistic.second_probability', `A second probability of the ${side} is outside [0, its top-1 probability].`, {
      field: `${side}[${index}].secondProb`,
      value: second
    })
  }
}

function byKey(records: readonly ProbabilityRecord[], side: string): Map<string, ProbabilityRecord> {
  const map = new Map<string, ProbabilityRecord>()
  records.forEach((record, index) => {
    checkRecord(record, side, index)
    const key = recordKey(record)
    if (map.has(key)) {
      throw new GuardError('holistic.duplicate_record', `The ${side} has two records for the same instance, trial and perturbation.`, {
        field: `${side}[${index}]`,
        value: key
      })
    }
    map.set(key, record)
  })
  return map
}

/**
 * The records of both sides on the same keys, sorted by key. Every key must be on both sides: a
 * calibration measured on different instances is not a paired comparison, so it is refused.
 */
export function pairRecords(baseline: readonly ProbabilityRecord[], candidate: readonly ProbabilityRecord[]): PairedRecord[] {
  const base = byKey(baseline, 'baseline')
  const cand = byKey(candidate, 'candidate')
  for (const [key] of base) {
    if (!cand.has(key)) {
      throw new GuardError('holistic.unpaired', 'An instance has a probability on the baseline but not on the candidate.', {
        field: 'candidate',
        value: key
      })
    }
  }
  for (const [key] of cand) {
    if (!base.has(key)) {
      throw new GuardError('holistic.unpaired', 'An instance has a probability on the candidate but not on the baseline.', {
        field: 'baseline',
        value: key
      })
    }
  }
  if (base.size === 0) throw new GuardError('holistic.no_records', 'Neither side has any instance with a probability.', {})
  return [...base.keys()].sort().map(key => {
    const b = base.get(key) as ProbabilityRecord
    return { key, cluster: b.instanceId, baseline: b, candidate: cand.get(key) as ProbabilityRecord }
  })
}
