/**
 * The performance half alone (`helm-gate load`, `run --only load`, and a full run's load half when
 * the launched sides are up one at a time) for a gate that launches its servers: both launched on
 * a sequential schedule, the sides are swapped between blocks A B B A (src/launch/side-holder.ts);
 * otherwise they are started on the gate file's schedule and the load half runs while they are up
 * (src/launch/load-while-up.ts). Stopped on every path. No helm-run is involved.
 * A side that cannot be launched is an error of the load half (its message quotes the server's
 * log), never a pass.
 */
import { resolve } from 'node:path'
import type { GateConfig } from '../config/types.js'
import { GateError } from '../errors.js'
import { runLoad, type LoadOutcome } from '../load/run-load.js'
import type { Side } from '../model/report.js'
import { apiKeyNames, apiKeyValues } from '../secrets/api-keys.js'
import { childProcessEnv } from '../secrets/child-env.js'
import { Launcher } from './launcher.js'
import { withLaunchedSides } from './launched-sides.js'
import { launchesAny, LoadWhileUp } from './load-while-up.js'
import { trackedTempDir } from './registry.js'
import { holdsOneAtATime, SideHolder } from './side-holder.js'

export interface LaunchedLoadOptions {
  /** Where `logs/<side>-server.log` go. */
  outDir: string
  cwd: string
  env: NodeJS.ProcessEnv
  progress: (line: string) => void
  baseRef: string | null
  /** One side after the other whatever the gate file says (`--sequential`). */
  sequential?: boolean
}

export async function runLaunchedLoad(config: GateConfig, options: LaunchedLoadOptions): Promise<LoadOutcome> {
  const keyNames = apiKeyNames(Object.values(config.deployments ?? {}))
  const secrets = apiKeyValues(Object.values(config.deployments ?? {}), options.env)
  const load = new LoadWhileUp(config, { env: options.env, progress: options.progress })
  const temp = trackedTempDir()
  const errors: GateError[] = []
  let launcher: Launcher | null = null
  try {
    launcher = await Launcher.open({
      config,
      cwd: options.cwd,
      env: childProcessEnv(options.env, keyNames),
      baseRef: options.baseRef,
      outDir: resolve(options.cwd, options.outDir),
      secrets,
      progress: options.progress,
      tempDir: temp.path
    })
    const schedule = options.sequential ? 'sequential' : (config.launch?.schedule ?? 'concurrent')
    if (launcher && holdsOneAtATime(config, options.sequential)) {
      // One at a time: swapped between blocks A B B A (or one period each, said in the report).
      return await runLoad(config, { env: options.env, progress: options.progress }, new SideHolder(launcher, config, options.progress))
    }
    await withLaunchedSides<Side>(launcher, ['baseline', 'candidate'], schedule, {
      side: side => side,
      measure: async () => {},
      whileUp: up => load.hold(up, {}),
      failed: (_side, error) => void errors.push(error)
    })
  } finally {
    await launcher?.close()
    await temp.remove()
  }
  const outcome = await load.result()
  if (errors.length > 0) {
    const report = outcome.report
    // One cause, one error: a side that could not be launched then did not answer the load probe.
    const failed = errors.map(error => /^deployments\.(baseline|candidate)\./.exec(error.location.field ?? '')?.[0]).filter(Boolean)
    report.errors = report.errors.filter(issue => !failed.some(prefix => issue.field?.startsWith(prefix as string)))
    report.errors.unshift(...errors.map(error => ({ code: error.code, message: error.message })))
    report.verdict = 'error'
    report.headline = `Performance: error: ${errors[0].message.split('\n')[0]}`
  }
  return outcome
}

/** For `runLoadHalf`'s `measured`: the launched load half when the gate launches, else undefined. */
export function launchedLoadFor(config: GateConfig, options: LaunchedLoadOptions): (() => Promise<LoadOutcome>) | undefined {
  return launchesAny(config) ? () => runLaunchedLoad(config, options) : undefined
}
