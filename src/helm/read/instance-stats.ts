/**
 * per_instance_stats.json → values the gate can pair instance by instance.
 *
 * HELM quirks handled here (docs/helm.md "per_instance_stats.json"): several entries can share a key (one per
 * metric class) and are merged; perturbed copies share `instance_id` with the clean instance;
 * the split exists only inside each stat's name; rows are not sorted.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { InputError } from '../../errors.js'
import type { HelmLayout, InstanceStatValue, PerInstanceSeries, PerInstanceStatsTable, PerturbationJson, RunDirectory } from '../types.js'
import { ElementChecker } from './element-checker.js'
import { NATIVE_PARSE_LIMIT, streamJsonArray } from './json-stream.js'
import { scanPerInstanceStats, type ScannedEntry } from './instance-stats-scan.js'
import { detectLayout } from './run-spec.js'

const FILE_NAME = 'per_instance_stats.json'

/**
 * Identity of a perturbation for pairing: name, seed, and computed_on when it is not the usual
 * "perturbed". Never the whole object: fairness perturbations embed local file paths
 * (`mapping_file_path`, `name_file_path`) that differ between machines.
 */
export function perturbationKey(perturbation: PerturbationJson | null | undefined): string | null {
  if (!perturbation) return null
  let key = perturbation.name
  if (perturbation.seed !== undefined && perturbation.seed !== null) key += `#${perturbation.seed}`
  if (perturbation.computed_on !== undefined && perturbation.computed_on !== 'perturbed') key += `@${perturbation.computed_on}`
  return key
}

export function seriesKey(metric: string, split: string | null, perturbation: string | null): string {
  return JSON.stringify([metric, split, perturbation])
}

/** Key of a value inside a series (the perturbation is fixed by the series). */
export function instanceStatKey(instanceId: string, trainTrialIndex: number): string {
  return JSON.stringify([instanceId, trainTrialIndex])
}

/**
 * The series of `metric` under `perturbation` (null: clean) in `split`, or in every split when
 * `split` is null (instance ids are unique across splits, so their values can be pooled).
 */
export function findSeries(
  table: PerInstanceStatsTable,
  metric: string,
  split: string | null,
  perturbation: string | null
): PerInstanceSeries[] {
  if (split !== null) {
    const one = table.series.get(seriesKey(metric, split, perturbation))
    return one ? [one] : []
  }
  return [...table.series.values()].filter(s => s.metric === metric && s.perturbation === perturbation)
}

class EntryChecker extends ElementChecker {
  constructor(
    file: string,
    private readonly index: number
  ) {
    super(file)
  }

  protected pathOf(field: string): string {
    return `[${this.index}]${field ? `.${field}` : ''}`
  }

  optionalString(value: unknown, field: string): string | null {
    return value === undefined ? null : this.string(value, field)
  }

  /** Sums may be NaN or infinite (HELM before 0.2.4; bare tokens); the gate decides what to do. */
  number(value: unknown, field: string): number {
    if (typeof value !== 'number') this.fail(field, 'a number', value)
    return value
  }

  perturbation(value: unknown, field: string): PerturbationJson | null {
    if (value === undefined) return null
    const object = this.object(value, field)
    this.string(object.name, `${field}.name`)
    if (object.seed !== undefined && object.seed !== null) this.number(object.seed, `${field}.seed`)
    if (object.computed_on !== undefined) this.string(object.computed_on, `${field}.computed_on`)
    return object as PerturbationJson
  }
}

export interface ReadPerInstanceStatsOptions {
  /** Bytes per read (tests use small chunks). */
  chunkSize?: number
  /** Fed the file's bytes (see streamJson). */
  digest?: { update(data: Uint8Array): unknown }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isNatural(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

/**
 * The file's entries by the targeted scanner (instance-stats-scan.ts), or undefined when the
 * general streaming parser must read it: too large to hold, unreadable (the streaming path
 * reports that), or anything the scanner leaves to the general parser.
 */
async function scanFile(file: string): Promise<{ bytes: Buffer; entries: ScannedEntry[] } | undefined> {
  let bytes: Buffer
  try {
    const info = await stat(file)
    if (!info.isFile() || info.size > NATIVE_PARSE_LIMIT) return undefined
    bytes = await readFile(file)
  } catch {
    return undefined
  }
  const entries = scanPerInstanceStats(bytes)
  return entries === undefined ? undefined : { bytes, entries }
}

/** The stats file of a run directory (or a file path, read as HELM 0.4+) and its layout. */
function statsFileOf(run: RunDirectory | string): { file: string; layout: HelmLayout } {
  if (typeof run === 'string') return { file: run, layout: '0.4+' }
  const file = join(run.path, FILE_NAME)
  if (!run.files.perInstanceStats) throw new InputError('input.missing_file', `${run.path} has no ${FILE_NAME}`, { file })
  return { file, layout: run.layout ?? detectLayout(run.runSpec) }
}

/** Each entry of the file in order, with its index: scanned whole when it can be, else streamed. */
async function forEachEntry(
  file: string,
  options: ReadPerInstanceStatsOptions,
  add: (index: number, value: unknown) => void
): Promise<void> {
  const scanned = options.chunkSize === undefined ? await scanFile(file) : undefined
  if (scanned !== undefined) {
    options.digest?.update(scanned.bytes)
    scanned.entries.forEach((entry, index) => add(index, entry))
  } else {
    for await (const { index, value } of streamJsonArray(file, { chunkSize: options.chunkSize, digest: options.digest })) add(index, value)
  }
}

/** Reads and merges per_instance_stats.json of a run directory (or a file path). */
export async function readPerInstanceStats(
  run: RunDirectory | string,
  options: ReadPerInstanceStatsOptions = {}
): Promise<PerInstanceStatsTable> {
  const { file, layout } = statsFileOf(run)
  const series = new Map<string, PerInstanceSeries>()
  const keys = new Set<string>()
  let entries = 0
  // Every entry lists the same stats in the same order, so the series of the stat at position s
  // is almost always the one the previous entry's stat s went to: remembering it saves building
  // and hashing a key per stat (measured by bench/compare.mjs).
  const lastAt: { metric: string; split: string | null; perturbation: string | null; target: PerInstanceSeries }[] = []
  const add = (index: number, value: unknown): void => {
    entries++
    const check: EntryChecker = new EntryChecker(file, index)
    const entry = check.object(value, '')
    const instanceId = check.string(entry.instance_id, 'instance_id')
    const trainTrialIndex = check.natural(entry.train_trial_index, 'train_trial_index')
    const entryPerturbation = check.perturbation(entry.perturbation, 'perturbation')
    keys.add(JSON.stringify([instanceId, trainTrialIndex, perturbationKey(entryPerturbation)]))
    const stats: unknown = entry.stats
    if (!Array.isArray(stats)) check.fail('stats', 'an array', stats)
    const vKey = instanceStatKey(instanceId, trainTrialIndex)

    for (let s = 0; s < stats.length; s++) {
      // The usual case is checked inline; a field path is built only for an error (building eight
      // per stat was a fifth of the reading time on a real-shaped file).
      const rawStat: unknown = stats[s]
      const at = (field: string): string => `stats[${s}]${field}`
      const stat = isPlainObject(rawStat) ? rawStat : check.object(rawStat, at(''))
      const name = isPlainObject(stat.name) ? stat.name : check.object(stat.name, at('.name'))
      const metric = typeof name.name === 'string' ? name.name : check.string(name.name, at('.name.name'))
      const split = typeof name.split === 'string' ? name.split : check.optionalString(name.split, at('.name.split'))
      const subSplit = name.sub_split === undefined ? null : check.optionalString(name.sub_split, at('.name.sub_split'))
      // The stat repeats the entry's perturbation in its name; take the stat's own when present.
      const perturbation =
        name.perturbation === undefined
          ? entryPerturbation
          : (check.perturbation(name.perturbation, at('.name.perturbation')) ?? entryPerturbation)
      const count = isNatural(stat.count) ? stat.count : check.natural(stat.count, at('.count'))
      const sum = typeof stat.sum === 'number' ? stat.sum : check.number(stat.sum, at('.sum'))

      const pKey = perturbationKey(perturbation)
      const last = lastAt[s]
      let target =
        last !== undefined && last.metric === metric && last.split === split && last.perturbation === pKey ? last.target : undefined
      if (!target) {
        const sKey = seriesKey(metric, split, pKey)
        target = series.get(sKey)
        if (!target) {
          target = {
            metric,
            split,
            perturbation: pKey,
            perturbationName: perturbation?.name ?? null,
            computedOn: perturbation ? (perturbation.computed_on ?? 'perturbed') : null,
            values: new Map()
          }
          series.set(sKey, target)
        }
        lastAt[s] = { metric, split, perturbation: pKey, target }
      }
      const existing = target.values.get(vKey)
      if (existing) {
        existing.count += count
        existing.sum += sum
        existing.occurrences++
      } else {
        const value: InstanceStatValue = { instanceId, trainTrialIndex, subSplit, count, sum, occurrences: 1 }
        target.values.set(vKey, value)
      }
    }
  }

  await forEachEntry(file, options, add)
  return { file, layout, entries, instanceKeys: keys.size, series }
}
