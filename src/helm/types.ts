/**
 * What the run-directory reader hands to the rest of helm-gate. Shapes follow HELM's JSON
 * (docs/helm.md "The five run files"), from 0.2.x (FlexLLMGen) through 0.5.16.
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
  /** Shape generation detected from run_spec.json (filled by discovery). */
  layout?: HelmLayout
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
  /** result.cached; null when there is no result (dry run) or the field is absent (hand-made files). HELM 0.2.1 has the field, but FlexLLMGen always writes false. */
  cached: boolean | null
  success: boolean | null
  error: string | null
  /** SHA-256 (hex) of request.prompt (or of request.messages when there is no prompt). */
  promptHash: string
  /** The request's decoding settings as written (absent fields left out). */
  decoding: RequestDecoding
  /** A result with at least one completion, each with text: the request really ran. */
  answered: boolean
  /** First characters of the instance input, for the report. */
  inputExcerpt: string
  /**
   * The answer key: each reference's SHA-256 (its full output text and its tags) in order, first
   * 16 hex digits. Both sides must agree, or a score change would be the data's, not the model's.
   */
  referenceKeys: string[]
  /** Text of the correct references, joined with ' | ', truncated. */
  referenceExcerpt: string
  /** completions[0].text, mapped through output_mapping for joint multiple choice, truncated. */
  outputExcerpt: string
  /**
   * Code points of completions[0].text as generated (before output_mapping), for the answer-length
   * fallback where HELM records no output tokens (its chat clients); null without an answer.
   */
  outputChars?: number | null
  requestTime: number | null
}

/** Request fields that decide how the model decodes; both sides must send the same. */
export const DECODING_FIELDS = ['temperature', 'max_tokens', 'stop_sequences', 'top_p', 'num_completions', 'echo_prompt'] as const
export type DecodingField = (typeof DECODING_FIELDS)[number]
export type RequestDecoding = Partial<Record<DecodingField, unknown>>

/**
 * The shape generation of a run directory. '0.4+': HELM >= 0.4 (AdapterSpec and Request carry
 * `model_deployment`). '0.2': HELM 0.2.x, e.g. as written by FlexLLMGen's script (no
 * `model_deployment`, `Token.top_logprobs`, `request_time: 0`, possibly bare `NaN` sums, and
 * plain-string inputs before 0.2.0). docs/helm.md "Version drift".
 */
export type HelmLayout = '0.4+' | '0.2'

/**
 * A directory where a run directory was expected but without run_spec.json: what a failed
 * helm-run leaves (an empty directory), or a partial copy.
 */
export interface IncompleteRunDirectory {
  path: string
  files: RunDirectory['files']
}

/** Everything found under a HELM output path, complete or not. */
export interface RunScan {
  /** The directory that was scanned for run directories (the suite directory, or the run itself). */
  root: string
  runs: RunDirectory[]
  incomplete: IncompleteRunDirectory[]
}

/** One instance's value of one stat (metric, split, perturbation), trials kept apart. */
export interface InstanceStatValue {
  instanceId: string
  trainTrialIndex: number
  subSplit: string | null
  /** Usually 1; 0 for stats HELM could not compute (e.g. training_co2_cost of a custom deployment). */
  count: number
  /** May be NaN or +-Infinity in files written before HELM 0.2.4 or by hand. */
  sum: number
  /** How many stats were merged into this value (more than 1 only when a name is duplicated). */
  occurrences: number
}

/**
 * All per-instance values of one stat name in one split under one perturbation (or clean).
 * The pairing key in `values` is `instanceStatKey(instanceId, trainTrialIndex)`.
 */
export interface PerInstanceSeries {
  metric: string
  split: string | null
  /** `perturbationKey()` of the stat's perturbation; null for clean instances. */
  perturbation: string | null
  perturbationName: string | null
  computedOn: string | null
  values: Map<string, InstanceStatValue>
}

/** per_instance_stats.json, merged by (instance, trial, perturbation) and grouped by stat. */
export interface PerInstanceStatsTable {
  file: string
  layout: HelmLayout
  /** Entries in the file (several per instance key when several metric classes emit stats). */
  entries: number
  /** Distinct (instance_id, train_trial_index, perturbation) keys. */
  instanceKeys: number
  /** Keyed by `seriesKey(metric, split, perturbation)`. */
  series: Map<string, PerInstanceSeries>
}
