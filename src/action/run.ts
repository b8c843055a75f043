/**
 * The action: run(deps) opens a session from the inputs and the runner's environment, runs the
 * chosen mode (each a short adapter around pipeline/run-gate.ts) and turns the verdict into the
 * exit status. Expected failures (GateError) are reported with their file, field and value;
 * nothing is thrown to the caller.
 */
import { GateError } from '../errors.js'
import { failsJob, failureMessage } from '../model/publication.js'
import { defaultDeps } from './default-deps.js'
import type { ActionDeps } from './deps.js'
import { baselineMode } from './modes/baseline.js'
import { compareShardsMode } from './modes/compare-shards.js'
import { gateMode } from './modes/gate.js'
import type { ModeOutcome } from './modes/outcome.js'
import { runShardMode } from './modes/run-shard.js'
import { openSession, type Session } from './session.js'
import { hidePaths } from './visible-paths.js'
import { redactText } from '../secrets/redact.js'

const MODES: Record<Session['settings']['mode'], (session: Session) => Promise<ModeOutcome>> = {
  gate: gateMode,
  baseline: baselineMode,
  run: runShardMode,
  compare: compareShardsMode
}

export async function run(deps: ActionDeps = defaultDeps()): Promise<void> {
  let io = deps.io
  try {
    const session = await openSession(deps)
    // From here on warnings and the failure, annotations on the pull request's checks, show no runner path.
    io = session.deps.io
    const outcome = await MODES[session.settings.mode](session)
    const said = outcome.decision === undefined ? `. ${outcome.headline}` : `: ${outcome.decision}`
    io.info(`helm-gate ${session.settings.mode}: ${outcome.verdict}${hidePaths(said, session.pathRoots)}`)
    if (failsJob(outcome.verdict, session.settings.inconclusive)) {
      io.setFailed(failureMessage(outcome.verdict, outcome.headline, outcome.decision))
    }
  } catch (error) {
    io.setFailed(error instanceof GateError ? error.describe() : `helm-gate failed: ${redactText(String((error as Error).stack ?? error))}`)
  }
}
