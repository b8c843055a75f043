/**
 * The performance half in the action (docs/load.md): after the quality half, load-test both
 * deployments when the mode and the `load` input ask for it, write the per-request timings into
 * the evidence folder and join the verdicts. The baseline deployment must be live even when the
 * quality half used an archived baseline (or an error, or a loud skip with load.baseline: optional).
 */
import type { GateConfig } from '../config/types.js'
import { ConfigError } from '../errors.js'
import { attachLoad } from '../load/combine.js'
import { runLoadHalf } from '../load/run-half.js'
import type { Report } from '../model/report.js'
import type { LoadPolicy } from './inputs.js'
import { launchesAny, LoadWhileUp } from '../launch/load-while-up.js'
import { runLaunchedLoad, type LaunchedLoadOptions } from '../launch/load-only.js'
import type { Session } from './session.js'
import { assertLaunchAllowed } from './launch-policy.js'

export function wantsLoad(policy: LoadPolicy, mode: 'gate' | 'compare', config: GateConfig): boolean {
  if (policy === 'skip') return false
  if (policy === 'run') {
    if (!config.load) {
      throw new ConfigError('config.missing', 'input load is run but the gate file has no load: section', {
        file: config.source,
        field: 'load'
      })
    }
    return true
  }
  return mode === 'gate' && config.load !== null && config.load !== undefined
}

export async function withLoadHalf(
  session: Session,
  config: GateConfig,
  report: Report,
  evidence: string,
  mode: 'gate' | 'compare',
  gateSetOutput: string | null,
  /** The load half measured while launched servers were up (src/launch/load-while-up.ts). */
  launched: LoadWhileUp | null = null,
  /**
   * For a gate that launches its servers but whose quality half launched only some of them (an
   * archived baseline is not run, so not launched): launch them afresh for the load half alone.
   */
  relaunch: LaunchedLoadOptions | null = null
): Promise<Report> {
  if (!wantsLoad(session.settings.load, mode, config)) return report
  const io = session.deps.io
  return session.jobLog.phase('load half', async () => {
    if (!launched) io.info('helm-gate: the load half starts (docs/load.md)')
    if (relaunch)
      io.info('helm-gate: the servers the gate file launches are not up after the quality half: launching both for the load half')
    const measured = launched ? () => launched.result() : relaunch ? () => runLaunchedLoad(config, relaunch) : undefined
    const loaded = await runLoadHalf(config, evidence, { env: session.deps.env, progress: line => io.info(line), gateSetOutput, measured })
    return attachLoad(report, loaded.report)
  })
}

/**
 * For a gate that launches its servers: the load half, to run while they are up (or null). With an
 * archived baseline the quality half launches only the candidate, and load figures need both sides
 * live in one period of one job: then nothing is measured during the quality half and
 * `relaunchForLoad` starts both servers again afterwards.
 */
export function loadWhileUp(session: Session, config: GateConfig, mode: 'gate' | 'compare', archivedBaseline = false): LoadWhileUp | null {
  if (archivedBaseline || !launchesAny(config) || !wantsLoad(session.settings.load, mode, config)) return null
  return new LoadWhileUp(config, { env: session.deps.env, progress: line => session.deps.io.info(line) })
}

/**
 * The launch of both servers for the load half alone, when the quality half did not leave them up
 * to measure (`needed`): it reused an archived baseline (mode gate), or its shards ran in other
 * jobs (mode compare).
 */
export function relaunchForLoad(
  session: Session,
  config: GateConfig,
  mode: 'gate' | 'compare',
  evidence: string,
  baseRef: string | null,
  needed: boolean
): LaunchedLoadOptions | null {
  if (!needed || !launchesAny(config) || !wantsLoad(session.settings.load, mode, config)) return null
  // Mode compare launches nothing else, so the fork rule is checked here too.
  assertLaunchAllowed(config, session.event, session.settings.allowForkLaunch)
  // Server logs append to the evidence folder's logs/<side>-server.log, after the quality half's.
  return { outDir: evidence, cwd: session.workDir, env: session.deps.env, progress: line => session.deps.io.info(line), baseRef }
}
