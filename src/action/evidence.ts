/**
 * The evidence directory of one invocation: what gets uploaded whatever the outcome (run
 * directories, logs, manifest.json, reports), so a failed run or gate can be investigated from
 * its artifact. It is runGate's output folder.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { Manifest } from '../model/manifest.js'
import type { Session } from './session.js'

export async function evidenceDir(session: Session): Promise<string> {
  // visible-paths.ts (via openSession) names this directory too.
  const dir = path.join(session.outRoot, 'evidence')
  await mkdir(dir, { recursive: true })
  return dir
}

/** The workflow run, as the manifest records it. */
export function manifestEvent(session: Session): NonNullable<Manifest['event']> {
  const { event } = session
  return {
    name: event.eventName,
    run_id: event.runId,
    run_attempt: event.runAttempt,
    pull_request: event.pullRequest?.number ?? null,
    head_sha: event.checkSha
  }
}
