/**
 * What the run-directory reader hands to the rest of helm-gate. Shapes follow HELM's JSON
 * (helm-contract.md sections 1.3-1.9), from 0.2.x (FlexLLMGen) through 0.5.16.
 */

/** PerturbationDescription. Subclasses add fields (prob, mapping_file_path, ...). */
export interface PerturbationJson {
  name: string
  robustness?: boolean
  fairness?: boolean
  computed_on?: string
  seed?: number
  [extra: string]: unknown
}

export interface MetricNameJson {
  name: string
  split?: string
  sub_split?: string
  perturbation?: PerturbationJson
}

export interface StatJson {
  name: MetricNameJson
  count: number
  sum: number
  sum_squared?: number
  min?: number
  max?: number
  mean?: number
}

/** One entry of per_instance_stats.json. Several entries may share a key (one per metric class). */
export interface PerInstanceStatsJson {
  instance_id: string
  train_trial_index: number
  perturbation?: PerturbationJson
  stats: StatJson[]
}

export interface ObjectSpecJson {
  class_name: string
  args: Record<string, unknown>
}

export interface RunSpecJson {
  name: string
  scenario_spec: ObjectSpecJson
  adapter_spec: Record<string, unknown>
  metric_specs: ObjectSpecJson[]
  data_augmenter_spec?: Record<string, unknown>
  groups?: string[]
  annotators?: ObjectSpecJson[]
}

/** A run directory found on disk (it contains run_spec.json). */
export interface RunDirectory {
  /** Absolute path of the run directory. */
  path: string
  runSpec: RunSpecJson
  /** scenario.json `name` when present (note HELM's typos, e.g. `sythetic_reasoning_natural`). */
  scenarioName: string | null
  /** Which of the five files exist. A run used by the gate must have all five. */
  files: {
    runSpec: boolean
    scenario: boolean
    scenarioState: boolean
    stats: boolean
    perInstanceStats: boolean
  }
}

/**
 * What the gate keeps from one request state of scenario_state.json: enough to detect cached
 * answers and prompt drift and to show changed answers, with bounded size per instance.
 */
export interface RequestStateSummary {
  instanceId: string
  trainTrialIndex: number
  perturbation: PerturbationJson | null
  /** Set only by "separate" multiple-choice adapters (one request state per reference). */
  referenceIndex: number | null
  /** result.cached; null when there is no result (dry run) or the field is absent (0.2.x). */
  cached: boolean | null
  success: boolean | null
  error: string | null
  /** SHA-256 (hex) of request.prompt (or of request.messages when there is no prompt). */
  promptHash: string
  /** First characters of the instance input, for the report. */
  inputExcerpt: string
  /** Text of the correct references, joined with ' | ', truncated. */
  referenceExcerpt: string
  /** completions[0].text, mapped through output_mapping for joint multiple choice, truncated. */
  outputExcerpt: string
  requestTime: number | null
}
