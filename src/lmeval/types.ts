/**
 * What the lm-evaluation-harness reader hands to the gate: one output folder of
 * `lm_eval ... --log_samples --output_path OUT` (docs/lm-eval.md "What lm-eval writes"), its
 * results file and, per task, the samples it logged, kept compact (hashes and short excerpts).
 */

/** One line of `samples_<task>_<date>.jsonl`: one document under one filter. */
export interface LmEvalSample {
  /** 1-based line in the samples file, for messages. */
  line: number
  docId: number
  /** The filter (`filter_list[].name`, `none` when the task has none) whose responses were scored. */
  filter: string
  /**
   * SHA-256 of what was sent for this document: every request's context (`arg_0`), and for
   * loglikelihood requests the continuation too (generation kwargs are kept apart, genKwargsHash).
   */
  promptHash: string
  /** SHA-256 of the generation kwargs of the document's generate_until requests; null for other request types. */
  genKwargsHash: string | null
  /**
   * What the document is scored against, as logged: `target` (canonical JSON), `doc_hash` and
   * `target_hash` (null where the line lacks them). Both sides must agree: a changed answer key
   * moves the score without the model changing.
   */
  answerKey: LmEvalAnswerKey
  /** The generation kwargs of the first request as written, for messages; null when none. */
  genKwargs: unknown
  /** Why the request cannot be the model's answer (no response, an empty or null one), or null. */
  failure: string | null
  /** The per-sample values of the metrics the sample lists (`metrics`); null for a value that is not a number. */
  metrics: Map<string, number | null>
  /** The last message (chat) or the end of the prompt: the question, without the few-shot examples. */
  inputExcerpt: string
  referenceExcerpt: string
  /** The first response, with the filtered answer when the filter changed it. */
  outputExcerpt: string
  /**
   * Code points of the first generated response as the model wrote it (before any filter), for the
   * answer-length ratio: lm-eval records no token counts. null for loglikelihood requests (no answer).
   */
  answerChars: number | null
}

export interface LmEvalAnswerKey {
  target: string
  doc_hash: string | null
  target_hash: string | null
}

export interface LmEvalTask {
  name: string
  samplesFile: string
  /** `versions[task]` of the results file (the task YAML's metadata.version). */
  version: unknown
  /** `n-shot[task]`. */
  nShot: unknown
  /** `configs[task]`: the task's resolved YAML. */
  config: Record<string, unknown>
  /** `n-samples[task].effective`: documents evaluated, each logged once per filter; null when absent. */
  effectiveSamples: number | null
  samples: LmEvalSample[]
  /** SHA-256 of the samples file's bytes. */
  samplesDigest: string
}

export interface LmEvalOutput {
  /** The folder holding the results and samples files (`OUT/<model_name_sanitized>/`). */
  dir: string
  resultsFile: string
  /** The `<date>` shared by the results file and its samples files. */
  dateId: string
  lmEvalVersion: string | null
  /** `config.model`, e.g. local-chat-completions. */
  modelType: string | null
  /** `config.model_args.model`, or the results' model_name. */
  model: string | null
  /** `config`: the command line lm_eval ran with (model args, use_cache, limit, gen_kwargs, seeds). */
  runConfig: Record<string, unknown>
  /** Top-level settings that change every prompt: fewshot_as_multiturn, system instruction and chat template hashes. */
  promptSettings: Record<string, unknown>
  tasks: LmEvalTask[]
}
