/**
 * Gated metric names checked before anything is spent (docs/helm.md "Metric names before the
 * run"): helm-gate's Python helper (python/helm_gate_plugins/metric_names.py) builds each run
 * entry's run specs as helm-run does and asks their metrics which names they declare, without
 * building the scenario. `plan` prints the result; `run` refuses an undeclared name before it
 * launches or runs anything, with the closest declared names. A name that could not be checked
 * (the helper failed, a metric declares nothing) is said so and left to guard.metric_missing,
 * which still reads the names the runs wrote.
 */
import { spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import type { GatedRun } from '../config/types.js'
import { ConfigError } from '../errors.js'
import { killGroupNow, trackGroup, trackedTempDir } from '../process/registry.js'
import { closestWords } from '../words.js'
import { PROD_ENV_FILES } from './prod-env.js'
import type { PreparedRun } from './prepare-run.js'
import { pythonFor } from './helm-install.js'
import { uniqueEntries, type SidePlan } from './side-plan.js'

/** HELM's import and the run specs take about 6 s on a busy 2-core machine; this bounds a hang. */
const HELPER_TIMEOUT_MS = 120_000

export interface DeclaredRunSpec {
  name: string
  numOutputs: number
  declared: string[]
  /** Metric classes that declare no names: what they write cannot be checked here. */
  undeclared: string[]
}

export type DeclaredEntry = { entry: string; runSpecs: DeclaredRunSpec[] } | { entry: string; error: string }

export type DeclaredMetrics = { ok: true; entries: DeclaredEntry[] } | { ok: false; problem: string }

/** Asks the helper, with the side's entries and prod_env (written to a private folder, removed on every path). */
export async function declaredMetricNames(
  plan: SidePlan,
  settings: { python: string[]; pluginPath: string; env: NodeJS.ProcessEnv }
): Promise<DeclaredMetrics> {
  const temp = trackedTempDir('helm-gate-metrics-')
  try {
    const localPath = join(temp.path, 'prod_env')
    await mkdir(localPath, { recursive: true })
    for (const name of PROD_ENV_FILES) await writeFile(join(localPath, name), plan.prodEnv.files[name], { mode: 0o600 })
    const [file, ...prefix] = settings.python
    const args = [...prefix, '-m', 'helm_gate_plugins.metric_names', '--local-path', localPath, ...plan.entries]
    const env = { ...settings.env, PYTHONPATH: [settings.pluginPath, settings.env.PYTHONPATH].filter(Boolean).join(delimiter) }
    const finished = await runBounded(file, args, env)
    if (finished.problem) return { ok: false, problem: finished.problem }
    return parseHelperOutput(finished.stdout)
  } finally {
    await temp.remove()
  }
}

/** The helper's JSON, checked for its shape; anything else is a problem, never a pass. */
export function parseHelperOutput(stdout: string): DeclaredMetrics {
  let parsed: unknown
  try {
    parsed = JSON.parse(stdout)
  } catch {
    return { ok: false, problem: `the metric-name helper printed no JSON (${JSON.stringify(stdout.slice(0, 120))})` }
  }
  const entries = (parsed as { entries?: unknown }).entries
  if (!Array.isArray(entries)) return { ok: false, problem: 'the metric-name helper printed no entries' }
  const out: DeclaredEntry[] = []
  for (const item of entries as Record<string, unknown>[]) {
    if (typeof item?.entry !== 'string') return { ok: false, problem: 'the metric-name helper printed an entry without its name' }
    if (typeof item.error === 'string') {
      out.push({ entry: item.entry, error: item.error })
      continue
    }
    if (!Array.isArray(item.run_specs)) return { ok: false, problem: `the metric-name helper printed no run specs for ${item.entry}` }
    out.push({
      entry: item.entry,
      runSpecs: (item.run_specs as Record<string, unknown>[]).map(spec => ({
        name: String(spec.name),
        numOutputs: Number(spec.num_outputs),
        declared: Array.isArray(spec.declared) ? spec.declared.map(String) : [],
        undeclared: Array.isArray(spec.undeclared) ? spec.undeclared.map(String) : []
      }))
    })
  }
  return { ok: true, entries: out }
}

export interface MetricNameCheck {
  /** One line per gated run: declared, refused (with the closest names) or not checked (and why). */
  lines: string[]
  /** The refusals, each naming the gate file's field and value. */
  refused: ConfigError[]
}

/**
 * Each gated run's metric against the names its entry's run specs declare. HELM writes
 * `<name>@<k>` beside `<name>` when a run asks for k > 1 outputs per instance (simple_mcqa: 5), so
 * that form is accepted exactly for the run specs' own k (for every declared name: the check only
 * refuses what cannot be written, and guard.metric_missing still reads what was).
 */
export function checkMetricNames(
  runs: GatedRun[],
  declared: { ok: true; byEntry: Map<string, DeclaredEntry> } | { ok: false; problem: string },
  source: string
): MetricNameCheck {
  if (!declared.ok) return { lines: [`not checked: ${declared.problem}`], refused: [] }
  const lines: string[] = []
  const refused: ConfigError[] = []
  for (const [index, run] of runs.entries()) {
    const found = declared.byEntry.get(run.entry)
    const name = `${run.entry} ${run.metric}`
    if (!found) {
      lines.push(`${name}: not checked (the helper did not answer for this entry)`)
      continue
    }
    if ('error' in found) {
      lines.push(`${name}: not checked (HELM could not build the run spec: ${found.error})`)
      continue
    }
    const names = new Set(found.runSpecs.flatMap(spec => spec.declared))
    const outputs = [...new Set(found.runSpecs.map(spec => spec.numOutputs).filter(k => k > 1))]
    const withOutputs = [...names].flatMap(metric => outputs.map(k => `${metric}@${k}`))
    if (names.has(run.metric) || withOutputs.includes(run.metric)) {
      lines.push(`${name}: declared by the run spec`)
      continue
    }
    const silent = [...new Set(found.runSpecs.flatMap(spec => spec.undeclared))]
    if (silent.length > 0) {
      lines.push(`${name}: not checked (${silent.join(', ')} declares no names; the run's own output is checked)`)
      continue
    }
    const near = closestWords(run.metric, [...names, ...withOutputs])
    const hint = near.length > 0 ? `; did you mean ${near.join(' or ')}?` : ''
    const alsoAt = outputs.length > 0 ? `, each also as <name>@${outputs.join(' or @')}` : ''
    lines.push(`${name}: NOT among the names its metrics write${hint}`)
    refused.push(
      new ConfigError(
        'config.metric_unknown',
        `run ${run.entry}: HELM's metrics for this entry write no metric ${run.metric}${hint} (they write ${[...names].sort().join(', ')}${alsoAt})`,
        { file: source, field: `runs[${index}].metric`, value: run.metric }
      )
    )
  }
  return { lines, refused }
}

/**
 * The check for a prepared run: asked of the first side helm-run makes (both sides run the same
 * entries; only the model differs). null when no side is made by helm-run (a runner command
 * brings its own HELM, whose names this helper cannot speak for).
 */
export async function checkPreparedMetricNames(
  prepared: PreparedRun,
  settings: { helmRun: string; pluginPath: string; env: NodeJS.ProcessEnv; source: string }
): Promise<MetricNameCheck | null> {
  const plan = prepared.plans.find(side => side.runner === null)
  if (!plan) return null
  let declared: DeclaredMetrics
  try {
    declared = await declaredMetricNames(plan, {
      python: await pythonFor(settings.helmRun),
      pluginPath: settings.pluginPath,
      env: settings.env
    })
  } catch (error) {
    declared = { ok: false, problem: (error as Error).message }
  }
  return checkMetricNames(prepared.runs, byGateEntry(prepared.runs, plan.entries, declared), settings.source)
}

/**
 * The helper's answers keyed by the gate file's entry. The side plan's entries are the gate
 * file's unique entries in order, each with the side's model added (side-plan.ts), and the helper
 * answers in the order it was asked; an answer out of that order is a problem, never a guess.
 */
export function byGateEntry(
  runs: GatedRun[],
  fullEntries: string[],
  declared: DeclaredMetrics
): { ok: true; byEntry: Map<string, DeclaredEntry> } | { ok: false; problem: string } {
  if (!declared.ok) return declared
  const unique = uniqueEntries(runs)
  if (unique.length !== fullEntries.length || declared.entries.some((answer, i) => answer.entry !== fullEntries[i])) {
    return { ok: false, problem: 'the metric-name helper answered for other entries than it was asked' }
  }
  return { ok: true, byEntry: new Map(unique.map((entry, i) => [entry, declared.entries[i]])) }
}

/** Every refusal as one error (the first one's location), so a gate file is fixed in one pass. */
export function refusalOf(check: MetricNameCheck | null): ConfigError | null {
  if (!check || check.refused.length === 0) return null
  const [first, ...rest] = check.refused
  if (rest.length === 0) return first
  return new ConfigError(first.code, check.refused.map(error => error.message).join('; '), first.location)
}

async function runBounded(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; problem?: string }> {
  return new Promise(resolve => {
    let stdout = ''
    let stderr = ''
    let child
    try {
      child = spawn(file, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    } catch (error) {
      resolve({ stdout: '', problem: `could not start ${file}: ${(error as Error).message}` })
      return
    }
    const pgid = child.pid
    const release = pgid ? trackGroup({ pgid, label: 'metric-name helper', stop: async () => killGroupNow(pgid) }) : () => {}
    const timer = setTimeout(() => pgid && killGroupNow(pgid), HELPER_TIMEOUT_MS)
    child.stdout.on('data', chunk => (stdout += chunk))
    child.stderr.on('data', chunk => (stderr = (stderr + chunk).slice(-4000)))
    child.on('error', error => {
      clearTimeout(timer)
      release()
      resolve({ stdout: '', problem: `could not start ${file}: ${error.message}` })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      release()
      if (code === 0) {
        resolve({ stdout })
        return
      }
      const last = stderr.trim().split('\n').filter(Boolean).pop() ?? ''
      resolve({ stdout, problem: `the metric-name helper exited with ${code ?? signal}${last ? `: ${last}` : ''}` })
    })
  })
}
