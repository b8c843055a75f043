/**
 * Finds, for each gated entry, its run on each side, and pairs runs across sides.
 */
import type { GatedRun } from '../config/types.js'
import type { RunDirectory, RunSpecJson } from '../helm/types.js'
import { baseName, displayName, runIdentity } from './run-identity.js'

/** Keys that HELM's run expanders consume; they never appear in scenario_spec.args. */
const EXPANDER_KEYS = new Set(['data_augmentation', 'max_train_instances', 'eval_split', 'num_outputs', 'num_train_trials'])

export interface EntryParts {
  scenario: string
  args: Map<string, string>
}

export function parseEntry(entry: string): EntryParts {
  const colon = entry.indexOf(':')
  const scenario = colon < 0 ? entry : entry.slice(0, colon)
  const args = new Map<string, string>()
  if (colon >= 0) {
    for (const part of entry.slice(colon + 1).split(',')) {
      if (!part) continue
      const eq = part.indexOf('=')
      if (eq < 0) args.set(part, 'true')
      else args.set(part.slice(0, eq), part.slice(eq + 1))
    }
  }
  return { scenario, args }
}

function hasAugmentation(spec: RunSpecJson): boolean {
  const perturbations = spec.data_augmenter_spec?.['perturbation_specs']
  return Array.isArray(perturbations) && perturbations.length > 0
}

/** Glob with `*` (any run of characters) and `?` (one character); everything else is literal. */
export function globMatches(pattern: string, text: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${re}$`).test(text)
}

function argSatisfied(spec: RunSpecJson, key: string, value: string): boolean {
  const nameValue = value.replace(/\//g, '_')
  const segments = spec.name.split(/[:,]/)
  if (segments.includes(`${key}=${nameValue}`)) return true
  const scenarioArg = spec.scenario_spec?.args?.[key]
  if (scenarioArg !== undefined && String(scenarioArg).replace(/\//g, '_') === nameValue) return true
  // `path=./data/gate.jsonl` reaches HELM resolved to an absolute path (src/runner/side-plan.ts).
  if (key === 'path' && (value.startsWith('./') || value.startsWith('../')) && typeof scenarioArg === 'string') {
    const tail = value
      .split('/')
      .filter(segment => segment !== '' && segment !== '.' && segment !== '..')
      .join('/')
    if (scenarioArg.startsWith('/') && scenarioArg.endsWith(`/${tail}`)) return true
  }
  const adapterArg = spec.adapter_spec?.[key]
  if (EXPANDER_KEYS.has(key) && adapterArg !== undefined && String(adapterArg) === value) return true
  return false
}

/** Does this run come from this gate entry? */
export function runMatchesEntry(run: RunDirectory, gated: GatedRun): boolean {
  const spec = run.runSpec
  if (gated.match !== null) return globMatches(gated.match, displayName(spec))
  const { scenario, args } = parseEntry(gated.entry)
  const base = baseName(spec)
  // dyck_language:num_parenthesis_pairs=3 is named dyck_language_np=3 by its run-spec function.
  if (base !== scenario && !base.startsWith(`${scenario}_`)) return false
  const wantsAugmentation = args.has('data_augmentation')
  if (wantsAugmentation !== hasAugmentation(spec)) return false
  for (const [key, value] of args) {
    if (key === 'data_augmentation') {
      if (!spec.name.split(/[:,]/).includes(`data_augmentation=${value}`)) return false
      continue
    }
    if (!argSatisfied(spec, key, value)) return false
  }
  return true
}

export interface RunPair {
  identity: string
  baseline: RunDirectory
  candidate: RunDirectory
}

export interface RunPairing {
  pairs: RunPair[]
  onlyBaseline: RunDirectory[]
  onlyCandidate: RunDirectory[]
  /** Identities that occur more than once on one side (ambiguous). */
  duplicates: { side: 'baseline' | 'candidate'; runs: RunDirectory[] }[]
}

export function pairRuns(baseline: RunDirectory[], candidate: RunDirectory[]): RunPairing {
  const group = (runs: RunDirectory[]): Map<string, RunDirectory[]> => {
    const map = new Map<string, RunDirectory[]>()
    for (const run of runs) {
      const id = runIdentity(run.runSpec)
      map.set(id, [...(map.get(id) ?? []), run])
    }
    return map
  }
  const b = group(baseline)
  const c = group(candidate)
  const result: RunPairing = { pairs: [], onlyBaseline: [], onlyCandidate: [], duplicates: [] }
  for (const [id, runs] of b) {
    if (runs.length > 1) result.duplicates.push({ side: 'baseline', runs })
    const other = c.get(id)
    if (!other) result.onlyBaseline.push(...runs)
    else result.pairs.push({ identity: id, baseline: runs[0], candidate: other[0] })
  }
  for (const [id, runs] of c) {
    if (runs.length > 1) result.duplicates.push({ side: 'candidate', runs })
    if (!b.has(id)) result.onlyCandidate.push(...runs)
  }
  // UTF-16 code-unit order: localeCompare depends on the machine's locale ("ä" sorts before "z" in
  // en-US, after it in sv-SE), and this order is the order of the JSON report.
  result.pairs.sort((x, y) => compareCodePoints(x.baseline.runSpec.name, y.baseline.runSpec.name))
  return result
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
