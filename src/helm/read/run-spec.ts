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

export function validateRunSpec(value: unknown, file: string): RunSpecJson {
  if (!isObject(value)) throw wrongType(file, 'run_spec', 'an object', value)
  if (typeof value.name !== 'string' || value.name === '') throw wrongType(file, 'name', 'a non-empty string', value.name)
  checkObjectSpec(file, 'scenario_spec', value.scenario_spec)
  if (!isObject(value.adapter_spec)) throw wrongType(file, 'adapter_spec', 'an object', value.adapter_spec)
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
