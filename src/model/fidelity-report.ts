/**
 * The fidelity measurement's own part of the report (docs/fidelity.md): one row per check, the
 * figures behind each, and how the candidate was scored. Made by src/fidelity/, rendered by
 * src/report/.
 */

/** How the candidate was scored on the baseline's answer. */
export type FidelityRoute =
  /** llama.cpp: one /completion per instance, a grammar of token ids forcing the baseline's tokens, probabilities read before the grammar. */
  | 'llamacpp-forced-grammar'
  /** llama.cpp: one /completion per position, the prompt extended by the baseline's prefix (cache_prompt). */
  | 'llamacpp-prefix'
  /** vLLM: /v1/completions with prompt_logprobs on the prompt followed by the baseline's answer. */
  | 'vllm-prompt-logprobs'
  /** No teacher forcing: the shared greedy prefix only, compared up to the first divergence. */
  | 'greedy-prefix'

export type FidelityVerdict = 'pass' | 'fail' | 'inconclusive'

export interface FidelityInterval {
  low: number
  high: number
  level: number
}

/** One metric over the instances: the candidate's mean, the floor's, and the candidate's value corrected by the floor. */
export interface FidelityFigure {
  metric: string
  /** Mean over instances of the candidate's per-instance value. */
  candidate: number
  /** Mean of the A/A floor (the baseline against a second pass of itself); the perfect value without a rerun. */
  floor: number
  /** perfect + mean(candidate - floor): what the candidate would show against a deterministic baseline. */
  corrected: number
  /** The interval of `corrected` (a cluster bootstrap over instances, or Tango's for 0/1 instance values). */
  ci: FidelityInterval
}

export interface FidelityCheckRow {
  verdict: FidelityVerdict
  metric: string
  bound: 'min' | 'max'
  threshold: number
  figure: FidelityFigure
  /** Inconclusive only: instances that would resolve it; null when none can. */
  nNeeded: number | null
  reason: string
}

export interface FidelityInstanceRow {
  id: string
  positions: number
  top1Agreement: number
  klMean: number
  klMax: number
  deltaPMean: number
  firstDivergence: number | null
  lengthRatio: number | null
  /**
   * Per position of the baseline's answer: its token, the candidate's most likely token and
   * delta-p (untrusted model text: renderers escape it). report.html shows them side by side.
   */
  tokens?: { baseline: string; candidate: string | null; deltaP: number }[]
}

export interface FidelityReport {
  route: FidelityRoute
  /** True only for the teacher-forced routes; the greedy-prefix figures are not teacher-forced. */
  teacherForced: boolean
  topK: number
  instances: number
  /** Scored positions over all instances. */
  positions: number
  /** Mean baseline probability mass outside the shared top-k (what the KL's bucket held). */
  restMassMean: number
  /** Whether the A/A floor was measured (baseline_reruns: 1). */
  floorMeasured: boolean
  figures: FidelityFigure[]
  checks: FidelityCheckRow[]
  /** The instances with the largest mean KL, largest first. */
  worst: FidelityInstanceRow[]
  /** Requests sent and seconds spent per side, for the cost figures. */
  cost: { side: 'baseline' | 'candidate'; requests: number; seconds: number }[]
  notes: string[]
  /**
   * Where the flips fall (src/holistic/fidelity-direction.ts): positions where the candidate's most
   * likely token is not the baseline's, split by the baseline's top-1 margin. Teacher-forced routes
   * only; information, it gates nothing.
   */
  direction?: FidelityFlips
}

/** The flips of the scored positions, split by how sure the baseline was (p1 - p2 at least `sureMargin`). */
export interface FidelityFlips {
  positions: number
  flips: number
  sure: { positions: number; flips: number }
  unsure: { positions: number; flips: number }
  sureMargin: number
  sentence: string
}
