/**
 * The evidence directory of one invocation and its manifest: what gets uploaded, whatever the
 * outcome, so that a failed run or gate can be investigated from its artifact.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { GatedRun } from '../config/types.js'
import { HELM_GATE_VERSION } from '../version.js'
import type { ShardId } from './artifact-names.js'
import { writeManifest, type BaselineOrigin, type EvidenceManifest, type Side } from './manifest.js'
import type { Session } from './session.js'

export async function evidenceDir(session: Session): Promise<string> {
  const dir = path.join(session.outRoot, 'evidence')
  await mkdir(dir, { recursive: true })
  return dir
}

export interface ManifestFacts {
  fingerprint: string
  helmVersion: string | null
  configSource: string
  sidePaths: Partial<Record<Side, string>>
  completed: Side[]
  runs: readonly GatedRun[]
  shard?: ShardId
  baselineOrigin: BaselineOrigin | null
}

export async function recordManifest(session: Session, dir: string, facts: ManifestFacts): Promise<EvidenceManifest> {
  const sides = (Object.keys(facts.sidePaths) as Side[]).sort()
  const relative: Partial<Record<Side, string>> = {}
  for (const side of sides) {
    relative[side] = path
      .relative(dir, facts.sidePaths[side] as string)
      .split(path.sep)
      .join('/')
  }
  const { event } = session
  const manifest: EvidenceManifest = {
    schema: 'helm-gate-evidence/1',
    tool_version: HELM_GATE_VERSION,
    mode: session.settings.mode,
    fingerprint: facts.fingerprint,
    helm_version: facts.helmVersion,
    config_source: facts.configSource,
    sides,
    side_paths: relative,
    entries: [...new Set(facts.runs.map(run => run.entry))],
    shard: facts.shard ?? null,
    complete: sides.length > 0 && sides.every(side => facts.completed.includes(side)),
    baseline_origin: facts.baselineOrigin,
    event: {
      name: event.eventName,
      run_id: event.runId,
      run_attempt: event.runAttempt,
      pull_request: event.pullRequest?.number ?? null,
      head_sha: event.checkSha
    },
    created_at: session.deps.now().toISOString()
  }
  await writeManifest(dir, manifest)
  return manifest
}
