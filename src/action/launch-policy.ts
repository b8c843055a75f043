/**
 * What the action lets a gate file launch. The launch commands come from the frozen gate file,
 * but `checkout: head` runs the pull request's own files on the runner, and a fork's pull request
 * is anyone's code: on a self-hosted GPU runner that is a foothold on the machine. So nothing is
 * launched for a fork unless the `allow-fork-launch` input says so (docs/launch.md).
 */
import type { GateConfig } from '../config/types.js'
import { UsageError } from '../errors.js'
import { makeRunPlan } from '../plan/run-plan.js'
import { INPUTS } from './constants.js'
import type { EventInfo } from './event.js'
import type { Session } from './session.js'

export function assertLaunchAllowed(config: GateConfig, event: EventInfo, allowForkLaunch: boolean): void {
  const launched = Object.keys(config.launch?.sides ?? {})
  // A runner command side (docs/gate-file.md "Runner command") runs a program on the runner as
  // a launch does, and may run the checkout's files: the same rule.
  const commands = (['baseline', 'candidate'] as const).filter(side => config.deployments?.[side].kind === 'command')
  if ((launched.length === 0 && commands.length === 0) || !event.pullRequest?.isFork || allowForkLaunch) return
  const what = [
    ...(launched.length > 0 ? [`launches ${launched.join(' and ')}`] : []),
    ...(commands.length > 0 ? [`runs a runner command for ${commands.join(' and ')}`] : [])
  ].join(' and ')
  throw new UsageError(
    'launch.fork_refused',
    `this pull request comes from a fork and the gate file ${what}; nothing was launched. ` +
      `Set input ${INPUTS.allowForkLaunch}: true only on a runner that may run untrusted code (never a self-hosted one)`,
    { field: INPUTS.allowForkLaunch, value: `pull request #${event.pullRequest.number}` }
  )
}

/**
 * The commit `checkout: base` launches from and `fingerprint_paths` are read at: the pull
 * request's base, the merge queue's base, else the commit under test (a push to the default
 * branch archives the baseline of that very commit).
 */
export function launchBaseRef(event: EventInfo, sha: string | undefined): string | null {
  return event.pullRequest?.baseSha ?? event.mergeGroupBaseSha ?? (sha || null)
}

/** The launch part of the pipeline settings: the base commit, after the fork check. */
export function launchSettings(session: Session, config: GateConfig): { baseRef: string | null } {
  // Mode compare takes both sides from artifacts: it launches nothing.
  if (session.settings.mode !== 'compare') assertLaunchAllowed(config, session.event, session.settings.allowForkLaunch)
  return { baseRef: launchBaseRef(session.event, session.deps.env.GITHUB_SHA) }
}

/**
 * The gate set's fingerprint as this invocation sees it: with `fingerprint_paths`, the digests
 * of those files at the base commit join it (read from the checkout's git history).
 */
export async function sessionFingerprint(session: Session, config: GateConfig): Promise<string> {
  const baseRef = launchBaseRef(session.event, session.deps.env.GITHUB_SHA)
  return (await makeRunPlan(config, { env: session.deps.env, cwd: session.workDir, baseRef })).fingerprint
}
