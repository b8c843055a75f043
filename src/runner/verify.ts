/**
 * After helm-run: did every expected run really complete? helm-run exits 0 when filters left
 * nothing to run, and leaves an empty directory for a failed run (docs/helm.md "Exit codes and failed runs"); neither
 * may pass silently.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { GatedRun } from '../config/types.js'
import { HelmRunError } from '../errors.js'
import { runMatchesEntry } from '../gate/match.js'
import { RUN_FILES, readRunDirectory } from '../helm/read/discover.js'
import type { RunDirectory } from '../helm/types.js'

export interface SideVerification {
  /** Complete run directories found in the side's suite. */
  runs: RunDirectory[]
  errors: HelmRunError[]
}

const NOT_RUNS = new Set(['eval_cache', 'groups'])

export async function verifySideOutput(side: string, outputPath: string, suite: string, gated: GatedRun[]): Promise<SideVerification> {
  const suiteDir = join(outputPath, 'runs', suite)
  const errors: HelmRunError[] = []
  let names: string[]
  try {
    names = (await readdir(suiteDir, { withFileTypes: true }))
      .filter(entry => entry.isDirectory() && !NOT_RUNS.has(entry.name))
      .map(entry => entry.name)
      .sort()
  } catch {
    names = []
  }

  const runs: RunDirectory[] = []
  for (const name of names) {
    const dir = join(suiteDir, name)
    const present = new Set(await readdir(dir))
    const missing = Object.values(RUN_FILES).filter(file => !present.has(file))
    if (missing.length > 0) {
      errors.push(
        new HelmRunError(
          'runner.incomplete_run',
          `${side}: run ${name} did not complete (missing ${missing.join(', ')}); see the ${side} log`,
          { file: dir }
        )
      )
      continue
    }
    runs.push(await readRunDirectory(dir))
  }

  if (names.length === 0) {
    errors.push(new HelmRunError('runner.nothing_ran', `${side}: helm-run produced no run directory (nothing ran)`, { file: suiteDir }))
    return { runs, errors }
  }
  for (const run of gated) {
    if (!runs.some(dir => runMatchesEntry(dir, run))) {
      const failedHere = errors.length > 0 ? ' (it may be one of the incomplete runs)' : ''
      errors.push(
        new HelmRunError('runner.run_missing', `${side}: no complete run directory for entry ${run.entry}${failedHere}`, {
          file: suiteDir,
          value: run.entry
        })
      )
    }
  }
  return { runs, errors }
}
