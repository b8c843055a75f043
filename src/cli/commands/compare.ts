/**
 * `helm-gate compare <baseline> <candidate> [options]`: compare two sets of existing HELM run
 * directories (or two lm-eval output folders) and decide. Exit 0 pass, 1 fail or inconclusive, 2 error.
 */
import { loadGateConfig } from '../../config/load.js'
import { gateSections } from '../../pipeline/measurement-definitions.js'
import { DEFAULT_STATISTICS, type GateConfig, type StatisticsSettings } from '../../config/types.js'
import { UsageError } from '../../errors.js'
import { compareOutputs } from '../../gate/compare.js'
import type { RunDefaults } from '../../model/harness.js'
import type { ChangedExample } from '../../model/report.js'
import { numberOption, parseArgs, type ParsedArgs } from '../args.js'
import type { CliIo } from '../io.js'
import { exitCode } from '../../model/publication.js'
import { reportStreams, writeReportOutputs } from '../output.js'
import { COMPARE_USAGE } from '../usage.js'

const SPECS = {
  config: { value: true },
  metric: { value: true },
  split: { value: true },
  'max-drop': { value: true },
  'max-relative-drop': { value: true },
  'lower-is-better': { value: false },
  'gate-perturbations': { value: false },
  confidence: { value: true },
  resamples: { value: true },
  seed: { value: true },
  interval: { value: true },
  'min-overlap': { value: true },
  examples: { value: true },
  json: { value: true },
  markdown: { value: true },
  html: { value: true },
  quiet: { value: false },
  debug: { value: false },
  help: { value: false }
}

export async function compareCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, SPECS)
  if (args.flags.has('help')) {
    io.stdout(COMPARE_USAGE)
    return 0
  }
  if (args.positionals.length !== 2) {
    throw new UsageError('usage.positionals', `compare needs <baseline> and <candidate> paths\n\n${COMPARE_USAGE}`, {
      value: args.positionals.join(' ') || undefined
    })
  }
  const [baselinePath, candidatePath] = args.positionals
  const { config, defaults } = await configFromArgs(args)
  const examples = numberOption(args, 'examples', n => Number.isInteger(n) && n >= 0 && n <= 100, 'an integer from 0 to 100')
  const html = args.options.get('html') ?? null
  const changedAnswers = html ? new Map<string, ChangedExample[]>() : undefined
  const report = await compareOutputs(baselinePath, candidatePath, config, {
    defaults,
    examples: examples ?? 3,
    changedAnswers
  })
  const json = args.options.get('json')
  const { human, jsonStdout } = reportStreams(io, json)
  await writeReportOutputs(report, {
    json: jsonStdout ? null : (json ?? null),
    jsonStdout,
    markdown: args.options.get('markdown') ?? null,
    html,
    changed: changedAnswers,
    quiet: args.flags.has('quiet'),
    io: human
  })
  return exitCode(report.verdict)
}

async function configFromArgs(args: ParsedArgs): Promise<{ config: GateConfig; defaults: RunDefaults | null }> {
  const statistics = statisticsFromArgs(args)
  const configPath = args.options.get('config')
  if (configPath) {
    for (const name of ['metric', 'split', 'max-drop', 'max-relative-drop']) {
      if (args.options.has(name)) {
        throw new UsageError('usage.conflict', `--${name} cannot be combined with --config: the gate file sets it per run`, {
          field: `--${name}`
        })
      }
    }
    for (const name of ['lower-is-better', 'gate-perturbations']) {
      if (args.flags.has(name)) {
        throw new UsageError('usage.conflict', `--${name} cannot be combined with --config: the gate file sets it per run`)
      }
    }
    const config = await loadGateConfig(configPath, { sections: gateSections() })
    return { config: { ...config, statistics: { ...config.statistics, ...statistics } }, defaults: null }
  }
  const metric = args.options.get('metric')
  if (!metric) throw new UsageError('usage.missing', 'give --metric NAME (or a gate file with --config)')
  const maxDrop = numberOption(args, 'max-drop', n => n >= 0, 'a number >= 0 (metric units)')
  const maxRelativeDrop = numberOption(args, 'max-relative-drop', n => n > 0 && n < 1, 'a fraction between 0 and 1')
  if (maxDrop === undefined && maxRelativeDrop === undefined) {
    throw new UsageError(
      'usage.missing',
      'give the tolerated drop: --max-drop M (metric units) or --max-relative-drop R (a fraction of the baseline)'
    )
  }
  if (maxDrop !== undefined && maxRelativeDrop !== undefined) {
    throw new UsageError('usage.conflict', 'give either --max-drop or --max-relative-drop, not both')
  }
  const config: GateConfig = {
    version: 1,
    source: '(command line)',
    helm: null,
    deployments: null,
    runs: [],
    statistics: { ...DEFAULT_STATISTICS, ...statistics }
  }
  return {
    config,
    defaults: {
      metric,
      split: args.options.get('split') ?? null,
      maxDrop: maxDrop ?? null,
      maxRelativeDrop: maxRelativeDrop ?? null,
      direction: args.flags.has('lower-is-better') ? 'lower' : 'higher',
      perturbations: args.flags.has('gate-perturbations') ? 'gate' : 'report',
      answerLength: null
    }
  }
}

function statisticsFromArgs(args: ParsedArgs): Partial<StatisticsSettings> {
  const out: Partial<StatisticsSettings> = {}
  const confidence = numberOption(args, 'confidence', n => n >= 0.5 && n < 1, 'a level in [0.5, 1), e.g. 0.95')
  if (confidence !== undefined) out.confidence = confidence
  const resamples = numberOption(
    args,
    'resamples',
    n => Number.isInteger(n) && n >= 100 && n <= 10_000_000,
    'an integer from 100 to 10000000'
  )
  if (resamples !== undefined) out.resamples = resamples
  const seed = numberOption(args, 'seed', n => Number.isInteger(n) && n >= 0 && n < 2 ** 32, 'an integer from 0 to 4294967295')
  if (seed !== undefined) out.seed = seed
  const minOverlap = numberOption(args, 'min-overlap', n => n > 0 && n <= 1, 'a fraction in (0, 1]')
  if (minOverlap !== undefined) out.minOverlap = minOverlap
  const interval = args.options.get('interval')
  if (interval !== undefined) {
    if (!['auto', 'bootstrap', 'newcombe', 'tango'].includes(interval)) {
      throw new UsageError('usage.value', '--interval must be auto, bootstrap, newcombe or tango', { value: interval })
    }
    out.interval = interval as StatisticsSettings['interval']
  }
  return out
}
