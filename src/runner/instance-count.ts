/**
 * How many instances each gated comparison will have, asked of HELM itself: `helm-run --dry-run`
 * with the baseline side's exact entries and prod_env, into a temporary folder. A dry run sends
 * no request, but it builds the scenarios and down-samples them exactly as the real run will.
 * The count cannot be derived from max_eval_instances alone: HELM draws that many instances from
 * all evaluation splits together, and a comparison reads one split (docs/helm.md "Offline
 * scenarios"): 200 on synthetic_reasoning gives 99 test instances.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import type { GatedRun } from '../config/types.js'
import { runMatchesEntry } from '../gate/match.js'
import { readRunDirectory } from '../helm/read/discover.js'
import { streamJson, type JsonPathSegment } from '../helm/read/json-stream.js'
import { readdir } from 'node:fs/promises'
import { trackedTempDir } from '../process/registry.js'
import { runHelmProcess } from './helm-process.js'
import { PROD_ENV_FILES } from './prod-env.js'
import { decisiveLine, readLogTail } from './root-cause.js'
import type { SidePlan } from './side-plan.js'

export interface SplitCounts {
  /** Clean (unperturbed) instances per split, eval splits only. */
  clean: Record<string, number>
  /** Perturbed copies per perturbation name. */
  perturbed: Record<string, number>
}

export interface InstanceCount {
  run: GatedRun
  /** The split the comparison will read, as the comparison would choose it; null when unknown. */
  split: string | null
  /** Clean instances in that split: the comparison's n. */
  n: number | null
  counts: SplitCounts | null
}

export type CountResult = { ok: true; counts: InstanceCount[] } | { ok: false; problem: string }

const DRY_RUN_TIMEOUT_MS = 10 * 60_000

/** Runs the dry run for `plan` (one side's plan; both sides run the same entries). */
export async function countInstances(
  plan: SidePlan,
  runs: GatedRun[],
  settings: { helmRun: string; pluginPath: string; env: NodeJS.ProcessEnv }
): Promise<CountResult> {
  // It holds the prod_env (credentials.conf included): removed on every path, a signal too.
  const temp = trackedTempDir('helm-gate-count-')
  const dir = temp.path
  try {
    const localPath = join(dir, 'prod_env')
    const outputPath = join(dir, 'out')
    await mkdir(localPath, { recursive: true })
    for (const name of PROD_ENV_FILES) await writeFile(join(localPath, name), plan.prodEnv.files[name], { mode: 0o600 })
    const args = replaceOptions(plan.args, { '--output-path': outputPath, '--local-path': localPath, '--suite': 'count' })
    const logFile = join(dir, 'dry-run.log')
    const result = await runHelmProcess({
      side: 'count',
      command: settings.helmRun,
      args: [...args, '--dry-run'],
      env: { ...settings.env, PYTHONPATH: [settings.pluginPath, settings.env.PYTHONPATH].filter(Boolean).join(delimiter) },
      logFile,
      timeoutMs: DRY_RUN_TIMEOUT_MS,
      expectedRuns: plan.entries.length
    })
    if (result.spawnError) return { ok: false, problem: `could not start ${settings.helmRun}: ${result.spawnError}` }
    if (result.exitCode !== 0) {
      const quote = decisiveLine(await readLogTail(logFile))
      return { ok: false, problem: `helm-run --dry-run exited with ${result.exitCode ?? result.signal}${quote ? `: ${quote.text}` : ''}` }
    }
    const suite = join(outputPath, 'runs', 'count')
    const dirs = await Promise.all(
      (await readdir(suite, { withFileTypes: true }))
        .filter(entry => entry.isDirectory() && entry.name !== 'eval_cache')
        .map(entry => readRunDirectory(join(suite, entry.name)))
    )
    const counts: InstanceCount[] = []
    for (const run of runs) {
      const found = dirs.find(d => d.files.scenarioState && runMatchesEntry(d, run))
      if (!found) {
        counts.push({ run, split: null, n: null, counts: null })
        continue
      }
      const splitCounts = await countScenarioState(join(found.path, 'scenario_state.json'))
      const split = comparisonSplit(run, splitCounts)
      counts.push({ run, split, n: split === null ? null : (splitCounts.clean[split] ?? 0), counts: splitCounts })
    }
    return { ok: true, counts }
  } finally {
    await temp.remove()
  }
}

/** The split a comparison reads: the configured one, else the only one, else test (as compare does). */
export function comparisonSplit(run: GatedRun, counts: SplitCounts): string | null {
  if (run.split !== null) return run.split
  const splits = Object.keys(counts.clean).sort()
  if (splits.length === 1) return splits[0]
  return splits.includes('test') ? 'test' : null
}

/** Distinct instances per split (clean) and per perturbation, from scenario_state.json. */
export async function countScenarioState(file: string): Promise<SplitCounts> {
  const clean = new Map<string, Set<string>>()
  const perturbed = new Map<string, Set<string>>()
  const plan = (path: readonly JsonPathSegment[]): 'descend' | 'emit' | 'skip' => {
    if (path.length === 0) return 'descend'
    if (path[0] !== 'request_states') return 'skip'
    if (path.length <= 2) return 'descend'
    return path[2] === 'instance' && path.length === 3 ? 'descend' : path[2] === 'instance' && isCounted(path[3]) ? 'emit' : 'skip'
  }
  const current = new Map<number, { id?: string; split?: string; perturbation?: string }>()
  for await (const event of streamJson(file, { plan })) {
    if (event.kind !== 'value' || event.path.length !== 4) continue
    const index = event.path[1] as number
    const entry = current.get(index) ?? {}
    current.set(index, entry)
    const value = event.value as Record<string, unknown> | string
    if (event.path[3] === 'id' && typeof value === 'string') entry.id = value
    if (event.path[3] === 'split' && typeof value === 'string') entry.split = value
    if (event.path[3] === 'perturbation' && typeof value === 'object' && value !== null) entry.perturbation = String(value.name)
  }
  for (const { id, split, perturbation } of current.values()) {
    if (id === undefined || split === undefined || split === 'train') continue
    const into = perturbation === undefined ? clean : perturbed
    const key = perturbation ?? split
    let set = into.get(key)
    if (!set) into.set(key, (set = new Set()))
    set.add(id)
  }
  const sizes = (map: Map<string, Set<string>>): Record<string, number> =>
    Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)).map(([key, set]) => [key, set.size]))
  return { clean: sizes(clean), perturbed: sizes(perturbed) }
}

function isCounted(segment: JsonPathSegment): boolean {
  return segment === 'id' || segment === 'split' || segment === 'perturbation'
}

function replaceOptions(args: string[], values: Record<string, string>): string[] {
  const out = [...args]
  for (const [flag, value] of Object.entries(values)) {
    const at = out.indexOf(flag)
    if (at >= 0) out[at + 1] = value
  }
  return out
}
