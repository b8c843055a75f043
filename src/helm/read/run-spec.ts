/**
 * run_spec.json and scenario.json: small files, read whole, checked for the fields the gate uses.
 */
import { readFile } from 'node:fs/promises'
import { InputError } from '../../errors.js'
import type { HelmLayout, RunSpecJson } from '../types.js'
import { describeJsonType, parseLenientJson } from './json-stream.js'

async function readSmallJson(file: string): Promise<unknown> {
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch (error) {
    throw new InputError('input.unreadable', `Cannot read ${file}: ${(error as Error).message}`, { file })
  }
  return parseLenientJson(bytes, file)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function wrongType(file: string, field: string, expected: string, value: unknown): InputError {
  return new InputError('input.wrong_type', `${field} in ${file} must be ${expected}, found ${describeJsonType(value)}`, {
    file,
    field,
    value
  })
}

function checkObjectSpec(file: string, field: string, value: unknown): void {
  if (!isObject(value)) throw wrongType(file, field, 'an object', value)
  if (typeof value.class_name !== 'string') throw wrongType(file, `${field}.class_name`, 'a string', value.class_name)
  // `args` is written as {} when empty; absent is tolerated for hand-written files.
  if (value.args !== undefined && !isObject(value.args)) throw wrongType(file, `${field}.args`, 'an object', value.args)
}

/**
 * The sampling fields the report header shows as what the requests sent (docs/report.md): each
 * may be absent (a hand-written file), never of another type, or the header would show a value
 * that was not sent.
 */
function checkSamplingFields(file: string, adapter: Record<string, unknown>): void {
  const { temperature, max_tokens, num_outputs, stop_sequences } = adapter
  if (temperature !== undefined && !(typeof temperature === 'number' && Number.isFinite(temperature))) {
    throw wrongType(file, 'adapter_spec.temperature', 'a number', temperature)
  }
  for (const [field, count] of [
    ['max_tokens', max_tokens],
    ['num_outputs', num_outputs]
  ] as const) {
    if (count !== undefined && !(typeof count === 'number' && Number.isInteger(count) && count >= 0)) {
      throw wrongType(file, `adapter_spec.${field}`, 'a whole number', count)
    }
  }
  if (stop_sequences !== undefined && !(Array.isArray(stop_sequences) && stop_sequences.every(s => typeof s === 'string'))) {
    throw wrongType(file, 'adapter_spec.stop_sequences', 'an array of strings', stop_sequences)
  }
}

export function validateRunSpec(value: unknown, file: string): RunSpecJson {
  if (!isObject(value)) throw wrongType(file, 'run_spec', 'an object', value)
  if (typeof value.name !== 'string' || value.name === '') throw wrongType(file, 'name', 'a non-empty string', value.name)
  checkObjectSpec(file, 'scenario_spec', value.scenario_spec)
  if (!isObject(value.adapter_spec)) throw wrongType(file, 'adapter_spec', 'an object', value.adapter_spec)
  checkSamplingFields(file, value.adapter_spec)
  if (!Array.isArray(value.metric_specs)) throw wrongType(file, 'metric_specs', 'an array', value.metric_specs)
  value.metric_specs.forEach((spec, i) => checkObjectSpec(file, `metric_specs[${i}]`, spec))
  if (value.data_augmenter_spec !== undefined && !isObject(value.data_augmenter_spec)) {
    throw wrongType(file, 'data_augmenter_spec', 'an object', value.data_augmenter_spec)
  }
  if (value.groups !== undefined && !(Array.isArray(value.groups) && value.groups.every(g => typeof g === 'string'))) {
    throw wrongType(file, 'groups', 'an array of strings', value.groups)
  }
  return value as unknown as RunSpecJson
}

export async function readRunSpec(file: string): Promise<RunSpecJson> {
  return validateRunSpec(await readSmallJson(file), file)
}

/** scenario.json `name`, or null when the file has none. */
export async function readScenarioName(file: string): Promise<string | null> {
  const value = await readSmallJson(file)
  if (!isObject(value)) throw wrongType(file, 'scenario', 'an object', value)
  if (value.name === undefined) return null
  if (typeof value.name !== 'string') throw wrongType(file, 'name', 'a string', value.name)
  return value.name
}

/**
 * `model_deployment` entered AdapterSpec in HELM 0.4.0 (#1903) and is always written since
 * (default ""), so its absence marks the 0.2.x shapes.
 */
export function detectLayout(runSpec: RunSpecJson): HelmLayout {
  return 'model_deployment' in runSpec.adapter_spec ? '0.4+' : '0.2'
}
