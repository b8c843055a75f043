/**
 * The rules that relate the two deployments of a gate file to each other. They live with the rest
 * of validation so that loading the file and every command that uses it (`plan`, `run`, the
 * action) give one answer, naming the file, the field and the value.
 */
import { resolve } from 'node:path'
import { ConfigError } from '../errors.js'
import { redactUrl } from '../secrets/redact.js'
import type { Deployment, GatedRun } from './types.js'

/**
 * Both sides must ask the same questions the same way: a different tokenizer or maximum length
 * changes prompt truncation, and the comparison would measure configuration, not the model.
 * Checked when the gate file is loaded.
 */
export function checkComparableDeployments(baseline: Deployment, candidate: Deployment, source: string): void {
  if (baseline.kind !== 'server' || candidate.kind !== 'server') return
  for (const [field, a, b] of [
    ['tokenizer', baseline.tokenizer, candidate.tokenizer],
    ['max_sequence_length', baseline.maxSequenceLength, candidate.maxSequenceLength]
  ] as const) {
    if (a !== b) {
      throw new ConfigError(
        'config.deployments_differ',
        `baseline and candidate must use the same ${field} (${String(a)} vs ${String(b)}), or prompts could differ`,
        { file: source, field: `deployments.candidate.${field}`, value: b }
      )
    }
  }
}

/**
 * Both sides pointing at one deployment measure it against itself: every change would pass.
 * Typical cause: a single server started from the pull request's checkout, with the baseline
 * meant to come from the archive; when no archive matches and the baseline is run here, it
 * would be run against the candidate. Only a self-check does that on purpose.
 *
 * Not checked at load: the same file is valid for `--self-check`, for one side at a time (an
 * action shard, an archived baseline) and when the two sides are launched from different commits
 * at one address; the runner applies it once it knows the invocation.
 */
export function checkDistinctDeployments(baseline: Deployment, candidate: Deployment, source: string): void {
  const identity = (d: Deployment): string =>
    d.kind === 'server'
      ? JSON.stringify(['server', d.api, new URL(d.baseUrl).href.replace(/\/+$/, ''), d.model])
      : d.kind === 'command'
        ? JSON.stringify(['command', d.command, d.model, d.seed])
        : JSON.stringify(['prod_env', resolve(d.localPath), d.deployment])
  if (identity(baseline) === identity(candidate)) {
    throw new ConfigError(
      'config.same_deployment',
      'baseline and candidate are the same deployment, so the candidate would never be measured; ' +
        'point them at different servers or models (use --self-check to measure a server against itself)',
      {
        file: source,
        field: 'deployments.candidate',
        value:
          candidate.kind === 'server'
            ? `${redactUrl(candidate.baseUrl)} ${candidate.model}`
            : candidate.kind === 'command'
              ? candidate.command.join(' ')
              : candidate.deployment
      }
    )
  }
}

/**
 * A calibration check needs HELM's `max_prob` from real log-probabilities. HELM 0.5.16's OpenAI
 * chat client asks for none, so every chat answer gets `max_prob` 1 and ECE would only restate the
 * error rate (HELM itself skips `ece_10_bin` then): refused when the file is loaded, so that
 * `plan` says it before any instance is spent. The completions client records them.
 */
export function calibrationNeedsLogprobs(
  source: string,
  runs: readonly GatedRun[],
  deployments: { baseline: Deployment; candidate: Deployment } | null
): void {
  const i = runs.findIndex(run => run.calibration)
  if (i < 0 || !deployments) return
  for (const side of ['baseline', 'candidate'] as const) {
    const d = deployments[side]
    if (d.kind === 'server' && d.api === 'chat') {
      throw new ConfigError(
        'config.calibration_needs_logprobs',
        `runs[${i}].calibration needs log-probabilities, and HELM's chat client records none (max_prob is 1 on every answer): serve deployments.${side} with api: completions`,
        { file: source, field: `deployments.${side}.api`, value: d.api }
      )
    }
  }
}
