/**
 * What a run *is*, independent of which deployment answered it. Run directory names are lossy
 * and depend on the order of keys in the run entry (docs/helm.md "Run names"), so runs are matched
 * across sides by their run_spec.json content instead.
 */
import { createHash } from 'node:crypto'
import type { RunSpecJson } from '../helm/types.js'

/** Adapter fields that name the deployment: the only ones allowed to differ between sides. */
const MODEL_FIELDS = new Set(['model', 'model_deployment'])

/** Stable JSON: object keys sorted, so equal content always gives equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>
    const keys = Object.keys(obj)
      .filter(k => obj[k] !== undefined)
      .sort()
    return `{${keys.map(k => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * The matching key of a run: its scenario and data augmentation. The adapter spec is checked
 * separately (see adapterDrift) so that a drifted adapter is reported as drift, naming the field,
 * rather than as two unrelated runs.
 */
export function runIdentity(spec: RunSpecJson): string {
  const identity = {
    scenario: spec.scenario_spec,
    augmentation: augmentationIdentity(spec.data_augmenter_spec)
  }
  return createHash('sha256').update(canonicalJson(identity)).digest('hex').slice(0, 16)
}

/**
 * HELM always writes a data_augmenter_spec; a run without augmentation has an empty
 * perturbation list. Older layouts omit it. Both mean "no augmentation".
 */
function augmentationIdentity(spec: Record<string, unknown> | undefined): unknown {
  if (!spec) return null
  const perturbations = spec['perturbation_specs']
  if (Array.isArray(perturbations) && perturbations.length === 0) return null
  return spec
}

export interface AdapterDifference {
  field: string
  baseline: unknown
  candidate: unknown
  /** For list fields: the position of the first element that differs. */
  index?: number
}

/** Adapter-spec fields that differ between the two sides, model fields excepted. */
export function adapterDrift(baseline: RunSpecJson, candidate: RunSpecJson): AdapterDifference[] {
  const b = baseline.adapter_spec ?? {}
  const c = candidate.adapter_spec ?? {}
  const fields = [...new Set([...Object.keys(b), ...Object.keys(c)])].filter(f => !MODEL_FIELDS.has(f)).sort()
  return fields
    .filter(field => canonicalJson(b[field]) !== canonicalJson(c[field]))
    .map(field => ({ field: `adapter_spec.${field}`, baseline: b[field], candidate: c[field] }))
}

/**
 * Run-spec fields that decide how answers are scored. Runs are matched by scenario and
 * augmentation only, so two runs of one scenario scored by different metric specs or annotators
 * (another HELM version, a hand-edited run spec) would pair up and their difference would
 * measure the scorer, not the model.
 */
const SCORING_FIELDS = ['metric_specs', 'annotators'] as const

export function scoringDrift(baseline: RunSpecJson, candidate: RunSpecJson): AdapterDifference[] {
  const out: AdapterDifference[] = []
  for (const field of SCORING_FIELDS) {
    const b: unknown[] = baseline[field] ?? []
    const c: unknown[] = candidate[field] ?? []
    if (canonicalJson(b) === canonicalJson(c)) continue
    // Name the first spec that differs: the whole lists are too long for a one-line message.
    let i = 0
    while (i < b.length && i < c.length && canonicalJson(b[i]) === canonicalJson(c[i])) i++
    out.push({ field, baseline: b[i] ?? null, candidate: c[i] ?? null, index: i })
  }
  return out
}

/** The run's name with the model parts removed, for display and for `match` globs. */
export function displayName(spec: RunSpecJson): string {
  const [base, ...parts] = spec.name.split(/(?=[:,])/)
  const kept: string[] = []
  let carryColon = false
  for (const part of parts) {
    if (/^[:,]\s*(model|model_deployment)=/.test(part)) {
      carryColon ||= part.startsWith(':')
      continue
    }
    // The removed part opened the argument list: the next part takes over its colon.
    kept.push(carryColon && part.startsWith(',') ? `:${part.slice(1)}` : part)
    carryColon = false
  }
  return base + kept.join('')
}

/**
 * The name a reviewer reads (the report's `run`, every message about the run): displayName with
 * the host's folders taken out of `path=`. HELM writes the scenario's absolute path into the run
 * name with each `/` as `_` (`custom_mcqa,path=_tmp_helm-gate-x_model_addition.jsonl`), which says
 * where this machine kept the file, not which file it was; the file's own name does. `match`
 * globs still see displayName, the name HELM gave.
 */
export function readableName(spec: RunSpecJson): string {
  const name = displayName(spec)
  const path = spec.scenario_spec?.args?.path
  if (typeof path !== 'string' || !path.includes('/')) return name
  const file = path.split('/').filter(Boolean).pop()
  if (!file) return name
  return name.split(`path=${path.replace(/\//g, '_')}`).join(`path=${file}`)
}

/** The scenario's base name from the run name (`dyck_language_np=3` → `dyck_language_np=3`, `a:b=1` → `a`). */
export function baseName(spec: RunSpecJson): string {
  return spec.name.split(/[:,]/)[0]
}
