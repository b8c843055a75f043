/**
 * Finding run directories under a HELM output path.
 *
 * Accepted inputs: an output path (`benchmark_output`, holding `runs/<suite>/`), its `runs/`
 * directory, a suite directory (`runs/<suite>`), FlexLLMGen's working folder (`runs/<run>/`, no
 * suite level), or one run directory. Like HELM's own
 * summarize.py, only directories containing run_spec.json are runs; `eval_cache` and `groups`
 * are skipped. Directory names are never parsed: they are lossy (docs/helm.md "Run names").
 */
import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { InputError } from '../../errors.js'
import type { IncompleteRunDirectory, RunDirectory, RunScan } from '../types.js'
import { detectLayout, readRunSpec, readScenarioName } from './run-spec.js'

export const RUN_FILES = {
  runSpec: 'run_spec.json',
  scenario: 'scenario.json',
  scenarioState: 'scenario_state.json',
  stats: 'stats.json',
  perInstanceStats: 'per_instance_stats.json'
} as const

/** Written next to run directories by helm-run / helm-summarize; not runs. */
const NOT_RUNS = new Set(['eval_cache', 'groups'])

async function kindOf(path: string): Promise<'file' | 'directory' | null> {
  try {
    const info = await stat(path)
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : null
  } catch {
    return null
  }
}

async function childDirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  return entries
    .filter(entry => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_RUNS.has(entry.name))
    .map(entry => entry.name)
    .sort()
}

async function presentFiles(dir: string): Promise<RunDirectory['files']> {
  const files = {} as RunDirectory['files']
  for (const [flag, name] of Object.entries(RUN_FILES) as [keyof typeof RUN_FILES, string][]) {
    files[flag] = (await kindOf(join(dir, name))) === 'file'
  }
  return files
}

/** Reads one directory that contains run_spec.json. */
export async function readRunDirectory(dir: string): Promise<RunDirectory> {
  const path = resolve(dir)
  const files = await presentFiles(path)
  if (!files.runSpec) {
    throw new InputError('input.not_a_run', `${path} is not a HELM run directory: it has no run_spec.json`, { file: path })
  }
  const runSpec = await readRunSpec(join(path, RUN_FILES.runSpec))
  const scenarioName = files.scenario ? await readScenarioName(join(path, RUN_FILES.scenario)) : null
  return { path, runSpec, scenarioName, files, layout: detectLayout(runSpec) }
}

async function containsRunDirectories(dir: string): Promise<boolean> {
  for (const child of await childDirectories(dir)) {
    if ((await kindOf(join(dir, child, RUN_FILES.runSpec))) === 'file') return true
  }
  return false
}

/** The suite directory to scan under `path`, or null when `path` is itself a suite. */
async function locateSuite(path: string): Promise<string | null> {
  let suitesDir: string | null = null
  if ((await kindOf(join(path, 'runs'))) === 'directory') {
    suitesDir = join(path, 'runs')
  } else if (!(await containsRunDirectories(path))) {
    // Perhaps a `runs/` directory: its children are suites holding run directories.
    const children = await childDirectories(path)
    const suites = []
    for (const child of children) if (await containsRunDirectories(join(path, child))) suites.push(child)
    if (suites.length > 0) suitesDir = path
  }
  if (suitesDir === null) return null
  if (await containsRunDirectories(suitesDir)) return flatRunsFolder(path, suitesDir)
  const suites = await childDirectories(suitesDir)
  if (suites.length === 0) {
    throw new InputError('input.no_runs', `No HELM suite found in ${suitesDir} (expected runs/<suite>/<run>/run_spec.json)`, {
      file: suitesDir
    })
  }
  if (suites.length > 1) {
    throw new InputError(
      'input.ambiguous_suites',
      `${path} holds several HELM suites (${suites.join(', ')}); pass one suite directory, e.g. ${join(suitesDir, suites[0])}`,
      { file: path, value: suites }
    )
  }
  return join(suitesDir, suites[0])
}

/**
 * FlexLLMGen's working folder: its HELM script writes each run to `<--run-path>/<run name>/`,
 * `runs/` by default, with no suite level, so `runs/` is one suite of runs. Taking each run for a
 * suite would refuse the folder as ambiguous, and passing one run's folder would drop the others.
 * A `runs/` that holds suites beside runs is neither layout and is refused, naming both kinds.
 */
async function flatRunsFolder(path: string, runsDir: string): Promise<string> {
  const suites: string[] = []
  for (const child of await childDirectories(runsDir)) {
    if ((await kindOf(join(runsDir, child, RUN_FILES.runSpec))) !== 'file' && (await containsRunDirectories(join(runsDir, child)))) {
      suites.push(child)
    }
  }
  if (suites.length > 0) {
    throw new InputError(
      'input.ambiguous_suites',
      `${runsDir} holds both run directories and HELM suites (${suites.join(', ')}); pass ${runsDir} for its own runs, or one suite directory, e.g. ${join(runsDir, suites[0])}`,
      { file: path, value: suites }
    )
  }
  return runsDir
}

/**
 * Everything under `path`: complete runs (with run_spec.json) and incomplete ones (a directory
 * where a run should be, without run_spec.json: what a failed helm-run leaves). Sorted by path.
 */
export async function scanRuns(inputPath: string): Promise<RunScan> {
  const path = resolve(inputPath)
  const kind = await kindOf(path)
  if (kind === null) throw new InputError('input.not_found', `HELM output path ${path} does not exist`, { file: path })
  if (kind !== 'directory') {
    throw new InputError('input.not_a_directory', `HELM output path ${path} is not a directory`, { file: path })
  }
  if ((await kindOf(join(path, RUN_FILES.runSpec))) === 'file') {
    return { root: path, runs: [await readRunDirectory(path)], incomplete: [] }
  }
  const suite = (await locateSuite(path)) ?? path
  const runs: RunDirectory[] = []
  const incomplete: IncompleteRunDirectory[] = []
  for (const child of await childDirectories(suite)) {
    const dir = join(suite, child)
    const files = await presentFiles(dir)
    if (files.runSpec) runs.push(await readRunDirectory(dir))
    else incomplete.push({ path: dir, files })
  }
  if (runs.length === 0 && incomplete.length === 0) {
    throw new InputError('input.no_runs', `No HELM run directories found in ${path} (expected <output>/runs/<suite>/<run>/run_spec.json)`, {
      file: path
    })
  }
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  return { root: suite, runs: runs.sort(byPath), incomplete: incomplete.sort(byPath) }
}

/**
 * The complete run directories under `path`, sorted by path. Throws InputError
 * `input.incomplete_run` when any run directory lacks run_spec.json: a failed helm-run must
 * fail the gate, never shrink the comparison silently. Callers that want to list such runs
 * themselves use scanRuns().
 */
export async function discoverRuns(path: string): Promise<RunDirectory[]> {
  const scan = await scanRuns(path)
  if (scan.incomplete.length > 0) {
    const names = scan.incomplete.map(run => run.path)
    throw new InputError(
      'input.incomplete_run',
      `${names.length} HELM run director${names.length === 1 ? 'y has' : 'ies have'} no run_spec.json (a failed helm-run leaves an empty directory): ${names.join(', ')}`,
      { file: names[0], value: names }
    )
  }
  return scan.runs
}
