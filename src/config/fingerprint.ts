/**
 * The fingerprint of everything that determines the baseline's answers: run entries, HELM
 * version, instance budget, trials and the baseline deployment's identity. Thresholds and
 * statistics settings are left out on purpose: tightening a margin must not invalidate an
 * archived baseline, while changing what was asked or whom it was asked must.
 */
import { createHash } from 'node:crypto'
import type { Deployment, GateConfig } from './types.js'

export interface FingerprintExtras {
  /**
   * Repository path -> git blob digest at the base commit, for the files `fingerprint_paths`
   * selects (identity/fingerprint-paths.ts): a change to the baseline's serving files makes a new
   * fingerprint, a change to the candidate's only does not.
   */
  pathDigests?: Record<string, string>
  /**
   * The gate file's key -> sha256 of the traffic set it names (`load.workload.file` with
   * `prompts: traffic`), read by identity/gate-fingerprint.ts: a new set is a new gate set.
   */
  trafficSets?: Record<string, string>
}

export function fingerprint(config: GateConfig, extras: FingerprintExtras = {}): string {
  const identity: Record<string, unknown> = {
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
  // Added only when used, so gate files without launch keep their fingerprints (and archives).
  const launch = config.launch?.sides.baseline
  if (launch) {
    // The command as written: `${VAR}` values are not part of it (pin versions in the gate file
    // or in a fingerprinted file; docs/launch.md).
    identity.baseline_launch = { command: launch.command, checkout: launch.checkout, env: launch.env }
  }
  // The traffic set's bytes and the temperature it is replayed at decide the baseline's answers too.
  if (config.traffic) {
    identity.traffic = { set_sha256: config.traffic.setSha256, temperature: config.traffic.temperature }
  }
  if (config.launch?.fingerprintPaths.length) {
    identity.fingerprint_paths = config.launch.fingerprintPaths
    identity.baseline_files = Object.fromEntries(Object.entries(extras.pathDigests ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  }
  // Added only when a traffic set is used, so other gate files keep their fingerprints.
  const sets = Object.entries(extras.trafficSets ?? {})
  if (sets.length > 0) identity.traffic_sets = Object.fromEntries(sets.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex')
}

function deploymentIdentity(deployment: Deployment): Record<string, unknown> {
  if (deployment.kind === 'prod_env') {
    return { kind: 'prod_env', deployment: deployment.deployment }
  }
  if (deployment.kind === 'command') {
    const identity = { kind: 'command', command: deployment.command, model: deployment.model, seed: deployment.seed }
    // Added only for lm-eval output, so gate files written before command_output keep their fingerprints.
    return deployment.output === 'helm' ? identity : { ...identity, command_output: deployment.output }
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
