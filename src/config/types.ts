/**
 * The gate file: the frozen gate set a team commits. Everything here is validated by
 * `config/load.ts`; the rest of the code receives only these typed, complete objects.
 *
 * YAML shape (snake_case keys; see docs/gate-file.md):
 *
 *   version: 1
 *   helm: { version: "0.5.16", max_eval_instances: 200, num_train_trials: 1, num_threads: 4,
 *           timeout_minutes: 60, command: "helm-run" }
 *   deployments:
 *     baseline:  { api: chat, base_url: http://host:8000/v1, model: served-name,
 *                  tokenizer: simple/tokenizer1, max_sequence_length: 4096,
 *                  api_key_env: BASELINE_KEY, request_timeout_seconds: 60 }
 *     candidate: { ... }
 *   runs:
 *     - entry: "synthetic_reasoning:mode=pattern_match"
 *       metric: exact_match
 *       max_drop: 0.02            # or max_relative_drop: 0.05
 *       lower_is_better: false
 *       perturbations: report     # or gate
 *       calibration: { metric: ece, max_increase: 0.02 }   # optional
 *   statistics: { confidence: 0.95, resamples: 10000, seed: 0, min_overlap: 0.95,
 *                 interval: auto, flip_tolerance: 1e-9 }
 */

import type { LoadSettings } from './load-types.js'
import type { LaunchSettings } from './launch.js'
import type { CommandDeployment } from './runner-command.js'

export type { CommandDeployment } from './runner-command.js'
import type { TrafficSettings } from './traffic.js'
import type { FidelitySettings } from './fidelity.js'
import type { HolisticFamily } from './holistic-families.js'
import type { AnswerLengthBand } from './answer-length-band.js'
import type { CalibrationSettings } from './calibration-check.js'
import type { StoppingSettings } from './sequential-section.js'

export type Api = 'chat' | 'completions'
export type IntervalMethod = 'auto' | 'bootstrap' | 'newcombe' | 'tango'
export type Direction = 'higher' | 'lower'
export type PerturbationPolicy = 'report' | 'gate'

export interface StatisticsSettings {
  /** Two-sided level of every interval, in (0, 1). */
  confidence: number
  /** Bootstrap draws. */
  resamples: number
  /** Seed of the portable generator: same inputs and seed give byte-identical reports. */
  seed: number
  /** Fraction of the larger side's keys that both sides must share. */
  minOverlap: number
  /**
   * `auto`: Tango for 0/1 metrics with one trial, the bootstrap otherwise. `tango`/`newcombe`
   * apply only to 0/1 single-trial data; asking for them on other data is an error.
   */
  interval: IntervalMethod
  /** |d| at or below this counts as unchanged for continuous metrics. */
  flipTolerance: number
}

export interface HelmSettings {
  /** The pinned crfm-helm version; a run refuses to start when the installed one differs. */
  version: string
  maxEvalInstances: number
  numTrainTrials: number
  numThreads: number
  /** Per side, the whole helm-run invocation. */
  timeoutMinutes: number
  /** The helm-run executable (a path or a name on PATH); spawned with an argument array. */
  command: string
}

export interface ServerDeployment {
  kind: 'server'
  api: Api
  /** Includes the `/v1` prefix: the OpenAI SDK appends `/chat/completions` to it. */
  baseUrl: string
  /** The served model name sent as `model` in requests and listed by GET /models. */
  model: string
  /** `simple/tokenizer1` (offline, counts characters) or a local Hugging Face tokenizer directory. */
  tokenizer: string
  maxSequenceLength: number
  /** Name of the environment variable that holds the API key, never the key itself. */
  apiKeyEnv: string | null
  requestTimeoutSeconds: number
}

/** A deployment already described in the user's own prod_env directory. */
export interface ProdEnvDeployment {
  kind: 'prod_env'
  /** The user's `--local-path` directory. */
  localPath: string
  /** The HELM deployment name in that directory's model_deployments.yaml. */
  deployment: string
}

export type Deployment = ServerDeployment | ProdEnvDeployment | CommandDeployment

export interface GatedRun {
  /** The HELM run entry without `model=` (the runner adds it), e.g. `dyck_language:num_parenthesis_pairs=3`. */
  entry: string
  /** Optional glob over run names (model parts removed) used to find this run in existing output. */
  match: string | null
  /** Main metric name as HELM writes it, e.g. `exact_match`. */
  metric: string
  /** Split to compare; null = the only split present (an error if several are). */
  split: string | null
  /** Tolerated drop in metric units, or null when `maxRelativeDrop` is used. */
  maxDrop: number | null
  /** Tolerated drop as a fraction of the baseline mean. */
  maxRelativeDrop: number | null
  direction: Direction
  /** `gate`: each perturbation and the worst case are gated too; `report`: shown only. */
  perturbations: PerturbationPolicy
  /** The band of the candidate/baseline answer-length ratio (`answer_length_ratio`); null: reported only. */
  answerLength?: AnswerLengthBand | null
  /** The paired calibration check (`calibration: { metric: ece, max_increase }`); absent: none. */
  calibration?: CalibrationSettings | null
}

export interface GateConfig {
  version: 1
  /** Where the config came from, for messages. */
  source: string
  helm: HelmSettings | null
  deployments: { baseline: Deployment; candidate: Deployment } | null
  runs: GatedRun[]
  statistics: StatisticsSettings
  /** The performance half (docs/load.md); null when the gate file has no `load:`. Not in the fingerprint. */
  load?: LoadSettings | null
  /** Launched servers, the schedule and fingerprint_paths (config/launch.ts); absent = nothing launched. */
  launch?: LaunchSettings
  /** The traffic gate (config/traffic.ts, docs/traffic.md); absent or null = none. */
  traffic?: TrafficSettings | null
  /** Token-level fidelity (config/fidelity.ts, docs/fidelity.md); absent or null = none. Not in the fingerprint. */
  fidelity?: FidelitySettings | null
  /**
   * Sequential verdicts (`sequential:`, config/sequential-section.ts): the quality half in stages
   * that stop when every check is decided. Not `schedule: sequential`. Absent or null = fixed design.
   */
  stopping?: StoppingSettings | null
  /** The holistic grid's required families (`require:`, config/holistic-require.ts); absent or empty = none. */
  require?: HolisticFamily[]
  /**
   * The sections measurements own (config/sections.ts), by key, as their parsers returned them;
   * a section the gate file does not have is absent. Not in the fingerprint.
   */
  sections?: Record<string, unknown>
}

export const DEFAULT_STATISTICS: StatisticsSettings = {
  confidence: 0.95,
  resamples: 10000,
  seed: 0,
  minOverlap: 0.95,
  interval: 'auto',
  flipTolerance: 1e-9
}
