/**
 * Reads and validates the gate file. Validation is strict on purpose: the file is the frozen
 * gate set that blocks releases, so an unknown key, a wrong type or an impossible value is an
 * error naming the key path, never a silent default.
 */
import { checkCommandOutputsAgree, parseCommandDeployment, refuseCommandOutput } from './runner-command.js'
import { readFile } from 'node:fs/promises'
import { parseDocument } from 'yaml'
import { ConfigError } from '../errors.js'
import { parseLoad } from './load-section.js'
import { parseTraffic, type SetReader } from './traffic.js'
import { parseFidelityWithSides } from './fidelity.js'
import { DEFAULT_STATISTICS, type Deployment, type GateConfig, type GatedRun, type HelmSettings, type StatisticsSettings } from './types.js'
import { checkScheduleFits, launchNeedsServer, parseLaunch, parseLaunchSettings, type LaunchSide, type LaunchSpec } from './launch.js'
import { Fields } from './validate.js'
import { calibrationNeedsLogprobs, checkComparableDeployments } from './deployment-rules.js'
import { parseAnswerLengthBand } from './answer-length-band.js'
import { parseCalibrationCheck } from './calibration-check.js'
import { checkStoppingFits, parseStoppingSection } from './sequential-section.js'
import { parseRequiredFamilies } from './holistic-families.js'
import { checkRequiredFamilies } from './holistic-require.js'
import { looksLikeSecret } from '../secrets/redact.js'
import type { GateSection } from './sections.js'

export async function loadGateConfig(file: string, options: ParseOptions = {}): Promise<GateConfig> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new ConfigError('config.unreadable', `cannot read the gate file: ${(error as Error).message}`, {
      file
    })
  }
  return parseGateConfig(text, file, options)
}

/**
 * YAML text to plain data, every failure a ConfigError naming the file (and the line where the
 * parser knows it): syntax errors, duplicate keys, alias bombs (the yaml library's "Excessive
 * alias count"), nesting too deep for the parser. Only the first line of the parser's message is
 * kept: the next lines quote the source, which may hold a key.
 */
export function parseYamlFile(text: string, source: string, what = 'the gate file'): unknown {
  checkYamlShape(text, source, what)
  let doc
  try {
    doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true })
  } catch (error) {
    throw new ConfigError('config.yaml', `${what} is not valid YAML: ${firstLine(error)}`, { file: source })
  }
  if (doc.errors.length > 0) {
    const first = doc.errors[0]
    const line = first.linePos?.[0]?.line
    throw new ConfigError('config.yaml', `${what} is not valid YAML${line ? ` (line ${line})` : ''}: ${firstLine(first)}`, {
      file: source,
      field: line ? `line ${line}` : undefined
    })
  }
  try {
    return doc.toJS({ maxAliasCount: 100 })
  } catch (error) {
    const why = error instanceof RangeError ? 'it nests too deeply' : firstLine(error)
    throw new ConfigError('config.yaml', `${what} cannot be loaded: ${why}`, { file: source })
  }
}

/**
 * Far beyond any gate file or prod_env file. Deep nesting needs no limit of its own: the yaml
 * library reports its own stack overflow as a parse error, which becomes a config.yaml error.
 */
export const YAML_MAX_BYTES = 1024 * 1024

function checkYamlShape(text: string, source: string, what: string): void {
  if (text.length > YAML_MAX_BYTES) {
    throw new ConfigError('config.yaml', `${what} is larger than ${YAML_MAX_BYTES} bytes`, { file: source, value: text.length })
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return (message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '').slice(0, 200)
}

export interface ParseOptions {
  /** How the traffic set is read (the action reads it at the base commit); the file by default. */
  readSet?: SetReader
  /**
   * The sections measurements own (src/pipeline/measurement-definitions.ts gives the list): each key is
   * allowed at the top of the gate file and read by its own parser. None by default.
   */
  sections?: readonly GateSection[]
}

/** The top-level keys this file reads itself; a measurement's section may not take one. */
const OWN_KEYS = [
  'version',
  'helm',
  'deployments',
  'runs',
  'statistics',
  'load',
  'schedule',
  'fingerprint_paths',
  'traffic',
  'fidelity',
  'require',
  'sequential'
]

export function parseGateConfig(text: string, source: string, options: ParseOptions = {}): GateConfig {
  const owned = options.sections ?? []
  for (const section of owned) {
    if (OWN_KEYS.includes(section.key) || owned.filter(s => s.key === section.key).length > 1) {
      // A programming error in the list, not in the gate file: two readers of one key.
      throw new Error(`the gate-file section ${section.key} has more than one reader`)
    }
  }
  const top = Fields.of(source, '', parseYamlFile(text, source)).allow([...OWN_KEYS, ...owned.map(s => s.key)])
  const sectionFields = owned.map(section => [section, top.object(section.key)] as const)
  const version = top.integer('version', 1, 1, 1)
  const helmFields = top.object('helm')
  const deploymentFields = top.object('deployments')
  const runList = top.list('runs')
  const statisticsFields = top.object('statistics')
  const loadFields = top.object('load')
  const trafficFields = top.object('traffic')
  const fidelityFields = top.object('fidelity')
  const stopping = parseStoppingSection(top)
  const required = parseRequiredFamilies(top)
  const launches: Partial<Record<LaunchSide, LaunchSpec>> = {}
  const deployments = deploymentFields ? parseDeployments(deploymentFields, launches) : null
  const launch = parseLaunchSettings(top, launches)
  checkScheduleFits(top, launch, baseUrlsOf(deployments))
  top.done()
  const traffic = trafficFields ? parseTraffic(trafficFields, source, options.readSet) : null
  if (traffic) trafficNeedsChatServers(source, deployments)

  if (!runList || runList.length === 0) {
    throw new ConfigError('config.missing', 'runs must list at least one gated run', {
      file: source,
      field: 'runs'
    })
  }
  const runs = runList.map((item, i) => parseRun(Fields.of(source, `runs[${i}]`, item)))
  const entries = new Set<string>()
  runs.forEach((run, i) => {
    const key = `${run.entry}|${run.metric}|${run.split ?? ''}`
    if (entries.has(key)) {
      throw new ConfigError('config.duplicate', `runs[${i}] repeats an earlier entry and metric`, {
        file: source,
        field: `runs[${i}].entry`,
        value: run.entry
      })
    }
    entries.add(key)
  })
  calibrationNeedsLogprobs(source, runs, deployments)
  const fidelity = fidelityFields ? parseFidelityWithSides(fidelityFields, deployments) : null
  checkRequiredFamilies(source, required, runs, fidelity)
  const helm = helmFields ? parseHelm(helmFields) : null
  const sections: Record<string, unknown> = {}
  for (const [section, fields] of sectionFields) if (fields) sections[section.key] = section.parse(fields, { source, deployments })
  checkStoppingFits(stopping, {
    source,
    helm,
    deployments,
    runs,
    present: { traffic: traffic !== null, fidelity: fidelity !== null }
  })

  return {
    version: version as 1,
    source,
    helm,
    deployments,
    runs,
    statistics: statisticsFields ? parseStatistics(statisticsFields) : { ...DEFAULT_STATISTICS },
    load: loadFields ? parseLoad(loadFields) : null,
    fidelity,
    launch,
    traffic,
    ...(required.length > 0 ? { require: required } : {}),
    ...(stopping ? { stopping } : {}),
    ...(Object.keys(sections).length > 0 ? { sections } : {})
  }
}

/** The replay talks to each side's chat API itself: a prod_env deployment or a completions API has none to give it. */
function trafficNeedsChatServers(source: string, deployments: { baseline: Deployment; candidate: Deployment } | null): void {
  if (!deployments) {
    throw new ConfigError('config.missing', 'traffic needs deployments (a chat server per side) to replay the set on', {
      file: source,
      field: 'deployments'
    })
  }
  for (const side of ['baseline', 'candidate'] as const) {
    const d = deployments[side]
    if (d.kind !== 'server' || d.api !== 'chat') {
      throw new ConfigError('config.invalid', `traffic replays chat requests: deployments.${side} must be a server with api: chat`, {
        file: source,
        field: `deployments.${side}`,
        value: d.kind === 'server' ? `api: ${d.api}` : 'prod_env'
      })
    }
  }
}

function baseUrlsOf(deployments: { baseline: Deployment; candidate: Deployment } | null): Partial<Record<LaunchSide, string>> {
  const url = (d: Deployment | undefined): string | undefined => (d?.kind === 'server' ? d.baseUrl : undefined)
  return { baseline: url(deployments?.baseline), candidate: url(deployments?.candidate) }
}

function parseRun(f: Fields): GatedRun {
  f.allow([
    'entry',
    'match',
    'metric',
    'split',
    'max_drop',
    'max_relative_drop',
    'lower_is_better',
    'perturbations',
    'answer_length_ratio',
    'calibration'
  ])
  const entry = f.string('entry')
  if (/(^|[:,])\s*model(_deployment)?\s*=/.test(entry)) {
    f.fail('entry', `${f.at('entry')} must not name a model: helm-gate adds each side's model itself`)
  }
  if (/\s/.test(entry)) f.fail('entry', `${f.at('entry')} must not contain spaces`)
  const match = f.string('match', null)
  const metric = f.string('metric')
  const split = f.string('split', null)
  const maxDrop = f.optionalNumber('max_drop', n => n >= 0, 'a number >= 0 (metric units)')
  const maxRelativeDrop = f.optionalNumber('max_relative_drop', n => n > 0 && n < 1, 'a fraction between 0 and 1')
  if (maxDrop === null && maxRelativeDrop === null) {
    f.fail('max_drop', `${f.path} needs max_drop (metric units) or max_relative_drop (a fraction)`, null)
  }
  if (maxDrop !== null && maxRelativeDrop !== null) {
    f.fail('max_relative_drop', `${f.path} sets both max_drop and max_relative_drop; choose one`)
  }
  const lowerIsBetter = f.boolean('lower_is_better', false)
  const perturbations = f.choice('perturbations', ['report', 'gate'] as const, 'report')
  const answerLength = parseAnswerLengthBand(f)
  const calibration = parseCalibrationCheck(f)
  f.done()
  return {
    entry,
    match,
    metric,
    split,
    maxDrop,
    maxRelativeDrop,
    direction: lowerIsBetter ? 'lower' : 'higher',
    perturbations,
    ...(answerLength ? { answerLength } : {}),
    ...(calibration ? { calibration } : {})
  }
}

function parseHelm(f: Fields): HelmSettings {
  f.allow(['version', 'max_eval_instances', 'num_train_trials', 'num_threads', 'timeout_minutes', 'command'])
  const version = f.string('version')
  if (!/^\d+\.\d+\.\d+$/.test(version)) f.fail('version', `${f.at('version')} must be an exact version like 0.5.16`)
  const settings: HelmSettings = {
    version,
    maxEvalInstances: f.integer('max_eval_instances', undefined, 1),
    numTrainTrials: f.integer('num_train_trials', 1, 1, 100),
    numThreads: f.integer('num_threads', 4, 1, 256),
    timeoutMinutes: f.number('timeout_minutes', 60, n => n > 0 && n <= 24 * 60, 'minutes between 0 and 1440'),
    command: f.string('command', 'helm-run') as string
  }
  f.done()
  return settings
}

function parseDeployments(f: Fields, launches: Partial<Record<LaunchSide, LaunchSpec>>): { baseline: Deployment; candidate: Deployment } {
  f.allow(['baseline', 'candidate'])
  const baseline = f.object('baseline')
  const candidate = f.object('candidate')
  f.done()
  if (!baseline) f.fail('baseline', `${f.at('baseline')} is required`, null)
  if (!candidate) f.fail('candidate', `${f.at('candidate')} is required`, null)
  const sides = { baseline: parseDeployment(baseline, launches, 'baseline'), candidate: parseDeployment(candidate, launches, 'candidate') }
  checkCommandOutputsAgree(f, sides.baseline, sides.candidate)
  checkComparableDeployments(sides.baseline, sides.candidate, f.source)
  return sides
}

function parseDeployment(f: Fields, launches: Partial<Record<LaunchSide, LaunchSpec>>, side: LaunchSide): Deployment {
  if (f.has('command')) return parseCommandDeployment(f)
  refuseCommandOutput(f)
  if (f.has('prod_env')) {
    if (f.has('launch')) launchNeedsServer(f)
    f.allow(['prod_env', 'deployment'])
    const localPath = f.string('prod_env')
    const deployment = f.string('deployment')
    f.done()
    return { kind: 'prod_env', localPath, deployment }
  }
  f.allow(['api', 'base_url', 'model', 'tokenizer', 'max_sequence_length', 'api_key_env', 'request_timeout_seconds', 'launch'])
  const api = f.choice('api', ['chat', 'completions'] as const, undefined)
  const baseUrl = f.string('base_url')
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    f.fail('base_url', `${f.at('base_url')} must be an http(s) URL such as http://127.0.0.1:8000/v1`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    f.fail('base_url', `${f.at('base_url')} must use http or https`)
  }
  if (url.username || url.password) {
    f.fail('base_url', `${f.at('base_url')} must not embed credentials; use api_key_env`, url.host)
  }
  // HELM's client and the load generator append /chat/completions to base_url: a query or
  // fragment would end up in front of that path (and a query may carry a key, so it is not shown).
  if (url.search || url.hash) {
    f.fail(
      'base_url',
      `${f.at('base_url')} must not have a query (?...) or fragment (#...): give the API root such as http://host:8000/v1`,
      url.host
    )
  }
  const model = f.string('model')
  const tokenizer = f.string('tokenizer', 'simple/tokenizer1') as string
  const maxSequenceLength = f.integer('max_sequence_length', 4096, 16)
  const apiKeyEnv = f.string('api_key_env', null)
  // A key pasted here can match the variable-name pattern (ghp_..., hf_...): it would then be
  // printed as "the variable ... is not set". Key-looking names are refused without the value.
  if (apiKeyEnv !== null && (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv) || looksLikeSecret(apiKeyEnv))) {
    f.fail('api_key_env', `${f.at('api_key_env')} must be the NAME of an environment variable, not a key`, '(hidden)')
  }
  const requestTimeoutSeconds = f.number('request_timeout_seconds', 60, n => n > 0 && n <= 3600, 'seconds between 0 and 3600')
  const launchFields = f.object('launch')
  if (launchFields) launches[side] = parseLaunch(launchFields)
  f.done()
  return {
    kind: 'server',
    api,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model,
    tokenizer,
    maxSequenceLength,
    apiKeyEnv,
    requestTimeoutSeconds
  }
}

export function parseStatistics(f: Fields): StatisticsSettings {
  f.allow(['confidence', 'resamples', 'seed', 'min_overlap', 'interval', 'flip_tolerance'])
  const settings: StatisticsSettings = {
    confidence: f.number('confidence', DEFAULT_STATISTICS.confidence, n => n >= 0.5 && n < 1, 'a level in [0.5, 1), e.g. 0.95'),
    resamples: f.integer('resamples', DEFAULT_STATISTICS.resamples, 100, 10_000_000),
    seed: f.integer('seed', DEFAULT_STATISTICS.seed, 0, 2 ** 32 - 1),
    minOverlap: f.number('min_overlap', DEFAULT_STATISTICS.minOverlap, n => n > 0 && n <= 1, 'a fraction in (0, 1]'),
    interval: f.choice('interval', ['auto', 'bootstrap', 'newcombe', 'tango'] as const, DEFAULT_STATISTICS.interval),
    flipTolerance: f.number('flip_tolerance', DEFAULT_STATISTICS.flipTolerance, n => n >= 0, 'a number >= 0')
  }
  f.done()
  return settings
}
