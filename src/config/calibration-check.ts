/**
 * The paired calibration check of a run (docs/gate-file.md "Calibration"): `runs[i].calibration:
 * { metric: ece, max_increase: 0.02 }` gates the candidate-minus-baseline rise of the expected
 * calibration error (HELM's `ece_10_bin`) or of the Brier score on the same instances. Absent: no
 * calibration row. The statistics are in src/holistic/calibration.ts.
 */
import type { Fields } from './validate.js'

export const CALIBRATION_METRICS = ['ece', 'brier'] as const
export type CalibrationMetricName = (typeof CALIBRATION_METRICS)[number]

export interface CalibrationSettings {
  metric: CalibrationMetricName
  /** The tolerated rise of the metric (candidate minus baseline), in its own units (0 to 1). */
  maxIncrease: number
}

/** `runs[i].calibration`, or null when absent. Errors name the key path and the value. */
export function parseCalibrationCheck(f: Fields, key = 'calibration'): CalibrationSettings | null {
  const check = f.object(key)
  if (!check) return null
  check.allow(['metric', 'max_increase'])
  const metric = check.choice('metric', CALIBRATION_METRICS, 'ece')
  // Both metrics live in [0, 1]: a tolerated rise of 1 or more could never fail.
  const maxIncrease = check.number('max_increase', undefined, n => n >= 0 && n < 1, 'a number from 0 up to (not including) 1')
  check.done()
  return { metric, maxIncrease }
}

/** The check as `plan` says it. */
export function describeCalibrationCheck(check: CalibrationSettings): string {
  return `${check.metric} rise <= ${check.maxIncrease}`
}
