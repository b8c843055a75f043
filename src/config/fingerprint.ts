/**
 * The fingerprint of everything that determines the baseline's answers: run entries, HELM
 * version, instance budget, trials and the baseline deployment's identity. Thresholds and
 * statistics settings are left out on purpose: tightening a margin must not invalidate an
 * archived baseline, while changing what was asked or whom it was asked must.
 */
import { createHash } from 'node:crypto'
import type { Deployment, GateConfig } from './types.js'

export function fingerprint(config: GateConfig): string {
  const identity = {
    helm: config.helm
      ? {
          version: config.helm.version,
          max_eval_instances: config.helm.maxEvalInstances,
          num_train_trials: config.helm.numTrainTrials
        }
      : null,
    entries: [...new Set(config.runs.map(run => run.entry))].sort(),
    baseline: config.deployments ? deploymentIdentity(config.deployments.baseline) : null
  }
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex')
}

function deploymentIdentity(deployment: Deployment): Record<string, unknown> {
  if (deployment.kind === 'prod_env') {
    return { kind: 'prod_env', deployment: deployment.deployment }
  }
  return {
    kind: 'server',
    api: deployment.api,
    base_url: deployment.baseUrl,
    model: deployment.model,
    tokenizer: deployment.tokenizer,
    max_sequence_length: deployment.maxSequenceLength
  }
}
