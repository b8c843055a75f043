/**
 * After helm-run: did every expected run really complete? helm-run exits 0 when filters left
 * nothing to run, and leaves an empty directory for a failed run (docs/helm.md "Exit codes and failed runs"); neither
 * may pass silently.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { GatedRun } from '../config/types.js'
import { HelmRunError, InputError } from '../errors.js'
import { taskMatchesEntry } from '../gate/lmeval.js'
import { runMatchesEntry } from '../gate/match.js'
import { RUN_FILES, readRunDirectory } from '../helm/read/discover.js'
import type { RunDirectory } from '../helm/types.js'
import { looksLikeLmEvalOutput, readLmEvalOutput } from '../lmeval/read.js'

export interface SideVerification {
  /** Complete run directories found in the side's suite. */
  runs: RunDirectory[]
  errors: HelmRunError[]
}

const NOT_RUNS = new Set(['eval_cache', 'groups'])

/** `program` names what made the side in messages: helm-run, or the runner command by its name. */
export async function verifySideOutput(
  side: string,
  outputPath: string,
  suite: string,
  gated: GatedRun[],
  program = 'helm-run'
): Promise<SideVerification> {
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
    errors.push(new HelmRunError('runner.nothing_ran', `${side}: ${program} produced no run directory (nothing ran)`, { file: suiteDir }))
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

/**
 * After a runner command with lm-eval output (`command_output: lm-eval`): the side's folder must
 * hold one finished lm-eval run, its results file and a samples file for every task it lists
 * (lm-eval writes samples only with --log_samples, and the results file only when the run ends),
 * with a task for every gate entry. Whatever the reader refuses is named here, as the side's
 * error, and stops the gate before anything is compared.
 */
export async function verifyLmEvalSideOutput(
  side: string,
  outputPath: string,
  gated: GatedRun[],
  program = 'the runner command'
): Promise<{ errors: HelmRunError[] }> {
  if (!(await looksLikeLmEvalOutput(outputPath))) {
    return {
      errors: [
        new HelmRunError(
          'runner.nothing_ran',
          `${side}: ${program} wrote no lm-eval output (no results_<date>.json or samples_<task>_<date>.jsonl in its {output} folder or one below); see the ${side} log`,
          { file: outputPath }
        )
      ]
    }
  }
  let tasks: string[]
  let resultsFile: string
  try {
    const output = await readLmEvalOutput(outputPath)
    tasks = output.tasks.map(task => task.name)
    resultsFile = output.resultsFile
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return {
      errors: [
        new HelmRunError(
          'runner.lmeval_output',
          `${side}: ${program} did not leave a complete lm-eval run (run lm_eval with --log_samples --output_path {output}): ${error.message}; see the ${side} log`,
          { file: error.location.file ?? outputPath, field: error.location.field, value: error.location.value }
        )
      ]
    }
  }
  const errors: HelmRunError[] = []
  for (const run of gated) {
    if (tasks.some(task => taskMatchesEntry(task, run))) continue
    errors.push(
      new HelmRunError('runner.run_missing', `${side}: the lm-eval run has no task for entry ${run.entry} (it ran ${tasks.join(', ')})`, {
        file: resultsFile,
        value: run.entry
      })
    )
  }
  return { errors }
}
