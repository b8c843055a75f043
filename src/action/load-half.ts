/**
 * Whether the action runs the performance half (docs/load.md), from the mode and the `load`
 * input, and how: under a job-log group of its own, with the fork rule checked before servers are
 * launched for it. runGate runs it (src/pipeline/run-gate.ts), while launched servers are up or
 * after the quality half; the baseline deployment must be live even when the quality half used an
 * archived baseline (or an error, or a loud skip with load.baseline: optional).
 */
import type { GateConfig } from '../config/types.js'
import { ConfigError } from '../errors.js'
import type { LoadHalf } from '../launch/load-measurement.js'
import type { LoadPolicy } from './inputs.js'
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

/** runGate's `load` setting for this mode: null when the load half does not run. */
export function actionLoadHalf(session: Session, config: GateConfig, mode: 'gate' | 'compare'): LoadHalf | null {
  if (!wantsLoad(session.settings.load, mode, config)) return null
  return {
    section: run => session.jobLog.phase('load half', run),
    // Mode compare launches nothing else (its shards ran in other jobs), so the fork rule is checked here too.
    beforeRelaunch: () => assertLaunchAllowed(config, session.event, session.settings.allowForkLaunch)
  }
}
