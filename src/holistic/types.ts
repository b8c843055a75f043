/** Per-instance records of one side for the calibration and direction checks (docs/method.md). */

/** One (instance, train trial, perturbation) of one side: its top-1 probability and correctness. */
export interface ProbabilityRecord {
  instanceId: string
  trainTrialIndex: number
  /** `perturbationKey()` of the perturbation; null for the clean instance. */
  perturbation: string | null
  /** The probability of the side's top-1 answer (HELM's `max_prob`). */
  prob: number
  /** The second-highest probability, where the harness records it (HELM 0.5.16 does not). */
  secondProb?: number
  correct: boolean
}

/** One record of each side on the same key. */
export interface PairedRecord {
  key: string
  cluster: string
  baseline: ProbabilityRecord
  candidate: ProbabilityRecord
}
